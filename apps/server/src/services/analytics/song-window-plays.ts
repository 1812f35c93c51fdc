import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { songs, songWindowPlays } from '../../db/schema.js';

/**
 * Reading the play summary `song_window_plays` (plays per song and time window, '' for plays
 * outside the windows; kept exact by triggers on plays, see migration song_window_plays_triggers).
 * The analytics over ALL plays read its ~50,000 rows instead of a million plays; a call filtered
 * to one event, social or song reads plays, which the summary does not split by.
 */

/** The summary's key for plays outside the time windows (plays.time_window is null). */
export const NO_WINDOW = '';

/**
 * `FeatureSums` (window-averages.ts) over song_window_plays joined with songs: each song's value
 * weighted by its play count, so sum(value × play_count) / sum(play_count over songs with a value)
 * is the same mean as over the plays one by one. Energy, valence and danceability go through int8
 * so value × play_count cannot overflow; BPM through float8, as featureSumsSelect sums it.
 */
export const summaryFeatureSumsSelect = sql`
  sum(${songWindowPlays.playCount})::int as plays,
  sum(${songs.bpm}::float8 * ${songWindowPlays.playCount}) as bpm_sum,
  coalesce(sum(${songWindowPlays.playCount}) filter (where ${songs.bpm} is not null), 0)::int as bpm_n,
  sum(${songs.energyLevel}::int8 * ${songWindowPlays.playCount}) as energy_sum,
  coalesce(sum(${songWindowPlays.playCount}) filter (where ${songs.energyLevel} is not null), 0)::int as energy_n,
  sum(${songs.valence}::int8 * ${songWindowPlays.playCount}) as valence_sum,
  coalesce(sum(${songWindowPlays.playCount}) filter (where ${songs.valence} is not null), 0)::int as valence_n,
  sum(${songs.danceability}::int8 * ${songWindowPlays.playCount}) as danceability_sum,
  coalesce(sum(${songWindowPlays.playCount}) filter (where ${songs.danceability} is not null), 0)::int as danceability_n`;

/** Number of plays stored, from the summary: the sum of its counts (0 when there are none). */
export async function totalPlayCount(db: Db): Promise<number> {
  const [row] = await db
    .select({ plays: sql<number>`coalesce(sum(${songWindowPlays.playCount}), 0)`.mapWith(Number) })
    .from(songWindowPlays);
  return row?.plays ?? 0;
}
