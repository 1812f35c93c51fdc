import type { ProgressionRow, TimeWindow } from '@wcs/contract';
import { and, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { plays, songs } from '../../db/schema.js';
import { type PlayFilter, playFilterCondition } from './filters.js';
import { summaryGroups } from './play-summary.js';
import { NO_WINDOW } from './song-window-plays.js';
import {
  addFeatureSums,
  type FeatureSums,
  featureSumsSelect,
  inWindowOrder,
  windowAverages,
} from './window-averages.js';

/**
 * Plays and average BPM, energy, valence and danceability per time window over the plays that
 * match `where` (all plays when undefined). A song played three times counts three times; windows
 * without plays are absent; rows come in the order of the night. Over all plays the per-song
 * sums of the play summary (play-summary.ts: a few hundred groups) stand in for the plays.
 */
export async function progressionRows(db: Db, where: SQL | undefined): Promise<ProgressionRow[]> {
  if (where === undefined) {
    const byWindow = new Map<TimeWindow, FeatureSums[]>();
    for (const group of await summaryGroups(db)) {
      if (group.time_window === NO_WINDOW) continue;
      byWindow.set(group.time_window, [...(byWindow.get(group.time_window) ?? []), group]);
    }
    return inWindowOrder(
      [...byWindow].map(([window, groups]) => windowAverages(window, addFeatureSums(groups))),
    );
  }
  const { rows } = await db.execute<FeatureSums & { time_window: TimeWindow }>(sql`
    select ${plays.timeWindow} as time_window, ${featureSumsSelect}
    from ${plays} join ${songs} on ${eq(songs.id, plays.songId)}
    where ${and(isNotNull(plays.timeWindow), where)}
    group by ${plays.timeWindow}`);
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
