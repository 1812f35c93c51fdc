import type { MonthlyPlays } from '@wcs/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { events, plays } from '../../db/schema.js';

/** The month after a 'YYYY-MM' month. */
export function nextMonth(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return monthNumber === 12 ? `${year + 1}-01` : `${year}-${String(monthNumber + 1).padStart(2, '0')}`;
}

/**
 * Monthly counts from the first month with plays to the last, with the months between that have
 * none listed at 0, so a chart's x-axis is real time. `counts` may come in any order.
 */
export function fillMonthGaps(counts: MonthlyPlays[]): MonthlyPlays[] {
  if (counts.length === 0) return [];
  const byMonth = new Map(counts.map((row) => [row.month, row.plays]));
  const months = [...byMonth.keys()].sort();
  const last = months[months.length - 1]!;
  const filled: MonthlyPlays[] = [];
  for (let month = months[0]!; month <= last; month = nextMonth(month)) {
    filled.push({ month, plays: byMonth.get(month) ?? 0 });
  }
  return filled;
}

/**
 * Plays of a song per month ('YYYY-MM') over its whole history, gaps filled. A play's month is
 * that of its night in the event's time zone: a play at 00:30 on 1 February belongs to the
 * January 31 social, so to January (the same 06:00 boundary as the socials).
 */
export async function monthlyPlays(db: Db, songId: number): Promise<MonthlyPlays[]> {
  const month = sql<string>`to_char((${plays.startedAt} at time zone ${events.timezone}) - interval '6 hours', 'YYYY-MM')`;
  const rows = await db
    .select({ month, plays: sql<number>`count(*)::int` })
    .from(plays)
    .innerJoin(events, eq(events.id, plays.eventId))
    .where(eq(plays.songId, songId))
    .groupBy(month);
  return fillMonthGaps(rows);
}
