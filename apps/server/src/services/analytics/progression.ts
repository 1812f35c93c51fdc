import type { ProgressionRow, TimeWindow } from '@wcs/contract';
import { and, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { plays, songs, songWindowPlays } from '../../db/schema.js';
import { type PlayFilter, playFilterCondition } from './filters.js';
import { NO_WINDOW, summaryFeatureSumsSelect } from './song-window-plays.js';
import { type FeatureSums, featureSumsSelect, inWindowOrder, windowAverages } from './window-averages.js';

/**
 * Plays and average BPM, energy, valence and danceability per time window over the plays that
 * match `where` (all plays when undefined). A song played three times counts three times; windows
 * without plays are absent; rows come in the order of the night. Over all plays the per-song
 * counts of song_window_plays stand in for the plays (the same sums, a fraction of the rows).
 */
export async function progressionRows(db: Db, where: SQL | undefined): Promise<ProgressionRow[]> {
  const { rows } = await db.execute<FeatureSums & { time_window: TimeWindow }>(
    where === undefined
      ? sql`
    select ${songWindowPlays.timeWindow} as time_window, ${summaryFeatureSumsSelect}
    from ${songWindowPlays} join ${songs} on ${eq(songs.id, songWindowPlays.songId)}
    where ${songWindowPlays.timeWindow} <> ${NO_WINDOW}
    group by ${songWindowPlays.timeWindow}`
      : sql`
    select ${plays.timeWindow} as time_window, ${featureSumsSelect}
    from ${plays} join ${songs} on ${eq(songs.id, plays.songId)}
    where ${and(isNotNull(plays.timeWindow), where)}
    group by ${plays.timeWindow}`,
  );
  return inWindowOrder(rows.map((row) => windowAverages(row.time_window, row)));
}

/**
 * The progression charts of the Analytics screen (BPM, energy, valence, danceability): one call
 * answers all four, over all plays, one event or one social.
 */
export async function getProgression(
  db: Db,
  filter: PlayFilter,
): Promise<{ data: ProgressionRow[]; total: number }> {
  const data = await progressionRows(db, await playFilterCondition(db, filter));
  return { data, total: data.length };
}
