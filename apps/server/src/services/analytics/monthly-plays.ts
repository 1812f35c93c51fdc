import type { MonthlyPlays } from '@wcs/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { events, playSummarySongMonths, plays } from '../../db/schema.js';

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
 * January 31 social, so to January (the same 06:00 boundary as the socials). A song folded into
 * the play summary and not dirty since reads its months from play_summary_song_months (migration
 * 0023: the fold counts them the same way); a dirty song is counted from its plays. One statement,
 * so both come from the same snapshot (docs/metrics.md, "Calls over all plays").
 */
export async function monthlyPlays(db: Db, songId: number): Promise<MonthlyPlays[]> {
  const month = sql<string>`to_char((${plays.startedAt} at time zone ${events.timezone}) - interval '6 hours', 'YYYY-MM')`;
  const { rows } = await db.execute<{ month: string; plays: number }>(sql`
    with dirty as (select exists (select 1 from play_summary_dirty where song_id = ${songId}) as dirty)
    select month, play_count as plays from ${playSummarySongMonths}
    where ${playSummarySongMonths.songId} = ${songId} and not (select dirty from dirty)
    union all
    select ${month} as month, count(*)::int as plays
    from ${plays} join ${events} on ${events.id} = ${plays.eventId}
    where ${plays.songId} = ${songId} and (select dirty from dirty)
    group by 1`);
  return fillMonthGaps(rows);
}
