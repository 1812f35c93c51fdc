import type { CsvMapping, DjImportFormat, InteropOptionsInput, PathMapping } from '@wcs/contract';

/**
 * What the import page sends: the rows and choices on screen turned into the options of
 * POST /interop/preview and /interop/import (packages/contract/src/interop.ts, docs/interop.md
 * "Importing into the product"). Pure, so the rules are tested without a browser.
 */

// ---------------------------------------------------------------------------------------------
// Path mappings

/** One row of the path mappings on screen: what the DJ's computer wrote, and where it is here. */
export interface MappingRow {
  id: number;
  from: string;
  to: string;
}

export interface MappingsOutcome {
  mappings: PathMapping[];
  /** What to fix before sending, or null. */
  problem: string | null;
}

/** The server takes at most this many mappings (the contract's limit). */
export const MAX_PATH_MAPPINGS = 50;

/**
 * The rows as the server's `path_mappings`: trimmed, empty rows left out, a row with only one
 * side refused (it would match nothing or everything), the same `from` twice refused.
 */
export function pathMappingsOf(rows: readonly MappingRow[]): MappingsOutcome {
  const mappings: PathMapping[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [index, row] of rows.entries()) {
    const from = row.from.trim();
    const to = row.to.trim();
    if (from === '' && to === '') continue;
    if (from === '' || to === '') {
      problems.push(
        `Mapping ${index + 1}: give both the folder on the DJ computer and the folder on this server, or clear the row.`,
      );
      continue;
    }
    if (seen.has(from)) {
      problems.push(`Mapping ${index + 1}: "${from}" is mapped twice.`);
      continue;
    }
    seen.add(from);
    mappings.push({ from, to });
  }
  if (mappings.length > MAX_PATH_MAPPINGS) problems.push(`At most ${MAX_PATH_MAPPINGS} path mappings.`);
  return { mappings, problem: problems.length > 0 ? problems.join(' ') : null };
}

// ---------------------------------------------------------------------------------------------
// CSV columns

export type CsvField = keyof CsvMapping;

export interface CsvFieldDefinition {
  field: CsvField;
  label: string;
  isRequired: boolean;
  /** Headers that usually hold it, lower case; the first is the server's own CSV export's. */
  usualHeaders: readonly string[];
}

/** The fields a CSV column can give, in the order the screen lists them. */
export const CSV_FIELDS: readonly CsvFieldDefinition[] = [
  {
    field: 'title',
    label: 'Title',
    isRequired: true,
    usualHeaders: ['title', 'track title', 'track', 'song', 'name'],
  },
  {
    field: 'artist',
    label: 'Artist',
    isRequired: true,
    usualHeaders: ['artist', 'artists', 'artist name', 'by'],
  },
  {
    field: 'playedAt',
    label: 'Played at (a history)',
    isRequired: false,
    usualHeaders: ['played at', 'played', 'play time', 'start time', 'time', 'timestamp'],
  },
  {
    field: 'location',
    label: 'File location',
    isRequired: false,
    usualHeaders: ['location', 'path', 'file', 'file path', 'filename'],
  },
  { field: 'album', label: 'Album', isRequired: false, usualHeaders: ['album'] },
  { field: 'genre', label: 'Genre', isRequired: false, usualHeaders: ['genre'] },
  {
    field: 'durationSeconds',
    label: 'Duration',
    isRequired: false,
    usualHeaders: ['duration', 'length', 'time length'],
  },
  { field: 'bpm', label: 'BPM', isRequired: false, usualHeaders: ['bpm', 'tempo'] },
  { field: 'musicalKey', label: 'Key', isRequired: false, usualHeaders: ['key', 'musical key', 'tonality'] },
  {
    field: 'playCount',
    label: 'Play count',
    isRequired: false,
    usualHeaders: ['play count', 'plays', 'playcount'],
  },
  { field: 'dateAdded', label: 'Date added', isRequired: false, usualHeaders: ['date added', 'added'] },
  { field: 'rating', label: 'Rating', isRequired: false, usualHeaders: ['rating', 'stars'] },
];

/** The column chosen for each field; '' is none. */
export type CsvChoice = Readonly<Record<CsvField, string>>;

/** The delimiter among ',', ';' and tab that the header line has most (the server's rule). */
function delimiterOf(line: string): string {
  const counts = [',', ';', '\t'].map((delimiter) => ({
    delimiter,
    count: line.split(delimiter).length - 1,
  }));
  counts.sort((a, b) => b.count - a.count);
  return counts[0] && counts[0].count > 0 ? counts[0].delimiter : ',';
}

/** The header line's cells: quotes removed (doubled quotes kept once), surrounding spaces trimmed. */
export function csvHeaderOf(text: string): string[] {
  const line = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  if (line.trim() === '') return [];
  const delimiter = delimiterOf(line);
  const cells: string[] = [];
  let cell = '';
  let isQuoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i];
    if (isQuoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') isQuoted = false;
      else cell += char;
    } else if (char === '"') isQuoted = true;
    else if (char === delimiter) {
      cells.push(cell.trim());
      cell = '';
    } else cell += char;
  }
  cells.push(cell.trim());
  return cells;
}

/**
 * Whether the file needs its columns chosen on screen: a `.csv` that is not Serato's history
 * export (whose header has 'name' and 'start time', read by its own reader), as the server
 * detects it. A format chosen by hand decides instead.
 */
export function needsCsvMapping(
  fileName: string,
  header: readonly string[],
  format: DjImportFormat | '',
): boolean {
  if (format !== '') return format === 'csv';
  if (!/\.csv$/i.test(fileName)) return false;
  const columns = header.map((cell) => cell.toLowerCase());
  return !(columns.includes('name') && columns.includes('start time'));
}

/** A first choice of columns: each field the first header it usually has, ignoring case. */
export function guessCsvChoice(header: readonly string[]): CsvChoice {
  const taken = new Set<string>();
  const choice = {} as Record<CsvField, string>;
  for (const { field, usualHeaders } of CSV_FIELDS) {
    const found = usualHeaders
      .map((usual) => header.find((cell) => cell.toLowerCase() === usual && !taken.has(cell)))
      .find((cell) => cell !== undefined);
    choice[field] = found ?? '';
    if (found) taken.add(found);
  }
  return choice;
}

export interface CsvMappingOutcome {
  mapping: CsvMapping | null;
  problem: string | null;
}

/** The chosen columns as the server's `csv_mapping`; title and artist must be chosen. */
export function csvMappingOf(choice: CsvChoice): CsvMappingOutcome {
  const missing = CSV_FIELDS.filter(({ field, isRequired }) => isRequired && choice[field] === '').map(
    ({ label }) => label.toLowerCase(),
  );
  if (missing.length > 0) {
    return { mapping: null, problem: `Choose the column of the ${missing.join(' and ')}.` };
  }
  const mapping: Partial<Record<CsvField, string>> = {};
  for (const { field } of CSV_FIELDS) {
    if (choice[field] !== '') mapping[field] = choice[field];
  }
  return { mapping: mapping as CsvMapping, problem: null };
}

// ---------------------------------------------------------------------------------------------
// Sessions and the event

/** Where the history goes (the `event_id` and `create_events` options). */
export type EventChoice =
  /** The event holding each night, else a new one-day event per night made by the import. */
  | { kind: 'per-night' }
  /** Only events that already hold the night; sessions outside every event are skipped. */
  | { kind: 'existing-only' }
  /** Every chosen session into this one event. */
  | { kind: 'one'; eventId: number | null };

/** The `sessions` option: left out when every session is chosen (the server's default: all). */
export function sessionsOption(all: readonly number[], chosen: ReadonlySet<number>): number[] | undefined {
  if (all.every((index) => chosen.has(index))) return undefined;
  return all.filter((index) => chosen.has(index));
}

export interface ImportChoices {
  pathMappings: readonly PathMapping[];
  csvMapping: CsvMapping | null;
  /** '' to let the server detect it. */
  format: DjImportFormat | '';
  /** IANA zone of the DJ's computer; '' for the server's default. */
  timeZone: string;
  /** HH:MM; '' for the server's default. */
  nightStart: string;
  newSongs: 'all' | 'history' | 'none';
  /** The sessions chosen, by index; undefined for all. */
  sessions: readonly number[] | undefined;
  event: EventChoice;
}

/** The options of preview and import: only what differs from the server's defaults is sent. */
export function interopOptionsOf(choices: ImportChoices): InteropOptionsInput {
  const options: InteropOptionsInput = {};
  if (choices.format !== '') options.format = choices.format;
  const timeZone = choices.timeZone.trim();
  if (timeZone !== '') options.time_zone = timeZone;
  if (choices.pathMappings.length > 0) options.path_mappings = [...choices.pathMappings];
  if (choices.csvMapping) options.csv_mapping = choices.csvMapping;
  if (choices.sessions !== undefined) options.sessions = [...choices.sessions];
  if (choices.event.kind === 'one' && choices.event.eventId !== null)
    options.event_id = choices.event.eventId;
  if (choices.event.kind === 'existing-only') options.create_events = false;
  if (choices.newSongs !== 'all') options.new_songs = choices.newSongs;
  if (choices.nightStart !== '') options.night_start = choices.nightStart;
  return options;
}

/**
 * The multipart body of an upload: the options as the JSON text field `options` (first, so the
 * server has them before the file), then the file as the part `file`.
 */
export function uploadBodyOf(file: Blob, fileName: string, options: InteropOptionsInput): FormData {
  const form = new FormData();
  form.append('options', JSON.stringify(options));
  form.append('file', file, fileName);
  return form;
}
