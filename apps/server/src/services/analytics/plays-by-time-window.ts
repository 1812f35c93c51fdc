import { TIME_WINDOWS, type TimeWindow, type TimeWindowCount } from '@wcs/contract';
import { and, count, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { plays, songWindowPlays } from '../../db/schema.js';
import { type PlayFilter, playFilterCondition } from './filters.js';
import { NO_WINDOW } from './song-window-plays.js';

/**
 * Plays per time window over all plays, one event or one social. Unlike the averages, a count of
 * zero means something, so every window of the night is listed, in order; plays outside the
 * windows (before 20:00 or from 06:00) are not counted. Over all plays the counts are sums of
 * song_window_plays rather than a count of every play.
 */
export async function getPlaysByTimeWindow(
  db: Db,
  filter: PlayFilter,
): Promise<{ data: TimeWindowCount[]; total: number }> {
  const where = await playFilterCondition(db, filter);
  const rows =
    where === undefined
      ? await db
          .select({
            timeWindow: songWindowPlays.timeWindow,
            playCount: sql<number>`sum(${songWindowPlays.playCount})`.mapWith(Number),
          })
          .from(songWindowPlays)
          .where(ne(songWindowPlays.timeWindow, NO_WINDOW))
          .groupBy(songWindowPlays.timeWindow)
      : await db
          .select({ timeWindow: plays.timeWindow, playCount: count() })
          .from(plays)
          .where(and(isNotNull(plays.timeWindow), where))
          .groupBy(plays.timeWindow);
  const counts = new Map(rows.map((row) => [row.timeWindow as TimeWindow, row.playCount]));
  const data = TIME_WINDOWS.map((window) => ({ time_window: window, play_count: counts.get(window) ?? 0 }));
  return { data, total: data.length };
}
