import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { getEditableSettings } from './settings.js';

/**
 * The scores every play feeds (docs/metrics.md "Scores, downloads and playlists"): exposure and
 * its percentile rank, the overplay score, and the download priority of songs without a file. The
 * database computes them in one statement (`recomputeScores`); the pure functions below are the
 * same formulas in TypeScript, for the documentation and for tests with hand-computed numbers, and
 * a test checks that both agree on the same data.
 */

/** Exposure halves every 90 days of a play's age. */
export const EXPOSURE_HALF_LIFE_DAYS = 90;
/** Only plays at most 365 days old count towards exposure. */
export const EXPOSURE_WINDOW_DAYS = 365;
/** Download priority halves every 365 days of a play's age; every play counts. */
export const DOWNLOAD_HALF_LIFE_DAYS = 365;
/**
 * Exposure and priority are kept to 3 decimals (a thousandth of a play at weight 1). The sums of
 * the same plays must tie exactly for the percentile rank, whatever order the database happens to
 * add them in; and as every value decays a little each second, finer digits would make every
 * recompute rewrite nearly every played song for a change nobody can see.
 */
export const SCORE_DECIMALS = 3;

const DAY_MS = 86_400_000;
const SCALE = 10 ** SCORE_DECIMALS;

/** One play as the scores see it: the weight of its event and its age. */
export interface WeightedPlay {
  /** The event's effective weight (`effectiveEventWeight`). */
  weight: number;
  /** (now − started_at) in days, fractional. */
  ageDays: number;
}

/**
 * Age of a play in fractional days. A play stamped in the future (a device clock running fast)
 * counts as age 0: it must not weigh more than its event's weight.
 */
export function playAgeDays(startedAt: Date, now: Date): number {
  return Math.max(0, (now.getTime() - startedAt.getTime()) / DAY_MS);
}

/** `weight × 0.5^(age_in_days / halfLifeDays)`. */
export function decayedWeight(weight: number, ageDays: number, halfLifeDays: number): number {
  return weight * 0.5 ** (Math.max(0, ageDays) / halfLifeDays);
}

const roundScore = (value: number) => Math.round(value * SCALE) / SCALE;

/** Exposure: sum over plays of the last 365 days of `weight × 0.5^(age_in_days / 90)`. */
export function exposureOf(plays: readonly WeightedPlay[]): number {
  let sum = 0;
  for (const play of plays) {
    if (play.ageDays <= EXPOSURE_WINDOW_DAYS)
      sum += decayedWeight(play.weight, play.ageDays, EXPOSURE_HALF_LIFE_DAYS);
  }
  return roundScore(sum);
}

/**
 * Download priority: for a song without a file, the sum over all its plays of
 * `weight × 0.5^(age_in_days / 365)`; a song with a file has nothing to download and gets 0.
 */
export function downloadPriorityOf(plays: readonly WeightedPlay[], hasFile: boolean): number {
  if (hasFile) return 0;
  let sum = 0;
  for (const play of plays) sum += decayedWeight(play.weight, play.ageDays, DOWNLOAD_HALF_LIFE_DAYS);
  return roundScore(sum);
}

/**
 * Overplay scores of a whole library, in the order of `exposures`: for a song with exposure > 0,
 * `round(100 × (songs with exposure <= this one) / (songs with exposure > 0))`; 0 otherwise.
 * Equal exposures share the higher rank (both count each other).
 */
export function overplayScores(exposures: readonly number[]): number[] {
  const positive = exposures.filter((value) => value > 0).sort((a, b) => a - b);
  const atOrBelow = (value: number) => {
    // Upper bound: the number of positive exposures <= value.
    let low = 0;
    let high = positive.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (positive[middle]! <= value) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return exposures.map((value) => (value > 0 ? Math.round((100 * atOrBelow(value)) / positive.length) : 0));
}

export interface RecomputeResult {
  /** Songs whose exposure, overplay score or download priority changed. */
  songsUpdated: number;
  durationMs: number;
}

/**
 * Recomputes exposure, overplay score and download priority of every song in one statement,
 * writing only the rows whose values change. `now` is the instant ages are measured from.
 *
 * Event weights: the event's weight_override, else the settings' festival or party weight. The
 * override is a `real`; going through numeric keeps it as typed (2.3, not 2.2999999523), the
 * same number TypeScript reads.
 */
/** A constant of this module written into the statement as a literal (a parameter has no type). */
const literal = (value: number) => sql.raw(String(value));

export async function recomputeScores(db: Db, now: Date = new Date()): Promise<RecomputeResult> {
  const started = performance.now();
  const settings = await getEditableSettings(db);
  const result = await db.execute(sql`
    with aged as (
      select p.song_id,
             coalesce(
               e.weight_override::numeric::float8,
               case when e.is_festival then ${settings.festival_weight}::float8 else ${settings.party_weight}::float8 end
             ) as weight,
             greatest(0, extract(epoch from (${now.toISOString()}::timestamptz - p.started_at))::float8 / 86400) as age_days
      from plays p
      join events e on e.id = p.event_id
    ),
    -- PostgreSQL raises an error where 0.5^x underflows a double (a play from a mistyped year
    -- like 0100); beyond 1000 half-lives a play weighs under 1e-300, nothing after rounding.
    per_song as (
      select song_id,
             sum(weight * power(0.5::float8, least(age_days / ${literal(EXPOSURE_HALF_LIFE_DAYS)}, 1000)))
               filter (where age_days <= ${literal(EXPOSURE_WINDOW_DAYS)}) as exposure,
             sum(weight * power(0.5::float8, least(age_days / ${literal(DOWNLOAD_HALF_LIFE_DAYS)}, 1000))) as priority
      from aged
      group by song_id
    ),
    computed as (
      select s.id,
             round(coalesce(ps.exposure, 0)::numeric, ${literal(SCORE_DECIMALS)})::float8 as exposure,
             case when s.file_present then 0::float8
                  else round(coalesce(ps.priority, 0)::numeric, ${literal(SCORE_DECIMALS)})::float8 end as download_priority
      from songs s
      left join per_song ps on ps.song_id = s.id
    ),
    ranked as (
      select id, exposure, download_priority,
             -- count(*) over an ordered window counts the rows up to and including the current
             -- one's peers: exactly "songs with exposure <= this one". Numeric division and
             -- round() round halves up, as Math.round does for these positive numbers.
             case when exposure > 0
                  then round(100 * (count(*) over (partition by exposure > 0 order by exposure))::numeric
                             / count(*) over (partition by exposure > 0))
                  else 0 end as overplay_score
      from computed
    )
    update songs
    set exposure = ranked.exposure,
        overplay_score = ranked.overplay_score,
        download_priority = ranked.download_priority
    from ranked
    where songs.id = ranked.id
      and (songs.exposure is distinct from ranked.exposure
           or songs.overplay_score is distinct from ranked.overplay_score
           or songs.download_priority is distinct from ranked.download_priority)
  `);
  return { songsUpdated: result.rowCount ?? 0, durationMs: Math.round(performance.now() - started) };
}

/**
 * Songs rewritten by one recompute from which the songs table is vacuumed at once. A rewritten
 * row leaves its heap page not all-visible, so the exports' index-only scan of
 * `songs_artist_title_id_idx` (migration 0026) reads the table for every song on such a page
 * until autovacuum comes by (a minute or more later). Measured at 200,000 songs
 * (docs/performance.md, "Exports after a score recompute"): every song rewritten, the whole
 * library read in the export's order took 9.4 s, then 1.3 s; after the vacuum (6.7 s, in the job)
 * 0.46 s. 1,000 rewritten songs already cost that read 9,642 heap fetches, and their vacuum takes 0.8 s.
 */
export const VACUUM_AFTER_SONGS = 1000;

/**
 * Vacuums (and analyzes) the songs table after a recompute that rewrote at least
 * `VACUUM_AFTER_SONGS` songs, so that reads served from its indexes alone stay so. VACUUM cannot
 * run in a transaction: `db` must be the pool. A database user that may not vacuum the table (a
 * hosted database where the tables belong to another role) leaves it to autovacuum; that is
 * reported, not raised, since the scores are already written. Returns whether it vacuumed.
 */
export async function vacuumSongsAfterRecompute(
  db: Db,
  songsUpdated: number,
  warn: (message: string) => void,
): Promise<boolean> {
  if (songsUpdated < VACUUM_AFTER_SONGS) return false;
  try {
    await db.execute(sql`vacuum (analyze) songs`);
    return true;
  } catch (error) {
    warn(
      `songs not vacuumed after ${songsUpdated} scores changed (autovacuum will): ${(error as Error).message}`,
    );
    return false;
  }
}
