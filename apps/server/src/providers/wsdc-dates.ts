/**
 * Date text of the WSDC events calendar, turned into calendar dates (YYYY-MM-DD).
 *
 * The calendar writes one free-text cell per event. The forms seen on it:
 *   `Mar 7, 2026`                 one day
 *   `Mar 7 2026`                  one day, no comma
 *   `Sep 24 - 28, 2026`           a range within one month
 *   `Apr 30 - May 3, 2026`        a range across a month end
 *   `Dec 28 2026 - Jan 3 2027`    a range across a year end, each side with its year
 *   `Dec 30 - Jan 2, 2027`        a range across a year end with one year (the end's)
 * Month names may be abbreviated (`Sep`, `Sept`, `Sept.`) or written out (`September`), in any
 * letter case; the dash may be a hyphen, an en dash or an em dash. Anything else (`TBA 2027`,
 * `Fall 2026`, a date that does not exist such as `Feb 29, 2027`, an end before the start, a
 * span longer than `MAX_EVENT_DAYS`) is
 * unparsable: `parseWsdcDates` answers null and the raw text is kept as it was.
 */

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const;

/**
 * The longest span taken for a real event. Dance weekends and swing vacations last up to about
 * ten days; a longer span comes from a typo ("Nov 2 - Oct 28, 2026" would otherwise read as
 * almost a year), so it is left unparsed for a person to read.
 */
export const MAX_EVENT_DAYS = 31;

export interface WsdcDates {
  /** YYYY-MM-DD. */
  start: string;
  /** YYYY-MM-DD; the start date for a one-day event. */
  end: string;
}

/** 1-12 for a month name or its abbreviation of at least three letters; null otherwise. */
export function monthNumber(word: string): number | null {
  const lower = word.toLowerCase().replace(/\.$/, '');
  if (lower.length < 3) return null;
  const index = MONTHS.findIndex((month) => month.startsWith(lower));
  return index === -1 ? null : index + 1;
}

/** YYYY-MM-DD of a day that exists (29 February only in leap years); null otherwise. */
function isoDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(day) || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 30 February over into March: a day that does not exist changes its month.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return null;
  }
  return date.toISOString().slice(0, 10);
}

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS;

// Start side: month, day, optional year. End side (optional): optional month, day, optional
// year. A year written once at the very end belongs to the end side ("Sep 24 - 28, 2026").
const DATE_RANGE =
  /^(?<m1>[a-z]+)\.?\s+(?<d1>\d{1,2})(?:,?\s+(?<y1>\d{4}))?(?:\s*-\s*(?:(?<m2>[a-z]+)\.?\s+)?(?<d2>\d{1,2})(?:,?\s+(?<y2>\d{4}))?)?$/i;

/** Hyphen-like dashes, non-breaking spaces and runs of white space made plain. */
function normalise(text: string): string {
  return text
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u00a0\u2007\u202f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The start and end date of a calendar date text, or null when the text is not a date form above. */
export function parseWsdcDates(text: string): WsdcDates | null {
  const match = DATE_RANGE.exec(normalise(text));
  if (!match?.groups) return null;
  const { m1, d1, y1, m2, d2, y2 } = match.groups;
  const startMonth = monthNumber(m1!);
  if (startMonth === null) return null;
  const startDay = Number(d1);

  if (d2 === undefined) {
    // One day: its year must be written.
    if (y1 === undefined) return null;
    const day = isoDate(Number(y1), startMonth, startDay);
    return day === null ? null : { start: day, end: day };
  }

  const endMonth = m2 === undefined ? startMonth : monthNumber(m2);
  if (endMonth === null) return null;
  const endDay = Number(d2);
  if (y1 === undefined && y2 === undefined) return null;
  const endYear = Number(y2 ?? y1);
  let startYear: number;
  if (y1 !== undefined) {
    startYear = Number(y1);
  } else {
    // Only the end's year is written: a start in a later month than the end ("Dec 30 -
    // Jan 2, 2027") began the year before.
    startYear = startMonth > endMonth ? endYear - 1 : endYear;
  }

  const start = isoDate(startYear, startMonth, startDay);
  const end = isoDate(endYear, endMonth, endDay);
  if (start === null || end === null || end < start) return null;
  if (daysBetween(start, end) > MAX_EVENT_DAYS) return null;
  return { start, end };
}
