/**
 * Serato's history export (History panel > Export > CSV). The header names the panel's columns,
 * quoted, lower case: "name","artist","start time","end time","playtime","deck","notes" (others,
 * such as "album" or "bpm", when the DJ shows them). The first row describes the session: its name
 * and, in "start time", its date and time ("30.3.2023, 16.04.53 EEST"); every later row is one
 * play, with the time only ("16.05.22 EEST"). Dates and times are written in the computer's
 * locale: the day order follows the date separator ('.' day first, '/' month first, '-' year
 * first) unless `dateOrder` says otherwise; times take '.' or ':' and an optional AM/PM. The zone
 * abbreviation fixes the offset when it is a known one ('EEST', 'CET', 'PDT', 'UTC+2');
 * otherwise the times are read in `timeZone`. A play earlier in the day than the one before it
 * happened after midnight.
 */
import { parse } from 'csv-parse/sync';
import { fileStem } from './paths.js';
import { decodeText } from './text-input.js';
import { dateOf, instantOfWallTime, isoFromMs, nextDay, validDate, zoneOption } from './time.js';
import type { DjFormatReader, DjHistoryEntry, DjLibrary, DjReadOptions, DjTrack } from './types.js';
import { DjFormatError } from './types.js';
import { compactTrack, positive, text } from './values.js';

const FORMAT = 'serato-history-csv';

/** Offsets, in minutes, of the zone abbreviations these exports are seen with. 'CST' is US Central. */
const ZONE_OFFSETS: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  WET: 0,
  WEST: 60,
  BST: 60,
  CET: 60,
  CEST: 120,
  EET: 120,
  EEST: 180,
  MSK: 180,
  AST: -240,
  ADT: -180,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
  JST: 540,
  KST: 540,
  SGT: 480,
  HKT: 480,
  AWST: 480,
  ACST: 570,
  ACDT: 630,
  AEST: 600,
  AEDT: 660,
  NZST: 720,
  NZDT: 780,
};

/** The offset of a zone written after a time, in minutes; null when unknown. */
function zoneOffset(zone: string): number | null {
  const upper = zone.trim().toUpperCase();
  if (upper === '') return null;
  const numeric = /^(?:UTC|GMT)\s*([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(upper);
  if (numeric) return (numeric[1] === '-' ? -1 : 1) * (Number(numeric[2]) * 60 + Number(numeric[3] ?? 0));
  return ZONE_OFFSETS[upper] ?? null;
}

interface ClockTime {
  hour: number;
  minute: number;
  second: number;
  offset: number | null;
}

/** '16.04.53 EEST', '4:04:53 PM EDT', '20.02.35 UTC+2'. */
function parseClock(value: string): ClockTime | null {
  const match = /^(\d{1,2})[.:](\d{2})(?:[.:](\d{2}))?\s*(?:([AaPp])\.?\s?[Mm]\.?)?\s*(.*)$/.exec(
    value.trim(),
  );
  if (!match) return null;
  let hour = Number(match[1]);
  const meridiem = match[4]?.toLowerCase();
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === 'p' ? 12 : 0);
  }
  const minute = Number(match[2]);
  const second = Number(match[3] ?? 0);
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { hour, minute, second, offset: zoneOffset(match[5] ?? '') };
}

/** '30.3.2023', '3/30/2023', '2023-03-30' (two-digit years are 20xx). */
function parseDay(
  value: string,
  order: DjReadOptions['dateOrder'],
): { year: number; month: number; day: number } | null {
  const match = /^(\d{1,4})([./-])(\d{1,2})\2(\d{1,4})$/.exec(value.trim());
  if (!match) return null;
  const [first, second, third] = [Number(match[1]), Number(match[3]), Number(match[4])];
  const resolved =
    order ?? (match[1]!.length === 4 ? 'ymd' : match[2] === '/' ? 'mdy' : match[2] === '.' ? 'dmy' : 'ymd');
  const fullYear = (year: number) => (year < 100 ? 2000 + year : year);
  if (resolved === 'ymd') return validDate(fullYear(first), second, third);
  if (resolved === 'mdy') return validDate(fullYear(third), first, second);
  return validDate(fullYear(third), second, first);
}

function instant(
  day: { year: number; month: number; day: number },
  clock: ClockTime,
  timeZone: string,
): string {
  const wall = { ...day, hour: clock.hour, minute: clock.minute, second: clock.second };
  if (clock.offset === null) return isoFromMs(instantOfWallTime(wall, timeZone));
  return isoFromMs(
    Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) -
      clock.offset * 60_000,
  );
}

function read(input: Buffer | string, options: DjReadOptions = {}): DjLibrary {
  const timeZone = zoneOption(options.timeZone);
  let rows: string[][];
  try {
    rows = parse(decodeText(input), { relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (error) {
    throw new DjFormatError(
      FORMAT,
      `Not a readable CSV file: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const header = (rows[0] ?? []).map((name) => name.trim().toLowerCase());
  const column = (name: string) => header.indexOf(name);
  const [nameColumn, artistColumn, startColumn] = [column('name'), column('artist'), column('start time')];
  if (nameColumn === -1 || startColumn === -1) {
    throw new DjFormatError(
      FORMAT,
      `Not a Serato history export: the header has no "name" and "start time" columns (${header.join(', ')}).`,
    );
  }
  const cell = (row: string[], index: number) => (index === -1 ? undefined : text(row[index]));
  const [albumColumn, genreColumn, bpmColumn, keyColumn] = ['album', 'genre', 'bpm', 'key'].map(column) as [
    number,
    number,
    number,
    number,
  ];

  let sessionName = options.fileName === undefined ? 'Serato history' : fileStem(options.fileName);
  let day: { year: number; month: number; day: number } | null = null;
  let startedAt: string | undefined;
  let body = rows.slice(1);
  const sessionStart = /^(\d{1,4}[./-]\d{1,2}[./-]\d{1,4}),?\s+(.+)$/.exec(
    cell(body[0] ?? [], startColumn) ?? '',
  );
  if (sessionStart) {
    day = parseDay(sessionStart[1]!, options.dateOrder);
    const clock = parseClock(sessionStart[2]!);
    if (day && clock) startedAt = instant(day, clock, timeZone);
    sessionName = cell(body[0]!, nameColumn) ?? sessionName;
    body = body.slice(1);
  }

  const tracks: DjTrack[] = [];
  const seen = new Set<string>();
  const entries: DjHistoryEntry[] = [];
  let previousSeconds = -1;
  let playDay = day;
  for (const row of body) {
    const title = cell(row, nameColumn) ?? '';
    const artist = cell(row, artistColumn) ?? '';
    if (title === '' && artist === '') continue;
    const key = artist === '' ? title : `${artist} - ${title}`;
    if (!seen.has(key)) {
      seen.add(key);
      tracks.push(
        compactTrack({
          key,
          title,
          artist,
          album: cell(row, albumColumn),
          genre: cell(row, genreColumn),
          bpm: positive(cell(row, bpmColumn)),
          musicalKey: cell(row, keyColumn),
        }),
      );
    }
    const clock = parseClock(cell(row, startColumn) ?? '');
    if (clock && playDay) {
      const seconds = clock.hour * 3600 + clock.minute * 60 + clock.second;
      if (seconds < previousSeconds) playDay = nextDay(playDay);
      previousSeconds = seconds;
      entries.push({ trackKey: key, playedAt: instant(playDay, clock, timeZone) });
    } else {
      entries.push({ trackKey: key });
    }
  }

  return {
    format: FORMAT,
    tracks,
    playlists: [],
    history: [
      {
        name: sessionName,
        ...(startedAt !== undefined ? { startedAt } : {}),
        ...(day ? { date: dateOf(day) } : {}),
        entries,
      },
    ],
  };
}

export const seratoHistoryCsvReader: DjFormatReader = { format: FORMAT, read };
