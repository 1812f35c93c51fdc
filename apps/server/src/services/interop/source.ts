import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CsvMapping, InteropOptions } from '@wcs/contract';
import {
  DEFAULT_CSV_MAPPING,
  DJ_DETECT_BYTES,
  DJ_READERS,
  type DjCsvMapping,
  type DjFormat,
  DjFormatError,
  type DjHistorySession,
  type DjLibrary,
  type DjPlaylist,
  type DjTrack,
  detectDjFormat,
} from '../../providers/dj-software/index.js';
import { badRequest, tooLarge, unsupportedMedia } from '../errors.js';
import { resolveFolderInRoots } from '../library/library-folders.js';

/**
 * What an import reads: one uploaded file, or a file or folder on the server's disk, turned into
 * one library by the format readers (providers/dj-software). A folder is read whole: every file
 * whose name and first bytes a reader recognises (Engine DJ's m.db and hm.db, Traktor's collection
 * and History files, Serato's database V2, crates and sessions...), joined by the tracks' keys
 * where the program keys them alike in its files.
 */

export interface SourceFile {
  /** The upload's name, or the path relative to the folder read. */
  name: string;
  format: DjFormat;
}

/** A history session with where it came from; its entries' track keys are those of `ImportSource.tracks`. */
export interface SourceSession extends DjHistorySession {
  format: DjFormat;
  /** Position in `ImportSource.history`: the `sessions` option names sessions by it. */
  index: number;
}

export interface SourceTrack extends DjTrack {
  /** The key inside its file (the `key` is made unique across the files of a folder). */
  fileKey: string;
}

export interface ImportSource {
  files: SourceFile[];
  tracks: SourceTrack[];
  playlists: DjPlaylist[];
  history: SourceSession[];
  warnings: string[];
}

/** Reading options of one file (the `InteropOptions` that concern reading). */
export interface ReadSettings {
  format?: DjFormat;
  timeZone: string;
  csvMapping?: CsvMapping;
}

export const readSettingsOf = (options: InteropOptions, timeZone: string): ReadSettings => ({
  ...(options.format ? { format: options.format } : {}),
  timeZone,
  ...(options.csv_mapping ? { csvMapping: options.csv_mapping } : {}),
});

/** At most this many files of a folder are read; a folder with more is refused. */
export const MAX_FOLDER_FILES = 2000;
/** How deep a folder is walked (Engine Library/Database2/hm.db, _Serato_/History/Sessions/x.session). */
const MAX_FOLDER_DEPTH = 4;
/** Names a reader may recognise; any other file of a folder is not opened. */
const CANDIDATE = /\.(?:xml|nml|m3u8?|crate|session|csv|db|sqlite)$|^database v2$/i;

/**
 * The columns of the server's own CSV export that a file's header holds (title and artist at
 * least), so a CSV written by `GET /interop/export/csv` reads back without a mapping.
 */
function defaultCsvMapping(bytes: Buffer): DjCsvMapping {
  const firstLine = (
    bytes
      .subarray(0, 8192)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/, 1)[0] ?? ''
  )
    .toLowerCase()
    .replace(/"/g, '');
  const headers = new Set(firstLine.split(/[,;\t]/).map((cell) => cell.trim()));
  const mapping: DjCsvMapping = { title: DEFAULT_CSV_MAPPING.title, artist: DEFAULT_CSV_MAPPING.artist };
  for (const [field, header] of Object.entries(DEFAULT_CSV_MAPPING) as [keyof DjCsvMapping, string][]) {
    if (headers.has(header.toLowerCase())) mapping[field] = header;
  }
  return mapping;
}

/** One file read by its format's reader; a file the readers refuse is the caller's to fix (400). */
function readOne(bytes: Buffer, fileName: string, format: DjFormat, settings: ReadSettings): DjLibrary {
  try {
    return DJ_READERS[format].read(bytes, {
      fileName,
      timeZone: settings.timeZone,
      ...(format === 'csv' ? { csvMapping: settings.csvMapping ?? defaultCsvMapping(bytes) } : {}),
    });
  } catch (error) {
    if (error instanceof DjFormatError) {
      const hint =
        format === 'csv' && !settings.csvMapping
          ? ' Give csv_mapping (the header of the title, artist and other columns).'
          : '';
      throw badRequest(`${path.basename(fileName)} could not be read as ${format}: ${error.message}${hint}`);
    }
    throw error;
  }
}

function formatOf(fileName: string, bytes: Buffer, settings: ReadSettings): DjFormat {
  if (settings.format) return settings.format;
  const detected = detectDjFormat(fileName, bytes.subarray(0, DJ_DETECT_BYTES));
  if (!detected) {
    throw unsupportedMedia(
      `${path.basename(fileName) || 'The file'} is not a DJ program's file this server reads (rekordbox XML, Traktor NML, VirtualDJ, Serato, Engine DJ, Mixxx, M3U, CSV); name its format if it is one of them`,
    );
  }
  return detected;
}

/** The files of one program that key their tracks alike (docs/interop.md, "The common shape"). */
const KEY_FAMILY: Partial<Record<DjFormat, string>> = {
  'engine-dj': 'engine',
  'serato-crate': 'serato',
  'serato-session': 'serato',
  'serato-database': 'serato',
  'traktor-nml': 'traktor',
  'virtualdj-database': 'paths',
  'virtualdj-m3u': 'paths',
  m3u8: 'paths',
};

/** Library files first, so their titles win over a crate's file names when tracks are joined. */
const READ_ORDER: DjFormat[] = [
  'serato-database',
  'virtualdj-database',
  'engine-dj',
  'mixxx',
  'rekordbox-xml',
  'traktor-nml',
  'serato-session',
  'serato-history-csv',
  'virtualdj-m3u',
  'serato-crate',
  'm3u8',
  'csv',
];

/** Joins the libraries of several files into one, tracks of the same program by key. */
function combine(parts: { file: SourceFile; library: DjLibrary }[]): ImportSource {
  const single = parts.length === 1;
  const tracks = new Map<string, SourceTrack>();
  const playlists: DjPlaylist[] = [];
  const history: SourceSession[] = [];
  for (const [fileIndex, { file, library }] of parts.entries()) {
    const family = KEY_FAMILY[file.format] ?? `file${fileIndex}`;
    const keyOf = (key: string) => (single ? key : `${family}\u0001${key}`);
    for (const track of library.tracks) {
      const key = keyOf(track.key);
      const known = tracks.get(key);
      if (!known) {
        tracks.set(key, { ...track, key, fileKey: track.key });
        continue;
      }
      // A crate names its tracks by file name and no artist: a library file's names win.
      for (const [field, value] of Object.entries(track) as [keyof DjTrack, unknown][]) {
        const current = known[field];
        if (value !== undefined && value !== '' && (current === undefined || current === '')) {
          (known as unknown as Record<string, unknown>)[field] = value;
        }
      }
    }
    for (const playlist of library.playlists) {
      playlists.push({ ...playlist, trackKeys: playlist.trackKeys.map(keyOf) });
    }
    for (const session of library.history) {
      history.push({
        ...session,
        format: file.format,
        index: history.length,
        entries: session.entries.map((entry) => ({ ...entry, trackKey: keyOf(entry.trackKey) })),
      });
    }
  }
  return {
    files: parts.map((part) => part.file),
    tracks: [...tracks.values()],
    playlists,
    history,
    warnings: [],
  };
}

/** An uploaded file. */
export function readUpload(bytes: Buffer, fileName: string, settings: ReadSettings): ImportSource {
  if (bytes.length === 0) throw badRequest('The file is empty');
  const name = path.basename(fileName.replace(/\\/g, '/')) || 'upload';
  const format = formatOf(name, bytes, settings);
  return combine([{ file: { name, format }, library: readOne(bytes, name, format, settings) }]);
}

async function candidateFiles(folder: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      // Hidden entries (macOS '._' files) and links (which could lead out of the roots) are skipped.
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && depth < MAX_FOLDER_DEPTH) await walk(full, depth + 1);
      else if (entry.isFile() && CANDIDATE.test(entry.name)) {
        found.push(full);
        if (found.length > MAX_FOLDER_FILES) {
          throw tooLarge(
            `${folder} holds more than ${MAX_FOLDER_FILES} files a DJ program may have written; import a folder further down (the program's own folder)`,
          );
        }
      }
    }
  };
  await walk(folder, 0);
  return found;
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(DJ_DETECT_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, DJ_DETECT_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const tooLargeFile = (file: string, maxBytes: number) =>
  tooLarge(
    `${file} is larger than the limit of ${Math.round(maxBytes / 1024 / 1024)} MB (WCS_MAX_UPLOAD_MB); raise it to read this file`,
  );

/**
 * A file or folder on the server's disk, inside the library roots: the path is checked as the
 * library import checks its folders (absolute, real path inside a root, '..' and links resolved)
 * before anything is read. Files over `maxBytes` are refused, as uploads are.
 */
export async function readServerPath(
  requested: string,
  roots: readonly string[],
  settings: ReadSettings,
  maxBytes: number,
): Promise<ImportSource> {
  if (!path.isAbsolute(requested)) {
    throw badRequest(
      `path must be an absolute path (for example ${roots[0] ?? '/music'}); got "${requested}"`,
      'body.path',
    );
  }
  let real: string;
  try {
    real = await fs.realpath(requested);
  } catch {
    throw badRequest(`${requested} does not exist`, 'body.path');
  }
  const stat = await fs.stat(real);
  // The folder itself, or the folder holding the file, must lie inside a root.
  await resolveFolderInRoots(stat.isDirectory() ? real : path.dirname(real), roots);

  if (!stat.isDirectory()) {
    if (!stat.isFile()) throw badRequest(`${requested} is neither a file nor a folder`, 'body.path');
    if (stat.size > maxBytes) throw tooLargeFile(requested, maxBytes);
    const bytes = await fs.readFile(real);
    if (bytes.length === 0) throw badRequest(`${requested} is empty`, 'body.path');
    const format = formatOf(real, bytes, settings);
    return combine([
      { file: { name: path.basename(real), format }, library: readOne(bytes, real, format, settings) },
    ]);
  }

  const files = await candidateFiles(real);
  const recognised: { file: string; format: DjFormat; size: number }[] = [];
  const warnings: string[] = [];
  for (const file of files) {
    const size = (await fs.stat(file)).size;
    if (size === 0) continue;
    const format = settings.format ?? detectDjFormat(file, await readHead(file));
    if (!format) continue;
    if (size > maxBytes) throw tooLargeFile(file, maxBytes);
    recognised.push({ file, format, size });
  }
  if (recognised.length === 0) {
    throw unsupportedMedia(
      `${requested} holds no file a DJ program wrote that this server reads (rekordbox XML, Traktor NML, VirtualDJ, Serato, Engine DJ, Mixxx, M3U, CSV)`,
    );
  }
  recognised.sort(
    (a, b) => READ_ORDER.indexOf(a.format) - READ_ORDER.indexOf(b.format) || a.file.localeCompare(b.file),
  );
  const parts: { file: SourceFile; library: DjLibrary }[] = [];
  for (const { file, format } of recognised) {
    const name = path.relative(real, file);
    try {
      parts.push({
        file: { name, format },
        library: readOne(await fs.readFile(file), file, format, settings),
      });
    } catch (error) {
      // One unreadable file of a folder (an old playlist, a foreign CSV) does not stop the rest.
      if ((error as { status?: number }).status !== 400) throw error;
      warnings.push((error as Error).message);
    }
  }
  if (parts.length === 0) throw badRequest(warnings.join('; '), 'body.path');
  const source = combine(parts);
  source.warnings.push(...warnings);
  return source;
}

/** The format of a source: one format, or the formats of a folder joined by '+'. */
export function formatName(source: ImportSource): string {
  return [...new Set(source.files.map((file) => file.format))].join('+');
}
