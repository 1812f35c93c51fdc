/**
 * CSV with a caller-given column mapping ({ title: 'Track Title', artist: 'Artist', playedAt:
 * 'Played' ... }): exports of DJ programs and tracklist sites differ in their headers, so the
 * caller (or the person importing) says which column holds which field. Parsed with csv-parse
 * (RFC 4180: quoted fields, embedded commas, quotes and line breaks). With a `playedAt` column
 * the file is one history session; without it, one playlist in row order.
 *
 * Cells: durations as seconds or 'm:ss'/'h:mm:ss'; dates 'YYYY-MM-DD' or 'YYYY/M/D'; play times
 * as ISO 8601 (with an offset, or a wall time read in `timeZone`) or Unix seconds; ratings 0-5.
 */
import { parse } from 'csv-parse/sync';
import { pickList } from './lists.js';
import { fileStem, fileUrlToPath } from './paths.js';
import { decodeText } from './text-input.js';
import { localDateOfIso, parseDateTime, zoneOption } from './time.js';
import type {
  DjCsvMapping,
  DjFormatReader,
  DjFormatWriter,
  DjHistoryEntry,
  DjLibrary,
  DjReadOptions,
  DjTrack,
  DjWriteInput,
  DjWriteOptions,
} from './types.js';
import { DjFormatError } from './types.js';
import { compactTrack, count, durationSeconds, isoDate, positive, stars, text } from './values.js';

const FORMAT = 'csv';

/** The columns the writer uses when none are given. */
export const DEFAULT_CSV_MAPPING: Required<DjCsvMapping> = {
  title: 'Title',
  artist: 'Artist',
  album: 'Album',
  genre: 'Genre',
  location: 'Location',
  durationSeconds: 'Duration',
  bpm: 'BPM',
  musicalKey: 'Key',
  playCount: 'Play Count',
  dateAdded: 'Date Added',
  rating: 'Rating',
  playedAt: 'Played At',
};

/** The delimiter among ',', ';' and tab that occurs most in the first line. */
function guessDelimiter(firstLine: string): string {
  const counts = [',', ';', '\t'].map((delimiter) => ({
    delimiter,
    count: firstLine.split(delimiter).length - 1,
  }));
  counts.sort((a, b) => b.count - a.count);
  return counts[0]!.count > 0 ? counts[0]!.delimiter : ',';
}

function read(input: Buffer | string, options: DjReadOptions = {}): DjLibrary {
  const mapping = options.csvMapping;
  if (!mapping)
    throw new DjFormatError(
      FORMAT,
      'Reading CSV needs a column mapping (at least the title and artist columns).',
    );
  const timeZone = zoneOption(options.timeZone);
  const source = decodeText(input);
  const delimiter = options.csvDelimiter ?? guessDelimiter(source.split(/\r?\n/, 1)[0] ?? '');
  let rows: string[][];
  try {
    rows = parse(source, { delimiter, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (error) {
    throw new DjFormatError(
      FORMAT,
      `Not a readable CSV file: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const header = (rows[0] ?? []).map((name) => name.trim());
  const indexOf = (field: keyof DjCsvMapping): number => {
    const wanted = mapping[field];
    if (wanted === undefined) return -1;
    let index = header.indexOf(wanted.trim());
    if (index === -1) index = header.findIndex((name) => name.toLowerCase() === wanted.trim().toLowerCase());
    if (index === -1) {
      throw new DjFormatError(
        FORMAT,
        `The CSV has no column "${wanted}" (for ${field}); its columns: ${header.join(', ')}.`,
      );
    }
    return index;
  };
  const columns = Object.fromEntries(
    (Object.keys(DEFAULT_CSV_MAPPING) as Array<keyof DjCsvMapping>).map((field) => [field, indexOf(field)]),
  ) as Record<keyof DjCsvMapping, number>;
  const cell = (row: string[], field: keyof DjCsvMapping) =>
    columns[field] === -1 ? undefined : text(row[columns[field]]);

  const tracks: DjTrack[] = [];
  const seen = new Set<string>();
  const keys: string[] = [];
  const entries: DjHistoryEntry[] = [];
  for (const row of rows.slice(1)) {
    const title = cell(row, 'title') ?? '';
    const artist = cell(row, 'artist') ?? '';
    const rawLocation = cell(row, 'location');
    const location = rawLocation === undefined ? undefined : fileUrlToPath(rawLocation);
    if (title === '' && artist === '' && location === undefined) continue;
    const key = location ?? (artist === '' ? title : `${artist} - ${title}`);
    if (!seen.has(key)) {
      seen.add(key);
      tracks.push(
        compactTrack({
          key,
          title,
          artist,
          album: cell(row, 'album'),
          genre: cell(row, 'genre'),
          location,
          durationSeconds: durationSeconds(cell(row, 'durationSeconds')),
          bpm: positive(cell(row, 'bpm')),
          musicalKey: cell(row, 'musicalKey'),
          playCount: count(cell(row, 'playCount')),
          dateAdded: isoDate(cell(row, 'dateAdded')),
          rating: stars(cell(row, 'rating')),
        }),
      );
    }
    keys.push(key);
    const playedAt = parseDateTime(cell(row, 'playedAt') ?? '', timeZone);
    entries.push(playedAt === null ? { trackKey: key } : { trackKey: key, playedAt });
  }

  const name = options.fileName === undefined ? 'CSV' : fileStem(options.fileName);
  if (mapping.playedAt === undefined) {
    return { format: FORMAT, tracks, playlists: [{ name, path: [], trackKeys: keys }], history: [] };
  }
  const startedAt = entries
    .flatMap((entry) => (entry.playedAt === undefined ? [] : [entry.playedAt]))
    .sort()[0];
  return {
    format: FORMAT,
    tracks,
    playlists: [],
    history: [
      {
        name,
        ...(startedAt !== undefined ? { startedAt, date: localDateOfIso(startedAt, timeZone) } : {}),
        entries,
      },
    ],
  };
}

export const csvReader: DjFormatReader = { format: FORMAT, read };

/** A cell quoted when it must be (RFC 4180): delimiter, quote, line break, or edge spaces. */
function quote(value: string): string {
  return /[",;\t\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The columns written, in the order of `DEFAULT_CSV_MAPPING`: 'playedAt' only for a history session. */
export function csvFields(mapping: DjCsvMapping, isHistory: boolean): Array<keyof DjCsvMapping> {
  return (Object.keys(DEFAULT_CSV_MAPPING) as Array<keyof DjCsvMapping>).filter(
    (field) => mapping[field] !== undefined && (field !== 'playedAt' || isHistory),
  );
}

/** The header row, without its line end. */
export function csvHeader(fields: ReadonlyArray<keyof DjCsvMapping>, mapping: DjCsvMapping): string {
  return fields.map((field) => quote(mapping[field]!)).join(',');
}

/**
 * One track's row (and its play time in a history), without its line end. Appended cell by cell:
 * with a copy of the track and an array of its cells per row, the 1,378 rows of an event's CSV
 * export took 3-8 ms on a loaded machine, and take 0.4-0.7 ms so (docs/performance.md).
 */
export function csvRow(fields: ReadonlyArray<keyof DjCsvMapping>, track: DjTrack, playedAt?: string): string {
  let row = '';
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i]!;
    const value = field === 'playedAt' ? playedAt : track[field];
    if (i > 0) row += ',';
    if (value !== undefined) row += quote(String(value));
  }
  return row;
}

/** Lines end in CRLF, the last one too. */
export const CSV_LINE_END = '\r\n';

/**
 * One list (see lists.ts) as CSV with a header row, comma-separated, CRLF line ends: the mapped
 * columns in the order of `DEFAULT_CSV_MAPPING`, and 'playedAt' only for a history session.
 * `stream` writes the same a row at a time (services/interop/export.ts, for the library).
 */
function write(input: DjWriteInput, options: DjWriteOptions = {}): string {
  const list = pickList(input, options, FORMAT);
  const mapping = options.csvMapping ?? DEFAULT_CSV_MAPPING;
  const fields = csvFields(mapping, list.isHistory);
  const lines = [csvHeader(fields, mapping)];
  for (const row of list.rows) lines.push(csvRow(fields, row.track, row.playedAt));
  return `${lines.join(CSV_LINE_END)}${CSV_LINE_END}`;
}

export const csvWriter: DjFormatWriter = {
  format: FORMAT,
  write,
  // A list of tracks (no history: no play times), every one a row.
  stream: (options = {}) => {
    const mapping = options.csvMapping ?? DEFAULT_CSV_MAPPING;
    const fields = csvFields(mapping, false);
    return {
      writes: () => true,
      head: () => `${csvHeader(fields, mapping)}${CSV_LINE_END}`,
      track: (track) => `${csvRow(fields, track)}${CSV_LINE_END}`,
      tail: () => [],
    };
  },
};
