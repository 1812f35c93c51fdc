import type { BatchDetectResult, ScrapedEvent } from '@wcs/contract';
import { and, asc, eq, gte, isNotNull, lte, sql } from 'drizzle-orm';
import { type Db, withDeadlockRetry } from '../../db/client.js';
import { events, scrapedEvents } from '../../db/schema.js';
import { conflict, notFound } from '../errors.js';
import { DUPLICATE_MAX_DAYS, type DuplicateCandidate, findDuplicates } from './duplicates.js';
import { SCRAPE_LOCK } from './scrape.js';
import type { Queryable, ScrapedRow } from './scraped-events.js';

const shiftDays = (isoDate: string, days: number) => {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

/** Product events that start within 30 days of any of the given dates. */
async function candidateEvents(db: Queryable, startDates: string[]): Promise<DuplicateCandidate[]> {
  if (startDates.length === 0) return [];
  const sorted = [...startDates].sort();
  const rows = await db
    .select({
      id: events.id,
      name: events.name,
      startDate: events.startDate,
      countryCode: events.countryCode,
    })
    .from(events)
    .where(
      and(
        gte(events.startDate, shiftDays(sorted[0]!, -DUPLICATE_MAX_DAYS)),
        lte(events.startDate, shiftDays(sorted.at(-1)!, DUPLICATE_MAX_DAYS)),
      ),
    );
  return rows;
}

async function storeDuplicates(db: Queryable, row: ScrapedRow, candidates: DuplicateCandidate[]) {
  const duplicates = findDuplicates(
    { name: row.name, startDate: row.startDate!, countryCode: row.countryCode },
    candidates,
  );
  await db
    .update(scrapedEvents)
    .set({ potentialDuplicates: duplicates, duplicatesCheckedAt: new Date() })
    .where(eq(scrapedEvents.id, row.id));
  return duplicates;
}

async function findScrapedRow(db: Queryable, id: number): Promise<ScrapedRow> {
  const [row] = await db.select().from(scrapedEvents).where(eq(scrapedEvents.id, id));
  if (!row) throw notFound('Scraped event', id);
  return row;
}

export const noStartDate = (row: ScrapedRow) =>
  conflict(
    `Scraped event ${row.id} has no parsed start date (its date reads "${row.dateText}"); it cannot be compared or reviewed until the calendar gives a date.`,
  );

/** Finds and stores the potential duplicates of one scraped event (any review state). */
export async function detectDuplicates(
  db: Db,
  id: number,
): Promise<{ scraped_event_id: number; potential_duplicates: ScrapedEvent['potential_duplicates'] }> {
  const row = await findScrapedRow(db, id);
  if (row.startDate === null) throw noStartDate(row);
  const duplicates = await storeDuplicates(db, row, await candidateEvents(db, [row.startDate]));
  return { scraped_event_id: id, potential_duplicates: duplicates };
}

/**
 * Detects duplicates for up to `limit` unreviewed scraped events with a parsed start date: those
 * never checked first, then those checked longest ago, then the soonest.
 */
export async function batchDetectDuplicates(db: Db, limit: number): Promise<BatchDetectResult> {
  return withDeadlockRetry(() =>
    db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SCRAPE_LOCK})`);
      const rows = await tx
        .select()
        .from(scrapedEvents)
        .where(and(eq(scrapedEvents.isReviewed, false), isNotNull(scrapedEvents.startDate)))
        .orderBy(
          sql`${scrapedEvents.duplicatesCheckedAt} asc nulls first`,
          asc(scrapedEvents.startDate),
          asc(scrapedEvents.id),
        )
        .limit(limit);
      const candidates = await candidateEvents(
        tx,
        rows.map((row) => row.startDate!),
      );
      let totalFound = 0;
      let withDuplicates = 0;
      for (const row of rows) {
        const duplicates = await storeDuplicates(tx, row, candidates);
        totalFound += duplicates.length;
        if (duplicates.length > 0) withDuplicates += 1;
      }
      return {
        processed: rows.length,
        total_duplicates_found: totalFound,
        events_with_duplicates: withDuplicates,
      };
    }),
  );
}
