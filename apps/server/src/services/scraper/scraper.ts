import {
  type BatchDetectResult,
  type Event,
  PotentialDuplicate,
  type ReviewedAction,
  type ScrapedEvent,
  type ScrapedEventCreate,
  type ScrapedEventReview,
  type ScrapeResult,
  type ScraperFilterOptions,
  type ScraperStats,
} from '@wcs/contract';
import { and, asc, eq, gte, isNotNull, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { type Db, withDeadlockRetry } from '../../db/client.js';
import { events, scrapedEvents, scrapeRuns } from '../../db/schema.js';
import { defaultTimeZoneFor } from '../../providers/countries.js';
import {
  CalendarError,
  type CalendarRow,
  fetchWsdcCalendar,
  parseWsdcCalendar,
} from '../../providers/wsdc-calendar.js';
import { foldText } from '../../text.js';
import { AppError, conflict, notFound } from '../errors.js';
import { serverTimeZone, toEvent } from '../events.js';
import { getEditableSettings } from '../settings.js';
import { DUPLICATE_MAX_DAYS, type DuplicateCandidate, findDuplicates } from './duplicates.js';

type ScrapedRow = typeof scrapedEvents.$inferSelect;
type EventRow = typeof events.$inferSelect;
/** `db` or a transaction on it: both run the same queries. */
type Queryable = Pick<Db, 'select' | 'insert' | 'update'>;

// ---------------------------------------------------------------------------------------------
// Scraping

/**
 * The identity of a calendar row across scrapes. With a link: the link without scheme, `www.`
 * and trailing slash, plus the edition's year (the start date's, else the first year in the date
 * text), because the calendar lists several editions of one series under the same link (Atlanta
 * Swing Classic 2026 and 2027). Without a link: the folded name and date text.
 */
export function sourceKeyOf(row: Pick<CalendarRow, 'name' | 'url' | 'dateText' | 'startDate'>): string {
  if (row.url) {
    let link = row.url.trim().toLowerCase();
    try {
      const url = new URL(row.url);
      link = `${url.host.toLowerCase().replace(/^www\./, '')}${url.pathname.replace(/\/+$/, '')}${url.search}`;
    } catch {
      // Not a URL (the calendar has typos in links): the text itself is the identity.
    }
    const year = row.startDate?.slice(0, 4) ?? /\b(19|20)\d{2}\b/.exec(row.dateText)?.[0];
    return year ? `link:${link}#${year}` : `link:${link}`;
  }
  return `name:${foldText(row.name)}|${foldText(row.dateText)}`;
}

/** Serialises the transactions that write many scraped events: scrapes and batch detections ('wcss'). */
const SCRAPE_LOCK = 0x77_63_73_73;

export interface ScrapeOptions {
  url: string;
  timeoutMs: number;
  /**
   * The caller named the address: a calendar that cannot be read there is the caller's mistake
   * (422), not a failure of the configured calendar (502, or 504 on a timeout).
   */
  isCallersUrl?: boolean;
}

/**
 * Reads the events calendar and stores its rows: new ones inserted, known ones (same source key)
 * refreshed, nothing ever duplicated. Review state is kept on refresh; duplicate findings are
 * cleared when the name, start date or country they were found for changed. Every run is logged
 * in scrape_runs. A calendar that cannot be read stores no event and answers with the reason: 422
 * for an address the caller named, else 504 (timeout) or 502 (anything else).
 */
export async function scrapeEvents(db: Db, options: ScrapeOptions): Promise<ScrapeResult> {
  const startedAt = new Date();
  let rows: CalendarRow[];
  try {
    rows = parseWsdcCalendar(await fetchWsdcCalendar(options.url, options), options.url);
  } catch (error) {
    if (!(error instanceof CalendarError)) throw error;
    // Logged for the weekly job, which has no caller to tell.
    await db
      .insert(scrapeRuns)
      .values({ sourceUrl: options.url, startedAt, finishedAt: new Date(), error: error.message });
    if (options.isCallersUrl) throw new AppError(422, `${error.message}; check the address`);
    throw new AppError(error.failure === 'timeout' ? 504 : 502, error.message);
  }

  const byKey = new Map<string, CalendarRow>();
  for (const row of rows) {
    const key = sourceKeyOf(row);
    // The first listing of a repeated row wins, so every scrape keeps the same one.
    if (!byKey.has(key)) byKey.set(key, row);
  }
  const scrapedAt = new Date();
  const distinct = [...byKey.entries()];
  const unparsedDates = distinct.filter(([, row]) => row.startDate === null).length;
  const unknownCountries = distinct.filter(([, row]) => row.countryCode === null).length;

  // A deadlock with another writer of these rows (found by the fuzz test) is retried.
  return withDeadlockRetry(() =>
    db.transaction(async (tx) => {
      // A scrape and a batch duplicate detection (or two scrapes) update many of the same rows in
      // different orders: they take turns.
      await tx.execute(sql`select pg_advisory_xact_lock(${SCRAPE_LOCK})`);
      let inserted = 0;
      if (distinct.length > 0) {
        const changed = sql`not ${scrapedEvents.isReviewed} and (${scrapedEvents.name}, ${scrapedEvents.startDate}, ${scrapedEvents.countryCode}) is distinct from (excluded.name, excluded.start_date, excluded.country_code)`;
        const stored = await tx
          .insert(scrapedEvents)
          .values(
            distinct.map(([sourceKey, row]) => ({
              sourceKey,
              name: row.name,
              url: row.url,
              dateText: row.dateText,
              startDate: row.startDate,
              endDate: row.endDate,
              location: row.location,
              countryCode: row.countryCode,
              continent: row.continent,
              scrapedAt,
            })),
          )
          .onConflictDoUpdate({
            target: scrapedEvents.sourceKey,
            set: {
              name: sql`excluded.name`,
              url: sql`excluded.url`,
              dateText: sql`excluded.date_text`,
              startDate: sql`excluded.start_date`,
              endDate: sql`excluded.end_date`,
              location: sql`excluded.location`,
              countryCode: sql`excluded.country_code`,
              continent: sql`excluded.continent`,
              scrapedAt: sql`excluded.scraped_at`,
              potentialDuplicates: sql`case when ${changed} then '[]'::jsonb else ${scrapedEvents.potentialDuplicates} end`,
              duplicatesCheckedAt: sql`case when ${changed} then null else ${scrapedEvents.duplicatesCheckedAt} end`,
            },
          })
          // xmax is 0 on a row version this statement inserted, non-zero on one it updated.
          .returning({ isInserted: sql<boolean>`(xmax = 0)` });
        inserted = stored.filter((row) => row.isInserted).length;
      }
      const result = {
        rowsFound: rows.length,
        inserted,
        updated: distinct.length - inserted,
        unparsedDates,
      };
      await tx
        .insert(scrapeRuns)
        .values({ sourceUrl: options.url, startedAt, finishedAt: scrapedAt, ...result });
      return {
        source_url: options.url,
        scraped_at: scrapedAt.toISOString(),
        rows_found: result.rowsFound,
        inserted: result.inserted,
        updated: result.updated,
        duplicate_rows: rows.length - distinct.length,
        unparsed_dates: unparsedDates,
        unknown_countries: unknownCountries,
      };
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Reading

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

// ---------------------------------------------------------------------------------------------
// Duplicates

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

const noStartDate = (row: ScrapedRow) =>
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

// ---------------------------------------------------------------------------------------------
// Review

/** Locks an unreviewed scraped event with a parsed start date, the only kind review acts on. */
async function lockReviewable(tx: Queryable, id: number): Promise<ScrapedRow> {
  const [row] = await tx.select().from(scrapedEvents).where(eq(scrapedEvents.id, id)).for('update');
  if (!row) throw notFound('Scraped event', id);
  if (row.isReviewed) {
    throw conflict(
      `Scraped event ${id} was already reviewed (${row.reviewedAction} on ${row.reviewedAt?.toISOString().slice(0, 10)}); a review cannot be changed.`,
    );
  }
  if (row.startDate === null) throw noStartDate(row);
  return row;
}

const blankToNull = (text: string | undefined) => (text === undefined || text.trim() === '' ? null : text);

function reviewed(action: ReviewedAction, notes: string | undefined, linkedEventId: number | null) {
  return {
    isReviewed: true,
    reviewedAction: action,
    reviewedNotes: blankToNull(notes),
    reviewedAt: new Date(),
    linkedEventId,
  } satisfies Partial<typeof scrapedEvents.$inferInsert>;
}

/**
 * Create Event: a new product event from a scraped one. The name and location come from the
 * scraped event unless overrides are sent; it is a festival when it spans more than one day; its
 * time zone is the country's (a city the location names, else the capital), else the server's.
 */
export async function createEventFromScraped(
  db: Db,
  input: ScrapedEventCreate,
): Promise<{ event: Event; scraped_event: ScrapedEvent }> {
  const eventRow = await db.transaction(async (tx) => {
    const row = await lockReviewable(tx, input.scraped_event_id);
    const location =
      input.override_location !== undefined ? blankToNull(input.override_location) : row.location;
    const startDate = row.startDate!;
    const endDate = row.endDate ?? startDate;
    const [created] = await tx
      .insert(events)
      .values({
        name: input.override_name ?? row.name,
        startDate,
        endDate,
        location,
        countryCode: row.countryCode,
        isFestival: endDate > startDate,
        timezone: defaultTimeZoneFor(row.countryCode, row.location) ?? serverTimeZone(),
      })
      .returning();
    await tx
      .update(scrapedEvents)
      .set(reviewed('created', input.notes, created!.id))
      .where(eq(scrapedEvents.id, row.id));
    return created!;
  });
  const [weights, scraped] = await Promise.all([
    getEditableSettings(db),
    getScrapedEvent(db, input.scraped_event_id),
  ]);
  return { event: toEvent(eventRow, weights), scraped_event: scraped };
}

/**
 * Approve, reject or merge. Merge links the scraped event to an existing product event (404 when
 * there is none) and fills that event's country and location when it has none.
 */
export async function reviewScrapedEvent(
  db: Db,
  input: ScrapedEventReview,
): Promise<{ scraped_event: ScrapedEvent }> {
  await db.transaction(async (tx) => {
    const row = await lockReviewable(tx, input.scraped_event_id);
    let linkedEventId: number | null = null;
    if (input.action === 'merged') {
      const targetId = input.merge_with_event_id!;
      const [target] = await tx.select().from(events).where(eq(events.id, targetId)).for('update');
      if (!target) throw notFound('Event', targetId);
      await fillMissing(tx, target, row);
      linkedEventId = target.id;
    }
    await tx
      .update(scrapedEvents)
      .set(reviewed(input.action, input.notes, linkedEventId))
      .where(eq(scrapedEvents.id, row.id));
  });
  return { scraped_event: await getScrapedEvent(db, input.scraped_event_id) };
}

async function fillMissing(db: Queryable, target: EventRow, scraped: ScrapedRow) {
  const fill = {
    ...(target.countryCode === null && scraped.countryCode !== null
      ? { countryCode: scraped.countryCode }
      : {}),
    ...(target.location === null && scraped.location !== null ? { location: scraped.location } : {}),
  };
  if (Object.keys(fill).length === 0) return;
  await db
    .update(events)
    .set({ ...fill, updatedAt: new Date() })
    .where(eq(events.id, target.id));
}
