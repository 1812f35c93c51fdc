import { TIME_WINDOWS, type TimeWindow, type TimeWindowCount } from '@wcs/contract';
import { and, count, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { plays } from '../../db/schema.js';
import { type PlayFilter, playFilterCondition } from './filters.js';
import { summaryGroups } from './play-summary.js';
import { NO_WINDOW } from './song-window-plays.js';

/**
 * Plays per time window over all plays, one event or one social. Unlike the averages, a count of
 * zero means something, so every window of the night is listed, in order; plays outside the
 * windows (before 20:00 or from 06:00) are not counted. Over all plays the counts are sums of the
 * play summary's groups (play-summary.ts) rather than a count of every play.
 */
export async function getPlaysByTimeWindow(
  db: Db,
  filter: PlayFilter,
): Promise<{ data: TimeWindowCount[]; total: number }> {
  const where = await playFilterCondition(db, filter);
  const rows =
    where === undefined
      ? (await summaryGroups(db))
          .filter((group) => group.time_window !== NO_WINDOW)
          .map((group) => ({ timeWindow: group.time_window, playCount: group.plays }))
      : await db
          .select({ timeWindow: plays.timeWindow, playCount: count() })
          .from(plays)
          .where(and(isNotNull(plays.timeWindow), where))
          .groupBy(plays.timeWindow);
  const counts = new Map<TimeWindow, number>();
  for (const row of rows) {
    const window = row.timeWindow as TimeWindow;
    counts.set(window, (counts.get(window) ?? 0) + row.playCount);
  }
  const data = TIME_WINDOWS.map((window) => ({ time_window: window, play_count: counts.get(window) ?? 0 }));
  return { data, total: data.length };
}
