import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { LibraryImportResult } from '@wcs/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../../db/client.js';
import { songs } from '../../db/schema.js';
import { songSearchKey } from '../../text.js';
import { conflict } from '../errors.js';
import { mergeSources, sourcesOf } from '../metadata/sources.js';
import { mapGenre } from './genre-map.js';
import { listAudioFiles, resolveExistingFolder } from './library-folders.js';
import { type AudioFileTags, readAudioFileTags, UnusableFile } from './library-tags.js';

/**
 * Library import: every audio file under a folder becomes or updates a song. A song's identity is
 * its content (sha256 of the file): a moved or renamed file updates the song's path, a re-import
 * of an unchanged file changes nothing, and songs whose file under the folder has gone are marked
 * file_present = false. Tags are read with music-metadata; unreadable files are listed and skipped.
 */

/** The artist of a file whose tags name none. */
export const UNKNOWN_ARTIST = 'Unknown Artist';

/** Any fixed number: the key of the PostgreSQL advisory lock that lets one import run at a time. */
const IMPORT_LOCK_KEY = 0x5743_534c_4942;

export type LibraryImportSummary = LibraryImportResult;

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
// Songs

type SongRow = typeof songs.$inferSelect;
type FileOutcome = { kind: 'unchanged' } | { kind: 'imported' | 'updated'; song: ImportedSong };

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

async function existsOnDisk(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

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
        fieldSources: mergeSources(
          sourcesOf(
            {
              title: tags.title,
              artist: tags.artist,
              album: tags.album,
              genre,
              release_date: tags.releaseDate,
              duration_ms: tags.durationMs,
            },
            'tags',
          ),
        ),
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
          // Only what the tags filled; the song's own values keep their sources.
          fieldSources: mergeSources(
            sourcesOf(
              {
                album: fileless.album === null ? tags.album : null,
                genre: fileless.genre === null ? genre : null,
                release_date: fileless.releaseDate === null ? tags.releaseDate : null,
                duration_ms: tags.durationMs,
              },
              'tags',
            ),
          ),
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
      fieldSources: sourcesOf(
        {
          title,
          artist,
          album: tags.album,
          genre,
          release_date: tags.releaseDate,
          duration_ms: tags.durationMs,
        },
        'tags',
      ),
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

/** What `importOneFile` did with a file. */
export type OneFileOutcome =
  | { kind: 'unchanged'; songId: number }
  | { kind: 'imported' | 'updated'; song: ImportedSong; failures: string[] };

/**
 * Imports one file (the download providers' acquired files, services/downloads/): into the song
 * `attachTo` when given (a song known by its plays, matched to the file by the caller), otherwise
 * as the folder import would (a new song, or a fileless song of the same title and artist). The
 * same audio already in the library is refused (UnusableFile). The hooks run as for a folder
 * import; their failures are returned, not thrown (the song has its file either way).
 */
export async function importOneFile(
  db: Db,
  file: string,
  options: { attachTo?: number; hooks?: readonly SongImportedHook[] } = {},
): Promise<OneFileOutcome> {
  let outcome: Exclude<FileOutcome, { kind: 'unchanged' }>;
  if (options.attachTo === undefined) {
    const found = await importFile(db, file);
    if (found.kind === 'unchanged') {
      const row = await songAtPath(db, file);
      return { kind: 'unchanged', songId: row!.id };
    }
    outcome = found;
  } else {
    outcome = await attachFile(db, file, options.attachTo);
  }
  const failures: string[] = [];
  for (const hook of options.hooks ?? []) {
    try {
      await hook(outcome.song);
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
  return { ...outcome, failures };
}

/** Gives song `songId` (which has no file) the file: its tags fill only what the song lacks. */
async function attachFile(db: Db, file: string, songId: number): Promise<FileOutcome & { kind: 'updated' }> {
  const stat = await fs.stat(file);
  if (stat.size === 0) throw new UnusableFile('the file is empty');
  const hash = await sha256OfFile(file);
  const byHash = await songWithHash(db, hash);
  if (byHash && byHash.id !== songId) {
    throw new UnusableFile(
      `the same audio is already song ${byHash.id}, "${byHash.title}" by ${byHash.artist}`,
    );
  }
  const [song] = await db.select().from(songs).where(eq(songs.id, songId));
  if (!song) throw new UnusableFile(`song ${songId} no longer exists`);
  if (song.filePresent && song.filePath !== file) {
    throw new UnusableFile(`"${song.title}" by ${song.artist} already has its file (${song.filePath})`);
  }
  const tags = await readAudioFileTags(file);
  await db
    .update(songs)
    .set({
      filePath: file,
      filePresent: true,
      contentHash: hash,
      fileSizeBytes: stat.size,
      durationMs: tags.durationMs ?? song.durationMs,
      tags: tagsJson(tags),
      album: song.album ?? tags.album,
      genre: song.genre ?? mapGenre(tags.genres),
      releaseDate: song.releaseDate ?? tags.releaseDate,
      // Only what the tags filled; the song's own values keep their sources.
      fieldSources: mergeSources(
        sourcesOf(
          {
            album: song.album === null ? tags.album : null,
            genre: song.genre === null ? mapGenre(tags.genres) : null,
            release_date: song.releaseDate === null ? tags.releaseDate : null,
            duration_ms: tags.durationMs,
          },
          'tags',
        ),
      ),
      updatedAt: new Date(),
    })
    .where(eq(songs.id, songId));
  return { kind: 'updated', song: { songId, filePath: file, contentHash: hash, change: 'attached' } };
}

/** True when the import changed any song, so scores and download candidates need a recompute. */
export const hasImportChanges = (summary: LibraryImportSummary) =>
  summary.imported + summary.updated + summary.missing_marked > 0;
