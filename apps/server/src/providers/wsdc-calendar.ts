import { type Cheerio, type CheerioAPI, type contains, load } from 'cheerio';
import { countryFromAlpha3 } from './countries.js';
import { parseWsdcDates } from './wsdc-dates.js';

/**
 * The World Swing Dance Council events calendar: one HTML table of events, fetched and parsed
 * into rows. The page's shape (see fixtures/README.md): header `Date | Event Name | Event Location
 * | Country`; a free-text date, the name as a link to the event's site (plus an optional event-type
 * label), a free-text location, and a flag link `?country=<ISO alpha-3>`.
 */

/** A node of the parsed page (cheerio's `AnyNode`, which it does not re-export). */
type AnyNode = Parameters<typeof contains>[0];

/** A larger answer is not the calendar (it is about 100 kB). */
export const MAX_CALENDAR_BYTES = 10 * 1024 * 1024;

export interface CalendarRow {
  name: string;
  /** The event's own site, absolute; null when the row has no link. */
  url: string | null;
  /** The date cell as written. */
  dateText: string;
  /** YYYY-MM-DD, null when the date text is not a known form. */
  startDate: string | null;
  endDate: string | null;
  location: string | null;
  /** The flag's code as written ('USA', 'transparent'); null without a flag. */
  countryRaw: string | null;
  /** ISO alpha-2 of `countryRaw`; null when it is not an ISO alpha-3 code. */
  countryCode: string | null;
  continent: string | null;
}

export type CalendarFailure = 'timeout' | 'http' | 'network' | 'too-large' | 'layout';

/** Why the calendar could not be read; the message names the address and what to check. */
export class CalendarError extends Error {
  constructor(
    readonly failure: CalendarFailure,
    message: string,
  ) {
    super(message);
    this.name = 'CalendarError';
  }
}

export interface FetchCalendarOptions {
  /** Whole request, headers and body (WCS_SCRAPER_TIMEOUT_SECONDS). */
  timeoutMs: number;
}

/** The calendar page's HTML. Throws `CalendarError` for a timeout, a non-2xx answer or no answer. */
export async function fetchWsdcCalendar(url: string, options: FetchCalendarOptions): Promise<string> {
  const seconds = Math.round(options.timeoutMs / 100) / 10;
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(options.timeoutMs),
      headers: { accept: 'text/html', 'user-agent': 'WCS-DJ-Library (events calendar review)' },
      redirect: 'follow',
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new CalendarError(
        'http',
        `The events calendar at ${url} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}; nothing was stored. Try again later, or check WCS_SCRAPER_URL.`,
      );
    }
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_CALENDAR_BYTES) {
      await response.body?.cancel();
      throw tooLarge(url);
    }
    const html = await response.text();
    if (Buffer.byteLength(html) > MAX_CALENDAR_BYTES) throw tooLarge(url);
    return html;
  } catch (error) {
    if (error instanceof CalendarError) throw error;
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new CalendarError(
        'timeout',
        `The events calendar at ${url} did not answer within ${seconds} s; nothing was stored. Try again later, or raise WCS_SCRAPER_TIMEOUT_SECONDS.`,
      );
    }
    const cause = error instanceof Error ? describeCause(error) : String(error);
    throw new CalendarError(
      'network',
      `Could not reach the events calendar at ${url} (${cause}); nothing was stored. Check the network connection and WCS_SCRAPER_URL.`,
    );
  }
}

const tooLarge = (url: string) =>
  new CalendarError(
    'too-large',
    `The answer of ${url} is larger than ${MAX_CALENDAR_BYTES / 1024 / 1024} MB, so it is not the events calendar; nothing was stored. Check WCS_SCRAPER_URL.`,
  );

/** undici reports 'fetch failed' and puts the useful part (ECONNREFUSED, ENOTFOUND) in `cause`. */
function describeCause(error: Error): string {
  const cause = error.cause as { code?: string; message?: string } | undefined;
  return cause?.code ?? cause?.message ?? error.message;
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Column positions, from the header's words; the calendar's own order when a word is missing. */
interface Columns {
  date: number;
  name: number;
  location: number;
  country: number;
}

function headerColumns($: CheerioAPI, table: Cheerio<AnyNode>): Columns | null {
  const header = table
    .find('tr')
    .filter((_, row) => $(row).children('th').length > 0)
    .first();
  if (header.length === 0) return null;
  const words = header
    .children('th, td')
    .toArray()
    .map((cell) => clean($(cell).text()).toLowerCase());
  const date = words.findIndex((word) => word.includes('date'));
  const name = words.findIndex((word) => word.includes('name') || word === 'event');
  if (date === -1 || name === -1) return null;
  const location = words.findIndex((word) => word.includes('location') || word.includes('venue'));
  const country = words.findIndex((word) => word.includes('country'));
  return {
    date,
    name,
    location: location === -1 ? 2 : location,
    country: country === -1 ? 3 : country,
  };
}

/** The events table: the one whose header names a date and an event; else the first table whose rows start with dates. */
function findEventsTable($: CheerioAPI): { table: Cheerio<AnyNode>; columns: Columns } | null {
  const tables = $('table').toArray();
  for (const element of tables) {
    const table = $(element);
    const columns = headerColumns($, table);
    if (columns) return { table, columns };
  }
  for (const element of tables) {
    const table = $(element);
    const firstCells = table
      .find('tr')
      .toArray()
      .map((row) => clean($(row).children('td').first().text()));
    if (firstCells.some((text) => parseWsdcDates(text) !== null)) {
      return { table, columns: { date: 0, name: 1, location: 2, country: 3 } };
    }
  }
  return null;
}

/** 'https://www.worldsdc.com/events/?country=SWE' -> 'SWE'. */
function countryParam(href: string): string | null {
  const match = /[?&]country=([^&#]*)/i.exec(href);
  return match ? decodeURIComponent(match[1]!).trim() || null : null;
}

/** The flag's code: the link's `country` parameter, else the flag image's file name, data-flag or alt. */
function flagCode($: CheerioAPI, cells: Cheerio<AnyNode>): string | null {
  for (const link of cells.find('a[href]').toArray()) {
    const code = countryParam($(link).attr('href') ?? '');
    if (code) return code;
  }
  for (const image of cells.find('img').toArray()) {
    const img = $(image);
    const fromFile = /\/([a-z]+)\.(?:png|svg|gif|jpe?g|webp)(?:[?#].*)?$/i.exec(img.attr('src') ?? '')?.[1];
    const code = img.attr('data-flag') ?? fromFile ?? img.attr('alt');
    if (code?.trim()) return code.trim();
  }
  return null;
}

function absoluteUrl(href: string | undefined, pageUrl: string): string | null {
  const raw = href?.trim();
  if (!raw || raw === '#' || raw.startsWith('javascript:') || raw.startsWith('mailto:')) return null;
  try {
    return new URL(raw, pageUrl).toString();
  } catch {
    return raw;
  }
}

/** The name: an `.event_name` element (older layout), else the link's text, else the cell without its labels. */
function eventName(cell: Cheerio<AnyNode>): string {
  const named = cell.find('.event_name');
  if (named.length > 0) return clean(named.first().text());
  const link = cell.find('a').first();
  if (link.length > 0 && clean(link.text()) !== '') return clean(link.text());
  const copy = cell.clone();
  copy.find('.event-type, .event_type').remove();
  return clean(copy.text());
}

/**
 * The calendar's rows, in page order, duplicates included (the caller decides what a duplicate
 * is). Throws `CalendarError('layout')` when the page has no events table: the calendar's layout
 * has changed, or the address is not the calendar.
 */
export function parseWsdcCalendar(html: string, pageUrl: string): CalendarRow[] {
  const $ = load(html);
  const found = findEventsTable($);
  if (!found) {
    throw new CalendarError(
      'layout',
      `The page at ${pageUrl} has no events table (a table headed Date and Event Name); nothing was stored. The calendar's layout may have changed, or WCS_SCRAPER_URL is not the calendar.`,
    );
  }
  const { table, columns } = found;
  const rows: CalendarRow[] = [];
  for (const element of table.find('tr').toArray()) {
    const cells = $(element).children('td');
    // Header rows have th cells; separator rows (a month heading) span the table in one cell.
    if (cells.length < 3) continue;
    const cell = (index: number) => cells.eq(index);
    const nameCell = cell(columns.name);
    const name = eventName(nameCell);
    if (name === '') continue;
    const dateText = clean(cell(columns.date).text());
    const dates = parseWsdcDates(dateText);
    const location = clean(cell(columns.location).text()) || null;
    // The flag sits in its own column; older layouts put it beside the location.
    const countryCell = cell(columns.country);
    const countryRaw = flagCode($, countryCell.length > 0 ? countryCell : cells);
    const country = countryFromAlpha3(countryRaw);
    rows.push({
      name,
      url: absoluteUrl(nameCell.find('a[href]').first().attr('href'), pageUrl),
      dateText,
      startDate: dates?.start ?? null,
      endDate: dates?.end ?? null,
      location,
      countryRaw,
      countryCode: country?.code ?? null,
      continent: country?.continent ?? null,
    });
  }
  return rows;
}
