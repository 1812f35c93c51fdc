import type { ScrapeResult } from '@wcs/contract';
import { sql } from 'drizzle-orm';
import { type Db, withDeadlockRetry } from '../../db/client.js';
import { scrapedEvents, scrapeRuns } from '../../db/schema.js';
import {
  CalendarError,
  type CalendarRow,
  fetchWsdcCalendar,
  parseWsdcCalendar,
} from '../../providers/wsdc-calendar.js';
import { foldText } from '../../text.js';
import { AppError } from '../errors.js';

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
export const SCRAPE_LOCK = 0x77_63_73_73;

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
