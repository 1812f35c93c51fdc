import type { TimeWindow } from '@wcs/contract';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from '../../db/client.js';
import { startPeriodicFold } from '../periodic-fold.js';
import type { FeatureSums } from './window-averages.js';

/**
 * The play summary of the calls over ALL plays (migration play_summary_triggers; docs/metrics.md,
 * "Calls over all plays"): plays and play-weighted feature sums per (time window, genre) as of the
 * last fold, plus the pending change of the songs marked dirty since, read in one statement so
 * the answer is that of the reader's snapshot: never older than what was committed before it.
 * Writers only append dirty marks; `foldPlaySummary` moves them into the summary.
 */

/** "wcs-fold" as a number: the session advisory lock that lets one process fold at a time. */
const FOLD_LOCK_KEY = 0x77637366;

/** How often each process looks for dirty songs to fold (any process may; one at a time folds). */
export const FOLD_INTERVAL_MS = 1000;

/**
 * The folded groups and the pending rows of the dirty songs, to be summed per group (`genre` ''
 * for none): a FROM item.
 */
export const summaryRows = sql`(
  select time_window, genre, plays, bpm_sum, bpm_n, energy_sum, energy_n, valence_sum, valence_n,
    danceability_sum, danceability_n
  from play_summary
  union all
  select * from play_summary_pending
) summary_rows`;

/** One (time window, genre) group of the summary; `genre` null for songs without one. */
export type SummaryGroup = FeatureSums & { time_window: TimeWindow | ''; genre: string | null };

/**
 * Every (time window, genre) group over all plays: the folded sums plus the pending change, in one
 * snapshot. '' is the window of plays outside the windows. Groups without plays are left out.
 */
export async function summaryGroups(db: Db): Promise<SummaryGroup[]> {
  const { rows } = await db.execute<SummaryGroup>(sql`
    select time_window, nullif(genre, '') as genre, sum(plays)::int as plays,
      sum(bpm_sum)::float8 as bpm_sum, sum(bpm_n)::int as bpm_n,
      sum(energy_sum)::float8 as energy_sum, sum(energy_n)::int as energy_n,
      sum(valence_sum)::float8 as valence_sum, sum(valence_n)::int as valence_n,
      sum(danceability_sum)::float8 as danceability_sum, sum(danceability_n)::int as danceability_n
    from ${summaryRows}
    group by 1, 2
    having sum(plays) <> 0`);
  return rows;
}

/**
 * Folds the dirty songs into the summary when no other process is folding: under a session
 * advisory lock taken before the REPEATABLE READ transaction starts, so the fold's snapshot sees
 * every earlier fold. Returns the number of dirty marks taken in (0 when there were none or
 * another process holds the lock). Writers never wait on it: they only append dirty marks.
 */
export async function foldPlaySummary(pool: pg.Pool): Promise<number> {
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
      FOLD_LOCK_KEY,
    ]);
    if (!rows[0]?.locked) return 0;
    try {
      await client.query('begin isolation level repeatable read');
      try {
        const { rows: folded } = await client.query<{ taken: number }>('select play_summary_fold() as taken');
        await client.query('commit');
        return folded[0]?.taken ?? 0;
      } catch (error) {
        await client.query('rollback');
        throw error;
      }
    } finally {
      await client.query('select pg_advisory_unlock($1)', [FOLD_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/**
 * Folds every `intervalMs` while there is something to fold, in every process (the lock makes
 * them take turns). A failed fold is logged and retried at the next tick: the answers stay exact
 * without it, only slower as the dirty songs add up. Returns the function that stops it.
 */
export function startPlaySummaryFolder(
  pool: pg.Pool,
  log: (message: string) => void,
  intervalMs = FOLD_INTERVAL_MS,
): () => Promise<void> {
  return startPeriodicFold({
    name: 'Play summary',
    intervalMs,
    log,
    needed: async () => {
      const { rows } = await pool.query<{ dirty: boolean }>(
        'select exists (select 1 from play_summary_dirty) as dirty',
      );
      return rows[0]?.dirty === true;
    },
    fold: () => foldPlaySummary(pool),
  });
}
