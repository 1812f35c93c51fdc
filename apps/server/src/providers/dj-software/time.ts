/**
 * Times in DJ files. Some formats store instants (Unix seconds: VirtualDJ `lastplaytime`, Serato
 * sessions); others store the wall clock of the DJ's computer with no offset (Traktor history,
 * VirtualDJ `<time>`, most CSV). The second kind is turned into an instant with the IANA zone the
 * caller gives, daylight saving included. Every instant leaves as ISO 8601 in UTC, to the second.
 */
import { type WallTime, wallAsUtcMs, wallTimeAt, zoneOffsetMs } from '../../zoned-time.js';
import { DjFormatError } from './types.js';

/** The `timeZone` option, 'UTC' when absent; a DjFormatError at once for a zone the runtime does not know. */
export function zoneOption(timeZone: string | undefined): string {
  const zone = timeZone ?? 'UTC';
  try {
    wallTimeAt(0, zone);
  } catch {
    throw new DjFormatError(null, `Unknown time zone '${zone}': give an IANA name such as 'Europe/Paris'.`);
  }
  return zone;
}

const DAY_MS = 86_400_000;

/**
 * The instant at which the wall clock in `timeZone` shows `wall`. In the hour skipped when
 * clocks go forward the time is read with the offset before the change; in the hour repeated when
 * they go back, the first of the two.
 */
export function instantOfWallTime(wall: WallTime, timeZone: string): number {
  const asUtc = wallAsUtcMs(wall);
  const offsetAt = (ms: number) => zoneOffsetMs(ms, timeZone);
  // The instant lies within a day of `asUtc`, and zones change offset at most once in two days:
  // the offsets a day before and a day after are the only candidates.
  const before = offsetAt(asUtc - DAY_MS);
  const after = offsetAt(asUtc + DAY_MS);
  const showing = [asUtc - before, asUtc - after].filter((ms) => offsetAt(ms) === asUtc - ms);
  if (showing.length > 0) return Math.min(...showing);
  // No instant shows this wall time: it is in the skipped hour.
  return asUtc - before;
}

/** ISO 8601 in UTC without milliseconds: '2024-05-03T21:02:10Z'. */
export function isoFromMs(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Unix seconds (or milliseconds, when the number is too large to be seconds) as ISO 8601 UTC. */
export function isoFromUnix(value: number): string {
  return isoFromMs(value > 1e11 ? value : value * 1000);
}

export function isoOfWallTime(wall: WallTime, timeZone: string): string {
  return isoFromMs(instantOfWallTime(wall, timeZone));
}

/** YYYY-MM-DD of a wall time. */
export function dateOf(wall: Pick<WallTime, 'year' | 'month' | 'day'>): string {
  return `${String(wall.year).padStart(4, '0')}-${pad2(wall.month)}-${pad2(wall.day)}`;
}

/** The local calendar day, YYYY-MM-DD, of an ISO instant in `timeZone`. */
export function localDateOfIso(iso: string, timeZone: string): string {
  return dateOf(wallTimeAt(Date.parse(iso), timeZone));
}

export function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

/** The day after a calendar day (for wall times that pass midnight). */
export function nextDay(wall: Pick<WallTime, 'year' | 'month' | 'day'>): {
  year: number;
  month: number;
  day: number;
} {
  const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + 1));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** A calendar day that exists, or null (30 February, month 13...). */
export function validDate(
  year: number,
  month: number,
  day: number,
): { year: number; month: number; day: number } | null {
  if (![year, month, day].every(Number.isInteger)) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return { year, month, day };
}

/**
 * A date and time written by a person or a spreadsheet, as ISO UTC: ISO 8601 with 'Z' or an
 * offset is taken as is; 'YYYY-MM-DD HH:MM[:SS]' (or with 'T', or '/' in the date) is a wall time
 * in `timeZone`; a bare number is Unix time. Null for anything else.
 */
export function parseDateTime(text: string, timeZone: string): string | null {
  const value = text.trim();
  if (value === '') return null;
  if (/^\d{9,13}$/.test(value)) return isoFromUnix(Number(value));
  const match =
    /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(
      value,
    );
  if (!match) return null;
  const day = validDate(Number(match[1]), Number(match[2]), Number(match[3]));
  if (!day) return null;
  const hour = Number(match[4] ?? 0);
  const minute = Number(match[5] ?? 0);
  const second = Number(match[6] ?? 0);
  if (hour > 23 || minute > 59 || second > 59) return null;
  const wall = { ...day, hour, minute, second };
  const zone = match[7];
  if (zone === undefined) return isoOfWallTime(wall, timeZone);
  if (zone.toUpperCase() === 'Z') return isoFromMs(wallAsUtcMs(wall));
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  return isoFromMs(wallAsUtcMs(wall) - offsetMinutes * 60_000);
}
