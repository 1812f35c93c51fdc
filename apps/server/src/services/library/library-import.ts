import { createHash } from 'node:crypto';
import { createReadStream, type Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { LibraryImportResult } from '@wcs/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { parseFile } from 'music-metadata';
import pg from 'pg';
import type { Db } from '../../db/client.js';
import { songs } from '../../db/schema.js';
import { songSearchKey } from '../../text.js';
import { badRequest, conflict } from '../errors.js';
import { mapGenre } from './genre-map.js';

/**
 * Library import: every audio file under a folder becomes or updates a song. A song's identity is
 * its content (sha256 of the file): a moved or renamed file updates the song's path, a re-import
 * of an unchanged file changes nothing, and songs whose file under the folder has gone are marked
 * file_present = false. Tags are read with music-metadata; unreadable files are listed and skipped.
 */

/** Extensions of the audio files an import picks up (lower case, with the dot). */
export const AUDIO_EXTENSIONS: ReadonlySet<string> = new Set([
  '.mp3',
  '.flac',
  '.ogg',
  '.opus',
  '.m4a',
  '.aac',
  '.wav',
  '.aiff',
  '.aif',
]);

/** The artist of a file whose tags name none. */
export const UNKNOWN_ARTIST = 'Unknown Artist';

/** Release years outside this range are typos or placeholders (0000, 9999), not dates. */
const MIN_RELEASE_YEAR = 1900;
const MAX_RELEASE_YEAR = 2100;

/** Any fixed number: the key of the PostgreSQL advisory lock that lets one import run at a time. */
const IMPORT_LOCK_KEY = 0x5743_534c_4942;

export type LibraryImportSummary = LibraryImportResult;
export type LibraryImportFailure = LibraryImportResult['failed'][number];

/** What happened to a song during an import; hooks (fingerprinting, analysis) decide what to redo. */
export type SongImportChange =
  /** A new song. */
  | 'imported'
  /** New content at a path the library knew (the file was re-tagged or replaced). */
  | 'content_changed'
  /** Known content at a new path (the file was moved or renamed). */
  | 'moved'
  /** A song that had been marked missing whose file is back, unchanged. */
  | 'restored'
  /** A song known only by title and artist (played, no file) that got this file. */
  | 'attached';

export interface ImportedSong {
  songId: number;
  /** Absolute path of the file. */
  filePath: string;
  /** sha256 of the file, hex. */
  contentHash: string;
  change: SongImportChange;
}

/**
 * Runs after a song was imported or updated from its file, before the next file. Later steps
 * (fingerprinting, audio analysis) hang here; an error is listed as a failure of that file and
 * the import goes on.
 */
export type SongImportedHook = (song: ImportedSong) => Promise<void> | void;

export interface ImportProgress {
  /** Files handled so far, including this one. */
  done: number;
  total: number;
  file: string;
}

export interface ImportLibraryOptions {
  /** Called after each file, for progress bars. */
  onProgress?: (progress: ImportProgress) => void;
  /** Run after each new or changed song, in order (services/library/library-pipeline.ts gives the product's). */
  hooks?: readonly SongImportedHook[];
}

// ---------------------------------------------------------------------------------------------
// Tags

/**
 * A release date from the date and year tags: a full date (YYYY-MM-DD, with or without a time)
 * is kept; a year and month (YYYY-MM) becomes the first of that month; a year alone (YYYY, or the
 * numeric year tag) becomes YYYY-01-01. Anything else, or a year outside 1900-2100, is no date.
 */
export function releaseDateFromTags(date: string | undefined, year: number | undefined): string | null {
  const match = date?.trim().match(/^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/);
  if (match) {
    const [, y, m = '01', d = '01'] = match;
    const candidate = `${y}-${m}-${d}`;
    if (isPlausibleDate(candidate)) return candidate;
  }
  if (year !== undefined && Number.isInteger(year)) {
    const candidate = `${String(year).padStart(4, '0')}-01-01`;
    if (isPlausibleDate(candidate)) return candidate;
  }
  return null;
}

function isPlausibleDate(isoDate: string): boolean {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  if (year < MIN_RELEASE_YEAR || year > MAX_RELEASE_YEAR) return false;
  const parsed = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2019-02-30 over into March: a date that does not round-trip does not exist.
  return parsed.toISOString().slice(0, 10) === isoDate;
}

/**
 * Text that was UTF-8 but got decoded as Latin-1 ('TÃ¯tle' for 'Tïtle'), as RIFF INFO tags
 * written by ffmpeg and many ID3 tags declared Latin-1 are: decoded again as UTF-8 when that gives
 * valid UTF-8. Real Latin-1 text ('Café' as Latin-1 bytes) is not valid UTF-8 and stays as it is.
 */
export function repairMojibake(text: string): string {
  const codes = [...text].map((char) => char.codePointAt(0)!);
  // Only text made of Latin-1 code points, some of them beyond ASCII, can be UTF-8 misread.
  if (!codes.some((code) => code >= 0x80) || codes.some((code) => code > 0xff)) return text;
  const decoded = Buffer.from(text, 'latin1').toString('utf8');
  return decoded.includes('\uFFFD') ? text : decoded;
}

const cleanText = (value: string | undefined | null): string | null => {
  if (value === undefined || value === null) return null;
  const text = repairMojibake(value).trim();
  return text === '' ? null : text;
};

/** What an import reads from one audio file. */
export interface AudioFileTags {
  /** Null when the file has no title tag (the caller falls back to the file name). */
  title: string | null;
  /** Null when the file has no artist tag. */
  artist: string | null;
  album: string | null;
  /** The genre tags as written in the file. */
  genres: string[];
  releaseDate: string | null;
  year: number | null;
  albumArtist: string | null;
  track: number | null;
  durationMs: number;
}

/** A file the import cannot use, with a reason a person can act on. */
class UnusableFile extends Error {}

/** Reads the tags and duration of an audio file; throws UnusableFile when no audio can be read. */
export async function readAudioFileTags(file: string): Promise<AudioFileTags> {
  let metadata: Awaited<ReturnType<typeof parseFile>>;
  try {
    metadata = await parseFile(file, { skipCovers: true });
    // Ogg Vorbis (and headerless MP3) declare no duration: scan the whole stream for it then.
    if (metadata.format.duration === undefined) {
      metadata = await parseFile(file, { skipCovers: true, duration: true });
    }
  } catch (error) {
    throw new UnusableFile(`not a readable audio file: ${(error as Error).message}`);
  }
  const { common, format } = metadata;
  // A file with no measurable duration has no audio stream the parser could find: random bytes
  // that happen to contain an MPEG frame sync, or a truncated header.
  if (format.duration === undefined || !Number.isFinite(format.duration) || format.duration <= 0) {
    throw new UnusableFile(
      `no audio stream could be read (is the file complete, and is it really ${path.extname(file).slice(1)}?)`,
    );
  }
  const genres = (common.genre ?? []).map((genre) => cleanText(genre)).filter((genre) => genre !== null);
  const year = common.year !== undefined && Number.isInteger(common.year) ? common.year : null;
  return {
    title: cleanText(common.title),
    artist: cleanText(common.artist) ?? cleanText(common.artists?.join(', ')),
    album: cleanText(common.album),
    genres,
    releaseDate: releaseDateFromTags(common.date, common.year),
    year,
    albumArtist: cleanText(common.albumartist),
    track: common.track.no ?? null,
    durationMs: Math.round(format.duration * 1000),
  };
}

/** The tags a song keeps from its file (songs.tags). */
function tagsJson(tags: AudioFileTags) {
  return {
    album_artist: tags.albumArtist,
    track: tags.track,
    year: tags.year,
    genre: tags.genres.length > 0 ? tags.genres.join('; ') : null,
  };
}

/** sha256 of a file, streamed (library files are tens of megabytes). */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Folders

/**
 * The audio files under a folder, sorted, and the folders that could not be read. Hidden entries
 * (names starting with '.', such as macOS '._x.mp3' resource files) and symbolic links are
 * skipped: a link could lead out of the library roots, or in a circle.
 */
export async function listAudioFiles(
  folder: string,
): Promise<{ files: string[]; unreadable: LibraryImportFailure[] }> {
  const files: string[] = [];
  const unreadable: LibraryImportFailure[] = [];
  const walk = async (dir: string) => {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      unreadable.push({ file: dir, reason: `the folder could not be read: ${(error as Error).message}` });
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && AUDIO_EXTENSIONS.has(path.extname(entry.name).toLowerCase()))
        files.push(full);
    }
  };
  await walk(folder);
  files.sort();
  return { files, unreadable };
}

async function existsOnDisk(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

/** Roots as they are on disk: a root that is itself a symbolic link compares by its target. */
async function realRoots(roots: readonly string[]): Promise<string[]> {
  return Promise.all(roots.map((root) => fs.realpath(root).catch(() => path.resolve(root))));
}

const isInside = (child: string, parent: string) =>
  child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

/**
 * The real path of a folder the API was asked to import, after checking that it is absolute,
 * exists, is a folder, and lies inside a library root once '..' and symbolic links are resolved.
 */
export async function resolveFolderInRoots(folder: string, roots: readonly string[]): Promise<string> {
  if (!path.isAbsolute(folder)) {
    throw badRequest(
      `folder must be an absolute path (for example ${roots[0] ?? '/music'}); got "${folder}"`,
    );
  }
  const real = await resolveExistingFolder(folder);
  const realRootList = await realRoots(roots);
  if (!realRootList.some((root) => isInside(real, root))) {
    throw badRequest(
      `Folder ${folder} is outside the library roots (${roots.join(', ')}). Import a folder inside one of them, or add its parent folder to WCS_LIBRARY_ROOTS.`,
    );
  }
  return real;
}

/** The real path of an existing folder; a missing path or a file is the caller's mistake. */
export async function resolveExistingFolder(folder: string): Promise<string> {
  let real: string;
  try {
    real = await fs.realpath(folder);
  } catch {
    throw badRequest(`Folder ${folder} does not exist`);
  }
  if (!(await fs.stat(real)).isDirectory()) throw badRequest(`${folder} is a file, not a folder`);
  return real;
}

// ---------------------------------------------------------------------------------------------
// Songs

type SongRow = typeof songs.$inferSelect;
type FileOutcome = { kind: 'unchanged' } | { kind: 'imported' | 'updated'; song: ImportedSong };

async function songAtPath(db: Db, file: string): Promise<SongRow | undefined> {
  const [row] = await db.select().from(songs).where(eq(songs.filePath, file));
  return row;
}

async function songWithHash(db: Db, hash: string): Promise<SongRow | undefined> {
  const [row] = await db.select().from(songs).where(eq(songs.contentHash, hash));
  return row;
}

/**
 * A song the library knows only by its title and artist (played at an event, never had a file):
 * the file a DJ downloaded for it becomes its file instead of a second song. Only when exactly
 * one such song matches the file's title and artist tags.
 */
async function filelessSongNamed(db: Db, title: string, artist: string): Promise<SongRow | undefined> {
  const rows = await db
    .select()
    .from(songs)
    .where(
      and(
        eq(songs.searchKey, songSearchKey(title, artist)),
        isNull(songs.filePath),
        isNull(songs.contentHash),
      ),
    )
    .limit(2);
  return rows.length === 1 ? rows[0] : undefined;
}

const titleFromFileName = (file: string) =>
  path.basename(file, path.extname(file)).trim() || path.basename(file);

async function importFile(db: Db, file: string): Promise<FileOutcome> {
  const stat = await fs.stat(file);
  if (stat.size === 0) throw new UnusableFile('the file is empty');
  const hash = await sha256OfFile(file);
  const now = new Date();
  const byPath = await songAtPath(db, file);

  if (byPath && byPath.contentHash === hash) {
    if (byPath.filePresent && byPath.fileSizeBytes === stat.size) return { kind: 'unchanged' };
    await db
      .update(songs)
      .set({ filePresent: true, fileSizeBytes: stat.size, updatedAt: now })
      .where(eq(songs.id, byPath.id));
    return {
      kind: 'updated',
      song: { songId: byPath.id, filePath: file, contentHash: hash, change: 'restored' },
    };
  }

  const byHash = await songWithHash(db, hash);
  if (byHash) {
    // The same audio under two paths at once is a copy, not a move: the song keeps its file.
    if (byHash.filePath !== null && byHash.filePath !== file && (await existsOnDisk(byHash.filePath))) {
      throw new UnusableFile(
        `the same audio as ${byHash.filePath} (song ${byHash.id}, "${byHash.title}"); a copy is not imported twice`,
      );
    }
    await db.transaction(async (tx) => {
      // Another song's file was at this path and has been replaced by this one: it loses the path.
      if (byPath) {
        await tx
          .update(songs)
          .set({ filePath: null, filePresent: false, updatedAt: now })
          .where(eq(songs.id, byPath.id));
      }
      await tx
        .update(songs)
        .set({ filePath: file, filePresent: true, fileSizeBytes: stat.size, updatedAt: now })
        .where(eq(songs.id, byHash.id));
    });
    return {
      kind: 'updated',
      song: { songId: byHash.id, filePath: file, contentHash: hash, change: 'moved' },
    };
  }

  const tags = await readAudioFileTags(file);
  const genre = mapGenre(tags.genres);
  const fileFields = {
    filePath: file,
    filePresent: true,
    contentHash: hash,
    fileSizeBytes: stat.size,
    durationMs: tags.durationMs,
    tags: tagsJson(tags),
    updatedAt: now,
  };

  if (byPath) {
    // New content at a known path: what the file says wins, what it does not say is kept (a DJ's
    // own genre or title survives a file whose tags lack them).
    const title = tags.title ?? byPath.title;
    const artist = tags.artist ?? byPath.artist;
    await db
      .update(songs)
      .set({
        ...fileFields,
        title,
        artist,
        album: tags.album ?? byPath.album,
        genre: genre ?? byPath.genre,
        releaseDate: tags.releaseDate ?? byPath.releaseDate,
        searchKey: songSearchKey(title, artist),
      })
      .where(eq(songs.id, byPath.id));
    return {
      kind: 'updated',
      song: { songId: byPath.id, filePath: file, contentHash: hash, change: 'content_changed' },
    };
  }

  if (tags.title && tags.artist) {
    const fileless = await filelessSongNamed(db, tags.title, tags.artist);
    if (fileless) {
      await db
        .update(songs)
        .set({
          ...fileFields,
          album: fileless.album ?? tags.album,
          genre: fileless.genre ?? genre,
          releaseDate: fileless.releaseDate ?? tags.releaseDate,
        })
        .where(eq(songs.id, fileless.id));
      return {
        kind: 'updated',
        song: { songId: fileless.id, filePath: file, contentHash: hash, change: 'attached' },
      };
    }
  }

  const title = tags.title ?? titleFromFileName(file);
  const artist = tags.artist ?? UNKNOWN_ARTIST;
  const [inserted] = await db
    .insert(songs)
    .values({
      ...fileFields,
      title,
      artist,
      album: tags.album,
      genre,
      releaseDate: tags.releaseDate,
      searchKey: songSearchKey(title, artist),
    })
    .returning({ id: songs.id });
  return {
    kind: 'imported',
    song: { songId: inserted!.id, filePath: file, contentHash: hash, change: 'imported' },
  };
}

/**
 * Songs whose file lay under `folder` and is gone get file_present = false. Their path stays, so
 * a file that comes back, or turns up elsewhere (same content), finds its song again.
 */
async function markMissingFiles(db: Db, folder: string, seen: ReadonlySet<string>): Promise<number> {
  const prefix = folder.endsWith(path.sep) ? folder : folder + path.sep;
  const candidates = await db
    .select({ id: songs.id, filePath: songs.filePath })
    .from(songs)
    .where(and(eq(songs.filePresent, true), sql`starts_with(${songs.filePath}, ${prefix})`));
  let marked = 0;
  for (const candidate of candidates) {
    if (candidate.filePath === null || seen.has(candidate.filePath)) continue;
    if (await existsOnDisk(candidate.filePath)) continue;
    await db
      .update(songs)
      .set({ filePresent: false, updatedAt: new Date() })
      .where(and(eq(songs.id, candidate.id), eq(songs.filePresent, true)));
    marked += 1;
  }
  return marked;
}

/**
 * Holds a PostgreSQL advisory lock while `run` runs, so two imports (API and CLI, or two API
 * calls) never race on the same files; a second one is refused at once.
 */
async function withImportLock<T>(db: Db, run: () => Promise<T>): Promise<T> {
  // drizzle keeps the pool it was made from; the Db type does not show it.
  const pool = (db as Db & { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return run();
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
      IMPORT_LOCK_KEY,
    ]);
    if (!rows[0]?.locked) {
      throw conflict('A library import is already running; try again when it has finished.');
    }
    try {
      return await run();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [IMPORT_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/**
 * Imports every audio file under `folder` (any existing folder: callers that must stay inside the
 * library roots check with `resolveFolderInRoots` first). Paths are stored absolute and real
 * (symbolic links of the folder resolved). Files are handled one at a time, in path order.
 */
export async function importLibraryFolder(
  db: Db,
  folder: string,
  options: ImportLibraryOptions = {},
): Promise<LibraryImportSummary> {
  const root = await resolveExistingFolder(path.resolve(folder));
  const hooks = options.hooks ?? [];
  return withImportLock(db, async () => {
    const { files, unreadable } = await listAudioFiles(root);
    const summary: LibraryImportSummary = {
      scanned: files.length,
      imported: 0,
      updated: 0,
      unchanged: 0,
      missing_marked: 0,
      failed: [...unreadable],
    };
    const seen = new Set<string>();
    for (const [index, file] of files.entries()) {
      seen.add(file);
      try {
        const outcome = await importFile(db, file);
        if (outcome.kind === 'unchanged') {
          summary.unchanged += 1;
        } else {
          summary[outcome.kind] += 1;
          for (const hook of hooks) {
            try {
              await hook(outcome.song);
            } catch (error) {
              summary.failed.push({
                file,
                reason: `${outcome.kind}, but a follow-up step failed: ${(error as Error).message}`,
              });
            }
          }
        }
      } catch (error) {
        if (error instanceof UnusableFile) summary.failed.push({ file, reason: error.message });
        else if ((error as NodeJS.ErrnoException).code === 'ENOENT')
          summary.failed.push({ file, reason: 'the file disappeared during the import' });
        else if (
          typeof (error as NodeJS.ErrnoException).code === 'string' &&
          (error as { syscall?: string }).syscall
        )
          summary.failed.push({ file, reason: `the file could not be read: ${(error as Error).message}` });
        else throw error;
      }
      options.onProgress?.({ done: index + 1, total: files.length, file });
    }
    summary.missing_marked = await markMissingFiles(db, root, seen);
    return summary;
  });
}

/** True when the import changed any song, so scores and download candidates need a recompute. */
export const hasImportChanges = (summary: LibraryImportSummary) =>
  summary.imported + summary.updated + summary.missing_marked > 0;
