import { GENRES, type TimeWindow, type TimeWindowCharacteristicsRow } from '@wcs/contract';
import { and, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { plays, songs } from '../../db/schema.js';
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
 * The genre with the most plays, ties broken by the order of GENRES; plays of songs without a
 * genre never make 'Unknown' the top genre. Null when no play has a genre.
 */
export function topGenre(counts: Array<{ genre: string | null; plays: number }>): string | null {
  let best: { genre: string; plays: number } | null = null;
  const rank = (genre: string) => GENRES.indexOf(genre as (typeof GENRES)[number]);
  for (const { genre, plays } of counts) {
    if (genre === null || plays <= 0) continue;
    if (!best || plays > best.plays || (plays === best.plays && rank(genre) < rank(best.genre))) {
      best = { genre, plays };
    }
  }
  return best?.genre ?? null;
}

/**
 * Plays, the four averages and the top genre per time window over the plays matching `where`.
 * One pass over the plays grouped by window and genre; the window's averages are then added up
 * from its genres' sums, so they equal the progression's averages exactly. Over all plays (no
 * `where`) the (window, genre) groups are those of the play summary (play-summary.ts).
 */
export async function timeWindowCharacteristicsRows(
  db: Db,
  where: SQL | undefined,
): Promise<TimeWindowCharacteristicsRow[]> {
  const rows =
    where === undefined
      ? (await summaryGroups(db)).flatMap((group) =>
          group.time_window === NO_WINDOW ? [] : [{ ...group, time_window: group.time_window }],
        )
      : (
          await db.execute<FeatureSums & { time_window: TimeWindow; genre: string | null }>(sql`
    select ${plays.timeWindow} as time_window, ${songs.genre} as genre, ${featureSumsSelect}
    from ${plays} join ${songs} on ${eq(songs.id, plays.songId)}
    where ${and(isNotNull(plays.timeWindow), where)}
    group by ${plays.timeWindow}, ${songs.genre}`)
        ).rows;
  const byWindow = new Map<TimeWindow, typeof rows>();
  for (const row of rows) byWindow.set(row.time_window, [...(byWindow.get(row.time_window) ?? []), row]);
  const data = [...byWindow].map(([window, groups]) => ({
    ...windowAverages(window, addFeatureSums(groups)),
    top_genre: topGenre(groups),
  }));
  return inWindowOrder(data);
}

/** Time Window Characteristics table of the Analytics screen, over all plays. */
export async function getTimeWindowCharacteristics(
  db: Db,
): Promise<{ data: TimeWindowCharacteristicsRow[]; total: number }> {
  const data = await timeWindowCharacteristicsRows(db, undefined);
  return { data, total: data.length };
}
