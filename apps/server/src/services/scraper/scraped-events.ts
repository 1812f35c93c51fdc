import {
  PotentialDuplicate,
  type ReviewedAction,
  type ScrapedEvent,
  type ScraperFilterOptions,
  type ScraperStats,
} from '@wcs/contract';
import { and, asc, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { scrapedEvents, scrapeRuns } from '../../db/schema.js';
import { notFound } from '../errors.js';

export type ScrapedRow = typeof scrapedEvents.$inferSelect;
/** `db` or a transaction on it: both run the same queries. */
export type Queryable = Pick<Db, 'select' | 'insert' | 'update'>;

/**
 * Whether the product event a scraped event became has plays. Qualified by hand: in a select
 * list drizzle renders columns without their table.
 */
const hasSongsColumn = sql<boolean>`exists (select 1 from plays where plays.event_id = scraped_events.linked_event_id)`;
const hasDuplicatesCondition = sql`jsonb_array_length(${scrapedEvents.potentialDuplicates}) > 0`;

const storedDuplicates = PotentialDuplicate.array();

/** Maps a scraped_events row to the contract's ScrapedEvent. */
export function toScrapedEvent(row: ScrapedRow, hasSongs: boolean): ScrapedEvent {
  const duplicates = storedDuplicates.safeParse(row.potentialDuplicates);
  return {
    id: row.id,
    event_name: row.name,
    url: row.url,
    date_text: row.dateText,
    start_date: row.startDate,
    end_date: row.endDate,
    location: row.location,
    country_code: row.countryCode,
    continent: row.continent,
    is_reviewed: row.isReviewed,
    reviewed_action: row.reviewedAction as ReviewedAction | null,
    reviewed_notes: row.reviewedNotes,
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
    linked_event_id: row.linkedEventId,
    has_songs: hasSongs,
    potential_duplicates: duplicates.success ? duplicates.data : [],
    scraped_at: row.scrapedAt.toISOString(),
  };
}

export async function getScrapedEvent(db: Queryable, id: number): Promise<ScrapedEvent> {
  const [found] = await db
    .select({ row: scrapedEvents, hasSongs: hasSongsColumn })
    .from(scrapedEvents)
    .where(eq(scrapedEvents.id, id));
  if (!found) throw notFound('Scraped event', id);
  return toScrapedEvent(found.row, found.hasSongs);
}

export interface ScrapedEventQuery {
  skip: number;
  limit: number;
  /** Year of the start date; unparsed events have none. */
  year?: number | undefined;
  /** ISO alpha-2, any case. */
  country_code?: string | undefined;
  /** Continent name, any case. */
  continent?: string | undefined;
  is_reviewed?: boolean | undefined;
  has_duplicates?: boolean | undefined;
  /** Linked to a product event that has plays. */
  has_songs?: boolean | undefined;
}

function listConditions(query: ScrapedEventQuery): SQL | undefined {
  const conditions: SQL[] = [];
  if (query.year !== undefined) {
    conditions.push(sql`extract(year from ${scrapedEvents.startDate}) = ${query.year}`);
  }
  if (query.country_code)
    conditions.push(eq(scrapedEvents.countryCode, query.country_code.trim().toUpperCase()));
  if (query.continent)
    conditions.push(sql`lower(${scrapedEvents.continent}) = ${query.continent.trim().toLowerCase()}`);
  if (query.is_reviewed !== undefined) conditions.push(eq(scrapedEvents.isReviewed, query.is_reviewed));
  if (query.has_duplicates !== undefined) {
    conditions.push(query.has_duplicates ? hasDuplicatesCondition : sql`not ${hasDuplicatesCondition}`);
  }
  if (query.has_songs !== undefined) {
    conditions.push(query.has_songs ? sql`${hasSongsColumn}` : sql`not ${hasSongsColumn}`);
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** Scraped events matching every given filter: soonest start first, unparsed dates last. */
export async function listScrapedEvents(
  db: Db,
  query: ScrapedEventQuery,
): Promise<{ events: ScrapedEvent[]; total: number }> {
  const where = listConditions(query);
  const [rows, total] = await Promise.all([
    db
      .select({ row: scrapedEvents, hasSongs: hasSongsColumn })
      .from(scrapedEvents)
      .where(where)
      .orderBy(sql`${scrapedEvents.startDate} asc nulls last`, asc(scrapedEvents.id))
      .offset(query.skip)
      .limit(query.limit),
    db.$count(scrapedEvents, where),
  ]);
  return { events: rows.map(({ row, hasSongs }) => toScrapedEvent(row, hasSongs)), total };
}

/** The years, continents and countries present, for the review screen's filters. */
export async function scraperFilterOptions(db: Db): Promise<ScraperFilterOptions> {
  const year = sql<number>`extract(year from ${scrapedEvents.startDate})::int`.mapWith(Number);
  const count = sql<number>`count(*)::int`.mapWith(Number);
  const [years, continents, countries] = await Promise.all([
    db.selectDistinct({ year }).from(scrapedEvents).where(isNotNull(scrapedEvents.startDate)).orderBy(year),
    db
      .select({ name: scrapedEvents.continent, count })
      .from(scrapedEvents)
      .where(isNotNull(scrapedEvents.continent))
      .groupBy(scrapedEvents.continent)
      .orderBy(scrapedEvents.continent),
    db
      .select({ code: scrapedEvents.countryCode, count })
      .from(scrapedEvents)
      .where(isNotNull(scrapedEvents.countryCode))
      .groupBy(scrapedEvents.countryCode)
      .orderBy(scrapedEvents.countryCode),
  ]);
  return {
    years: years.map((row) => row.year),
    continents: continents.map((row) => ({ name: row.name!, count: row.count })),
    countries: countries.map((row) => ({ code: row.code!, count: row.count })),
  };
}

/** Review queue counts; last_scraped_at is the end of the last scrape that succeeded. */
export async function scraperStats(db: Db): Promise<ScraperStats> {
  const count = (condition: SQL) => sql<number>`count(*) filter (where ${condition})::int`.mapWith(Number);
  const byAction = (action: ReviewedAction) => count(sql`${scrapedEvents.reviewedAction} = ${action}`);
  const [[totals], [lastRun]] = await Promise.all([
    db
      .select({
        total: sql<number>`count(*)::int`.mapWith(Number),
        reviewed: count(sql`${scrapedEvents.isReviewed}`),
        withDuplicates: count(hasDuplicatesCondition),
        unparsedDates: count(sql`${scrapedEvents.startDate} is null`),
        approved: byAction('approved'),
        rejected: byAction('rejected'),
        merged: byAction('merged'),
        created: byAction('created'),
      })
      .from(scrapedEvents),
    db
      .select({ at: sql<Date | null>`max(${scrapeRuns.finishedAt})` })
      .from(scrapeRuns)
      .where(isNull(scrapeRuns.error)),
  ]);
  const stats = totals!;
  const lastAt = lastRun?.at ? new Date(lastRun.at) : null;
  return {
    total: stats.total,
    reviewed: stats.reviewed,
    unreviewed: stats.total - stats.reviewed,
    with_duplicates: stats.withDuplicates,
    unparsed_dates: stats.unparsedDates,
    by_action: {
      approved: stats.approved,
      rejected: stats.rejected,
      merged: stats.merged,
      created: stats.created,
    },
    last_scraped_at: lastAt?.toISOString() ?? null,
  };
}
