import type { TimeWindow } from '@wcs/contract';

/**
 * Reads a historical festival playlist's name the way DJs write them, e.g.
 * "Swingtacular '23 Friday 10:30-1 am" or "Boogie by the Bay 2019 Saturday late night":
 * - the year from a two-digit apostrophe year ('17 to '25) or a four-digit year;
 * - the night from a weekday name;
 * - the set's start time from a time or range ('1:30-3 am', '11 pm-2 am', '9-11 pm'), or from the
 *   words 'midnight' (00:00), 'late night' (02:00) and 'closing' (04:00).
 * A name without a year cannot be placed and is unparsable (null).
 */

export const WEEKDAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface ParsedPlaylistName {
  year: number;
  dayOfWeek: Weekday | null;
  /** HH:MM, 24-hour; null when the name gives no time. */
  setStartTime: string | null;
}

const APOSTROPHE_YEAR = /['’‘](\d{2})\b/;
const FULL_YEAR = /\b((?:19|20)\d{2})\b/;
/** Apostrophe years the built-in festival history covers. */
const SHORT_YEAR_RANGE = { min: 17, max: 25 } as const;

const WEEKDAY_PATTERNS: readonly [Weekday, RegExp][] = [
  ['Monday', /\bmon(?:day)?\b/i],
  ['Tuesday', /\btue(?:s|sday)?\b/i],
  ['Wednesday', /\bwed(?:nesday)?\b/i],
  ['Thursday', /\bthu(?:r|rs|rsday)?\b/i],
  ['Friday', /\bfri(?:day)?\b/i],
  ['Saturday', /\bsat(?:urday)?\b/i],
  ['Sunday', /\bsun(?:day)?\b/i],
];

const TIME = String.raw`(\d{1,2})(?::([0-5]\d))?\s*(am|pm|a\.m\.|p\.m\.)?`;
const RANGE = new RegExp(String.raw`(?<![\d:'’])\b${TIME}\s*(?:-|–|—|\bto\b)\s*${TIME}(?![\d])`, 'i');
const MIDNIGHT_RANGE = /\bmidnight\s*(?:-|–|—|\bto\b)/i;
const SINGLE_WITH_MERIDIEM = /(?<![\d:'’])\b(\d{1,2})(?::([0-5]\d))?\s*(am|pm|a\.m\.|p\.m\.)(?![a-z])/i;
const SINGLE_WITH_COLON = /(?<![\d:'’])\b(\d{1,2}):([0-5]\d)\b/;
const KEYWORD_TIMES: readonly [RegExp, string][] = [
  [/\bmidnight\b/i, '00:00'],
  [/\blate[\s-]night\b/i, '02:00'],
  [/\bclosing\b/i, '04:00'],
];

type Meridiem = 'am' | 'pm';

function meridiemOf(text: string | undefined): Meridiem | null {
  if (!text) return null;
  return text.toLowerCase().startsWith('a') ? 'am' : 'pm';
}

/** 12-hour clock to 24-hour: 12 am is 0, 12 pm is 12. */
function to24(hour12: number, meridiem: Meridiem): number {
  const base = hour12 % 12;
  return meridiem === 'pm' ? base + 12 : base;
}

/**
 * A bare hour at a West Coast Swing night, which runs from the evening into the early morning:
 * 7-11 are evening hours (pm); 12 is midnight; 1-6 are after midnight (am).
 */
function nightMeridiem(hour12: number): Meridiem {
  return hour12 >= 7 && hour12 <= 11 ? 'pm' : 'am';
}

function hhmm(hour: number, minute: number): string {
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

function isValidHour(hour: number): boolean {
  return hour >= 0 && hour <= 23;
}

/** The start of a range like '10:30-1 am': the start takes the end's meridiem unless it would come after the end. */
function rangeStart(match: RegExpExecArray): string | null {
  const [, startHourText, startMinuteText, startMeridiemText, endHourText, , endMeridiemText] = match;
  const startHour = Number(startHourText);
  const endHour = Number(endHourText);
  if (startHour > 12 || endHour > 12) {
    // 24-hour clock: '22-1' or '22:30-01:00'.
    return isValidHour(startHour) ? hhmm(startHour, Number(startMinuteText ?? 0)) : null;
  }
  const startMinute = Number(startMinuteText ?? 0);
  const explicitStart = meridiemOf(startMeridiemText);
  if (explicitStart) return hhmm(to24(startHour, explicitStart), startMinute);
  const endMeridiem = meridiemOf(endMeridiemText);
  if (!endMeridiem) return hhmm(to24(startHour, nightMeridiem(startHour)), startMinute);
  // '10:30-1 am': 10 is after 1 on a 12-hour clock, so the set began the evening before (pm).
  const startsBeforeEnd = startHour % 12 <= endHour % 12;
  const startMeridiem: Meridiem = startsBeforeEnd ? endMeridiem : endMeridiem === 'am' ? 'pm' : 'am';
  return hhmm(to24(startHour, startMeridiem), startMinute);
}

/** The set's start time from the name, HH:MM, or null. */
export function parseStartTime(name: string): string | null {
  if (MIDNIGHT_RANGE.test(name)) return '00:00';
  const range = RANGE.exec(name);
  if (range) {
    const start = rangeStart(range);
    if (start) return start;
  }
  const single = SINGLE_WITH_MERIDIEM.exec(name);
  if (single) {
    const hour = Number(single[1]);
    const meridiem = meridiemOf(single[3]);
    if (hour >= 1 && hour <= 12 && meridiem) return hhmm(to24(hour, meridiem), Number(single[2] ?? 0));
  }
  const colon = SINGLE_WITH_COLON.exec(name);
  if (colon) {
    const hour = Number(colon[1]);
    const minute = Number(colon[2]);
    if (hour > 12 && isValidHour(hour)) return hhmm(hour, minute);
    if (hour >= 1 && hour <= 12) return hhmm(to24(hour, nightMeridiem(hour)), minute);
  }
  let earliest: { index: number; time: string } | null = null;
  for (const [pattern, time] of KEYWORD_TIMES) {
    const found = pattern.exec(name);
    if (found && (earliest === null || found.index < earliest.index)) earliest = { index: found.index, time };
  }
  return earliest?.time ?? null;
}

export function parseYear(name: string): number | null {
  const full = FULL_YEAR.exec(name);
  if (full) return Number(full[1]);
  const short = APOSTROPHE_YEAR.exec(name);
  if (short) {
    const twoDigits = Number(short[1]);
    if (twoDigits >= SHORT_YEAR_RANGE.min && twoDigits <= SHORT_YEAR_RANGE.max) return 2000 + twoDigits;
  }
  return null;
}

export function parseWeekday(name: string): Weekday | null {
  for (const [weekday, pattern] of WEEKDAY_PATTERNS) if (pattern.test(name)) return weekday;
  return null;
}

/** The playlist name's year, night and start time; null when it has no year. */
export function parsePlaylistName(name: string): ParsedPlaylistName | null {
  const year = parseYear(name);
  if (year === null) return null;
  return { year, dayOfWeek: parseWeekday(name), setStartTime: parseStartTime(name) };
}

/**
 * The time window of a set's start: 20:00-21:59 is 20-22; 22:00 up to and including 00:xx is
 * 22-00; then 00-02 (01:xx), 02-04 and 04-06. Other times (daytime) have no window.
 */
export function timeWindowForStart(startTime: string): TimeWindow | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(startTime);
  if (!match) return null;
  const hour = Number(match[1]);
  if (hour >= 20 && hour < 22) return '20-22';
  if (hour >= 22 || hour === 0) return '22-00';
  if (hour === 1) return '00-02';
  if (hour >= 2 && hour < 4) return '02-04';
  if (hour >= 4 && hour < 6) return '04-06';
  return null;
}
