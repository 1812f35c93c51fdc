/**
 * Wall-clock time in an IANA time zone: "22:40 in Europe/Berlin on 2025-03-08" as an instant, and
 * back, for the demo's generated nights and the times in DJ software files. Intl only, no time
 * zone library.
 */

const MINUTE_MS = 60_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** A wall clock reading. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * The wall clock in `timeZone` at the instant `utcMs` (milliseconds since 1970 UTC). A zone the
 * runtime does not know throws a RangeError.
 */
export function wallTimeAt(utcMs: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(utcMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** A wall time's fields read as if they were UTC, in milliseconds. */
export function wallAsUtcMs(wall: WallTime): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
}

/** The zone's offset from UTC at an instant, in milliseconds (local = UTC + offset). */
export function zoneOffsetMs(utcMs: number, timeZone: string): number {
  return wallAsUtcMs(wallTimeAt(utcMs, timeZone)) - Math.floor(utcMs / 1000) * 1000;
}

/** Milliseconds of a calendar date's midnight read as UTC ('2025-03-08' -> Date.UTC(2025, 2, 8)). */
export function dateMs(isoDate: string): number {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, day);
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return isoDate(dateMs(date) + days * 86_400_000);
}

/**
 * The instant at which the wall clock in `timeZone` shows `minutes` after midnight of `date`
 * (minutes may pass 1440: 26 * 60 is 02:00 the next morning). A wall time skipped by a
 * daylight-saving change resolves to the instant one offset later, as clocks do.
 */
export function zonedToUtc(date: string, minutes: number, timeZone: string): number {
  const wall = dateMs(date) + minutes * MINUTE_MS;
  const firstGuess = wall - zoneOffsetMs(wall, timeZone);
  const offset = zoneOffsetMs(firstGuess, timeZone);
  return wall - offset;
}
