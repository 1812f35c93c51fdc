import { AGE_MID_MAX_MONTHS, AGE_NEW_MAX_MONTHS, type AgeCategory } from '@wcs/contract';

const pad = (value: number, width: number) => String(value).padStart(width, '0');

function isoDate(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** A calendar date (YYYY-MM-DD) in the server's local time zone; the "today" of age categories. */
export function localDate(now: Date = new Date()): string {
  return isoDate(now.getFullYear(), now.getMonth() + 1, now.getDate());
}

/**
 * The date `months` months before `date` (both YYYY-MM-DD). A day that does not exist in the
 * target month is clamped to its last day, exactly as PostgreSQL computes
 * `date - interval 'N months'` (2025-08-31 minus 6 months is 2025-02-28).
 */
export function subtractMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const monthIndex = year * 12 + (month - 1) - months;
  const targetYear = Math.floor(monthIndex / 12);
  const targetMonth = monthIndex - targetYear * 12 + 1;
  // Day 0 of the following month is the last day of the target month.
  const lastDay = new Date(Date.UTC(targetYear, targetMonth, 0)).getUTCDate();
  return isoDate(targetYear, targetMonth, Math.min(day, lastDay));
}

/**
 * The two dates that separate the age categories on a given day. A song is new when released
 * after `newAfter` (under 6 months ago), old when released before `oldBefore` (over 2 years ago),
 * mid otherwise: a song released exactly 6 months or exactly 2 years ago is mid.
 * SQL filters use these same dates, so a filtered page agrees with the category on each row.
 */
export interface AgeCutoffs {
  newAfter: string;
  oldBefore: string;
}

export function ageCutoffs(today: string): AgeCutoffs {
  return {
    newAfter: subtractMonths(today, AGE_NEW_MAX_MONTHS),
    oldBefore: subtractMonths(today, AGE_MID_MAX_MONTHS),
  };
}

/** The age category of a song released on `releaseDate` (YYYY-MM-DD), seen on `today`; null when unknown. */
export function ageCategory(releaseDate: string | null, today: string): AgeCategory | null {
  if (!releaseDate) return null;
  const { newAfter, oldBefore } = ageCutoffs(today);
  // ISO dates with four-digit years compare correctly as text.
  if (releaseDate > newAfter) return 'new';
  if (releaseDate < oldBefore) return 'old';
  return 'mid';
}
