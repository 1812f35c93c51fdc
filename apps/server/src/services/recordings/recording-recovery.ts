import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { recordingChunks } from '../../db/schema.js';
import { LocalStorage, type Storage, type StoredObject } from '../../storage/index.js';
import {
  CHUNK_FILE_NAME,
  chunkRelativePath,
  fsyncDir,
  INCOMING_DIR,
  insideRoot,
  LOST_AND_FOUND_DIR,
} from './recording-files.js';

/**
 * What a start finds in the recordings store and does about it (docs/operations.md, "What is
 * cleaned at start"). Runs before the server takes uploads, under the start-up lock, so no upload
 * of this process is in flight. `recoverStoredRecordings` picks the backend's way: the local
 * folder's (`recoverRecordingFiles`, below) or object storage's (`recoverObjects`, the same rules
 * over listed objects).
 *
 * 1. Chunk files still at the old place, <recordings>/<session_id>/..., move to <recordings>/<id>/
 *    and their rows follow (a session id once named folders; it is only a label now).
 * 2. Half-received uploads (.incoming/*.part) are removed: no row and no acknowledgement refers
 *    to them, and nobody can finish them.
 * 3. A chunk file that no row claims is re-attached when a row of the same recording and chunk
 *    number, with the same hash, has lost its file; it is removed when that row's file is present
 *    and holds the same bytes (a retry stored it again after a crash); otherwise it moves to
 *    <recordings>/lost+found/<start time>/, never deleted: it may be the only copy of a night. A
 *    file set aside there by an earlier start is removed once a retry has stored the same chunk.
 * 4. Rows whose file is missing are counted (their chunk fails recognition with a clear reason).
 */
export interface RecoveryReport {
  /** Chunk files moved from a session-id folder to their recording's folder. */
  migrated: number;
  /** Partial upload files removed. */
  partialRemoved: number;
  /** Orphan chunk files given back to the row that had lost them. */
  reattached: number;
  /**
   * Orphan files byte for byte the same as a stored chunk of the same recording and number (a kill
   * between rename and commit, then the retry stored the same bytes): removed, nothing is lost.
   */
  duplicatesRemoved: number;
  /** Files moved to lost+found (none claims them). */
  lostAndFound: number;
  /** Where this start's lost+found files went; null when there were none. */
  lostAndFoundDir: string | null;
  /** Chunk rows whose file is not on disk. */
  missingFiles: number;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

const exists = (file: string) =>
  fs.lstat(file).then(
    (stat) => stat.isFile(),
    () => false,
  );

function insideRootOrNull(root: string, relativePath: string): string | null {
  try {
    return insideRoot(root, relativePath);
  } catch {
    return null;
  }
}

async function migrateSessionFolders(db: Db, root: string): Promise<number> {
  const rows = await db
    .select({
      id: recordingChunks.id,
      recordingId: recordingChunks.recordingId,
      chunkNumber: recordingChunks.chunkNumber,
      filePath: recordingChunks.filePath,
      sha256: recordingChunks.sha256,
    })
    .from(recordingChunks)
    .where(sql`not starts_with(${recordingChunks.filePath}, ${recordingChunks.recordingId}::text || '/')`);
  let moved = 0;
  const touched = new Set<string>();
  for (const row of rows) {
    const match = CHUNK_FILE_NAME.exec(path.basename(row.filePath));
    if (!match) continue; // not a name this server wrote: left for the operator, counted as missing
    const target = chunkRelativePath(row.recordingId, row.chunkNumber, row.sha256, match[3] as never);
    // Old paths were written by earlier versions of this server from a session id; a session id
    // of '.' or '..' put a file in the recordings folder itself or in its parent.
    const from = path.resolve(root, row.filePath);
    const dataDir = path.dirname(path.resolve(root));
    const to = insideRoot(root, target);
    if (from.startsWith(`${dataDir}${path.sep}`) && (await exists(from))) {
      await fs.mkdir(path.dirname(to), { recursive: true });
      await fs.rename(from, to);
      touched.add(path.dirname(to));
      moved += 1;
    }
    // Without a file the row points at the new place all the same; step 3 may find it there.
    await db.update(recordingChunks).set({ filePath: target }).where(eq(recordingChunks.id, row.id));
  }
  for (const dir of touched) await fsyncDir(dir);
  return moved;
}

/** Whether a file was last written before `before` (a file that vanished meanwhile is not). */
const writtenBefore = (file: string, before: number) =>
  fs.lstat(file).then(
    (stat) => stat.mtimeMs < before,
    () => false,
  );

async function removePartialUploads(root: string, before: number): Promise<number> {
  const dir = path.join(root, INCOMING_DIR);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.part') || !(await writtenBefore(path.join(dir, name), before))) continue;
    await fs.rm(path.join(dir, name), { force: true });
    removed += 1;
  }
  return removed;
}

interface Orphans {
  reattached: number;
  /** Claimed files still missing once re-attachments are done. */
  missing: number;
  duplicates: number;
  lost: number;
  lostDir: string | null;
}

async function settleOrphans(db: Db, root: string, startedAt: Date, before: number): Promise<Orphans> {
  const claimed = new Set(
    (await db.select({ filePath: recordingChunks.filePath }).from(recordingChunks)).map(
      (row) => row.filePath,
    ),
  );
  const lostDir = path.join(root, LOST_AND_FOUND_DIR, startedAt.toISOString().replaceAll(':', '-'));
  const result: Orphans = { reattached: 0, missing: 0, duplicates: 0, lost: 0, lostDir: null };
  // Which claimed files are really there, so a re-attachment never replaces a present file.
  const claimedFileExists = new Set<string>();
  for (const file of claimed) {
    const absolute = insideRootOrNull(root, file);
    if (absolute && (await exists(absolute))) claimedFileExists.add(file);
  }

  const moveToLost = async (relative: string) => {
    const to = path.join(lostDir, relative);
    await fs.mkdir(path.dirname(to), { recursive: true });
    await fs.rename(insideRoot(root, relative), to);
    result.lost += 1;
    result.lostDir = lostDir;
  };

  /** The stored row of the same recording and chunk number, if the name is a chunk's. */
  const rowOf = async (folder: string, name: string) => {
    const id = Number(folder);
    const match = CHUNK_FILE_NAME.exec(name);
    if (!match || folder !== String(id) || !Number.isSafeInteger(id) || id <= 0) return null;
    const [row] = await db
      .select()
      .from(recordingChunks)
      .where(and(eq(recordingChunks.recordingId, id), eq(recordingChunks.chunkNumber, Number(match[1]))));
    return row?.sha256.startsWith(match[2]!) ? row : null;
  };

  /**
   * A stored chunk with the same number and bytes, in this recording or (when the crash came before
   * the recording's own row was committed, and the retry created it anew) in another.
   */
  const storedCopyOf = async (folder: string, name: string, sha256: string) => {
    const match = CHUNK_FILE_NAME.exec(name);
    if (!match) return null;
    const rows = await db
      .select({ filePath: recordingChunks.filePath })
      .from(recordingChunks)
      .where(and(eq(recordingChunks.sha256, sha256), eq(recordingChunks.chunkNumber, Number(match[1]))));
    return (
      rows.find((row) => claimedFileExists.has(row.filePath) && row.filePath !== path.join(folder, name)) ??
      null
    );
  };

  const removeIfDuplicate = async (folder: string, name: string): Promise<boolean> => {
    if (!CHUNK_FILE_NAME.test(name)) return false;
    const file = insideRoot(root, path.join(folder, name));
    if (!(await storedCopyOf(folder, name, await sha256Of(file)))) return false;
    await fs.rm(file);
    result.duplicates += 1;
    return true;
  };

  /** Gives a file back to the row of its chunk whose own file is gone, if it holds that chunk's bytes. */
  const reattach = async (folder: string, name: string): Promise<boolean> => {
    const row = await rowOf(folder, name);
    if (!row || claimedFileExists.has(row.filePath)) return false;
    const relative = path.join(folder, name);
    if ((await sha256Of(insideRoot(root, relative))) !== row.sha256) return false;
    await db.update(recordingChunks).set({ filePath: relative }).where(eq(recordingChunks.id, row.id));
    claimed.delete(row.filePath);
    claimed.add(relative);
    claimedFileExists.add(relative);
    result.reattached += 1;
    return true;
  };

  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.name === INCOMING_DIR || entry.name === LOST_AND_FOUND_DIR) continue;
    if (entry.isFile()) {
      if (await writtenBefore(path.join(root, entry.name), before)) await moveToLost(entry.name);
      continue;
    }
    if (!entry.isDirectory()) continue; // symlinks and the like: not ours, never followed
    const folder = entry.name;
    const inner = await fs.readdir(path.join(root, folder), { withFileTypes: true });
    for (const file of inner) {
      if (!file.isFile()) continue;
      const relative = path.join(folder, file.name);
      if (claimed.has(relative)) continue;
      // Another process sharing the folder may be between its rename and its commit.
      if (!(await writtenBefore(path.join(root, relative), before))) continue;
      if (await reattach(folder, file.name)) continue;
      if (await removeIfDuplicate(folder, file.name)) continue;
      await moveToLost(relative);
    }
    // Only an empty folder is removed (rmdir is never recursive).
    await fs.rmdir(path.join(root, folder)).catch(() => {});
  }
  // Files an earlier start set aside whose chunk a retry has stored since (the retry comes after
  // the restart, so at that start the file was still the only copy).
  const lostRoot = path.join(root, LOST_AND_FOUND_DIR);
  const setAside = await fs.readdir(lostRoot, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of setAside) {
    if (!entry.isFile() || !CHUNK_FILE_NAME.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (!(await storedCopyOf('', entry.name, await sha256Of(file)))) continue;
    await fs.rm(file);
    result.duplicates += 1;
    // Its now empty folders go too (rmdir is never recursive; a folder still holding files stays).
    for (let dir = entry.parentPath; dir.startsWith(`${lostRoot}${path.sep}`); dir = path.dirname(dir)) {
      if (
        !(await fs.rmdir(dir).then(
          () => true,
          () => false,
        ))
      )
        break;
    }
  }
  // Each claimed file was looked at once above; what is still not there is missing.
  result.missing = [...claimed].filter((file) => !claimedFileExists.has(file)).length;
  if (result.lostDir) await fsyncDir(root);
  return result;
}

export interface RecoveryOptions {
  /** Names this start's lost+found folder (default: now). */
  startedAt?: Date;
  /**
   * Leave files written in the last this many milliseconds alone (default 0: every file). A
   * process that holds the data folder's lock is alone and settles everything; processes on a
   * hosted PostgreSQL may share the folder, and one of them may be mid-upload.
   */
  spareRecentMs?: number;
}

export async function recoverRecordingFiles(
  db: Db,
  root: string,
  options: RecoveryOptions = {},
): Promise<RecoveryReport> {
  const startedAt = options.startedAt ?? new Date();
  const before = startedAt.getTime() - (options.spareRecentMs ?? 0) + 1;
  await fs.mkdir(root, { recursive: true });
  const migrated = await migrateSessionFolders(db, root);
  const partialRemoved = await removePartialUploads(root, before);
  const orphans = await settleOrphans(db, root, startedAt, before);
  return {
    migrated,
    partialRemoved,
    reattached: orphans.reattached,
    duplicatesRemoved: orphans.duplicates,
    lostAndFound: orphans.lost,
    lostAndFoundDir: orphans.lostDir,
    missingFiles: orphans.missing,
  };
}

/** One line for the start-up log, or null when there was nothing to do. */
export function describeRecovery(report: RecoveryReport, where = 'Recordings folder'): string | null {
  const parts = [
    report.migrated > 0 ? `${report.migrated} chunk file(s) moved to their recording's folder` : null,
    report.partialRemoved > 0 ? `${report.partialRemoved} unfinished upload file(s) removed` : null,
    report.reattached > 0 ? `${report.reattached} chunk file(s) re-attached to their rows` : null,
    report.duplicatesRemoved > 0
      ? `${report.duplicatesRemoved} second copy(ies) of stored chunks removed (a retry stored the same bytes)`
      : null,
    report.lostAndFound > 0
      ? `${report.lostAndFound} file(s) no recording claims moved to ${report.lostAndFoundDir}`
      : null,
    report.missingFiles > 0 ? `${report.missingFiles} chunk(s) whose file is missing` : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? `${where}: ${parts.join('; ')}.` : null;
}

/** Files of the staging folder on this machine: received uploads (`.part`) and copies for ffmpeg. */
async function removeStagedFiles(dir: string, before: number): Promise<number> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.part') && !name.includes('.download-')) continue;
    if (!(await writtenBefore(path.join(dir, name), before))) continue;
    await fs.rm(path.join(dir, name), { force: true });
    removed += 1;
  }
  return removed;
}

async function sha256OfObject(storage: Storage, key: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(await storage.get(key), hash);
  return hash.digest('hex');
}

/**
 * The recovery of object storage: the rules of the local folder's over listed objects. There is no
 * older layout to migrate; partial uploads are files of the staging folder on this machine (an
 * interrupted multipart upload leaves no object, only parts, which the bucket's lifecycle rule
 * removes: docs/operations.md); an object is "moved" to lost+found by a copy, then a delete.
 */
export async function recoverObjects(
  db: Db,
  storage: Storage,
  options: RecoveryOptions = {},
): Promise<RecoveryReport> {
  const startedAt = options.startedAt ?? new Date();
  const before = startedAt.getTime() - (options.spareRecentMs ?? 0) + 1;
  const partialRemoved = await removeStagedFiles(storage.stagingDir, before);
  const rows = await db
    .select({
      id: recordingChunks.id,
      recordingId: recordingChunks.recordingId,
      chunkNumber: recordingChunks.chunkNumber,
      filePath: recordingChunks.filePath,
      sha256: recordingChunks.sha256,
    })
    .from(recordingChunks);
  const claimed = new Set(rows.map((row) => row.filePath));
  const lostPrefix = `${LOST_AND_FOUND_DIR}/${startedAt.toISOString().replaceAll(':', '-')}/`;
  const objects: StoredObject[] = [];
  const setAside: StoredObject[] = [];
  for await (const object of storage.list('')) {
    (object.key.startsWith(`${LOST_AND_FOUND_DIR}/`) ? setAside : objects).push(object);
  }
  const present = new Set(objects.filter((object) => claimed.has(object.key)).map((object) => object.key));
  const report: RecoveryReport = {
    migrated: 0,
    partialRemoved,
    reattached: 0,
    duplicatesRemoved: 0,
    lostAndFound: 0,
    lostAndFoundDir: null,
    missingFiles: 0,
  };

  /** A stored chunk with the same number and bytes whose own object is present. */
  const storedCopyOf = (key: string, name: string, sha256: string) => {
    const match = CHUNK_FILE_NAME.exec(name);
    return match
      ? rows.find(
          (row) =>
            row.sha256 === sha256 &&
            row.chunkNumber === Number(match[1]) &&
            row.filePath !== key &&
            present.has(row.filePath),
        )
      : undefined;
  };

  for (const object of objects) {
    if (claimed.has(object.key)) continue;
    // Another process may be between its put and its commit.
    if (object.modifiedAt.getTime() >= before) continue;
    const [folder, name, ...deeper] = object.key.split('/');
    const isChunkName = name !== undefined && deeper.length === 0 && CHUNK_FILE_NAME.test(name);
    if (isChunkName) {
      const match = CHUNK_FILE_NAME.exec(name)!;
      const sha256 = await sha256OfObject(storage, object.key);
      // Re-attached: the row of this recording and chunk whose own object is gone, same bytes.
      const row = rows.find(
        (candidate) =>
          String(candidate.recordingId) === folder &&
          candidate.chunkNumber === Number(match[1]) &&
          candidate.sha256 === sha256 &&
          !present.has(candidate.filePath),
      );
      if (row) {
        await db.update(recordingChunks).set({ filePath: object.key }).where(eq(recordingChunks.id, row.id));
        claimed.delete(row.filePath);
        row.filePath = object.key;
        claimed.add(object.key);
        present.add(object.key);
        report.reattached += 1;
        continue;
      }
      if (storedCopyOf(object.key, name, sha256)) {
        await storage.delete(object.key);
        report.duplicatesRemoved += 1;
        continue;
      }
    }
    // Never deleted: copied aside, then removed from its place.
    await storage.put(`${lostPrefix}${object.key}`, await storage.get(object.key));
    await storage.delete(object.key);
    report.lostAndFound += 1;
    report.lostAndFoundDir = `${storage.location}${lostPrefix}`;
  }
  // Objects an earlier start set aside whose chunk a retry has stored since.
  for (const object of setAside) {
    const name = object.key.slice(object.key.lastIndexOf('/') + 1);
    if (!CHUNK_FILE_NAME.test(name)) continue;
    if (!storedCopyOf(object.key, name, await sha256OfObject(storage, object.key))) continue;
    await storage.delete(object.key);
    report.duplicatesRemoved += 1;
  }
  report.missingFiles = [...claimed].filter((key) => !present.has(key)).length;
  return report;
}

/** What a start settles in the recordings store, whichever its backend. */
export function recoverStoredRecordings(
  db: Db,
  storage: Storage,
  options: RecoveryOptions = {},
): Promise<RecoveryReport> {
  return storage instanceof LocalStorage
    ? recoverRecordingFiles(db, storage.root, options)
    : recoverObjects(db, storage, options);
}
