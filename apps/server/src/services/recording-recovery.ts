import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { recordingChunks } from '../db/schema.js';
import {
  CHUNK_FILE_NAME,
  chunkRelativePath,
  fsyncDir,
  INCOMING_DIR,
  insideRoot,
  LOST_AND_FOUND_DIR,
  recordingFolderName,
} from './recording-files.js';

/**
 * What a start finds in the recordings folder and does about it (docs/operations.md, "What is
 * cleaned at start"). Runs before the server takes uploads, under the data folder's lock, so no
 * upload of this process is in flight.
 *
 * 1. Chunk files still at the old place, <recordings>/<session_id>/..., move to <recordings>/<id>/
 *    and their rows follow (a session id once named folders; it is only a label now).
 * 2. Half-received uploads (.incoming/*.part) are removed: no row and no acknowledgement refers
 *    to them, and nobody can finish them.
 * 3. A chunk file that no row claims is re-attached when a row of the same recording and chunk
 *    number, with the same hash, has lost its file; otherwise it moves to
 *    <recordings>/lost+found/<start time>/, never deleted: it may be the only copy of a night.
 * 4. Rows whose file is missing are counted (their chunk fails recognition with a clear reason).
 */
export interface RecoveryReport {
  /** Chunk files moved from a session-id folder to their recording's folder. */
  migrated: number;
  /** Partial upload files removed. */
  partialRemoved: number;
  /** Orphan chunk files given back to the row that had lost them. */
  reattached: number;
  /** Files moved to lost+found (none claims them). */
  lostAndFound: number;
  /** Where this start's lost+found files went; null when there were none. */
  lostAndFoundDir: string | null;
  /** Chunk rows whose file is not on disk. */
  missingFiles: number;
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
  const result: Orphans = { reattached: 0, lost: 0, lostDir: null };
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

  const reattach = async (folder: string, name: string): Promise<boolean> => {
    const id = Number(folder);
    const match = CHUNK_FILE_NAME.exec(name);
    if (!match || folder !== String(id) || !Number.isSafeInteger(id) || id <= 0) return false;
    const [row] = await db
      .select()
      .from(recordingChunks)
      .where(and(eq(recordingChunks.recordingId, id), eq(recordingChunks.chunkNumber, Number(match[1]))));
    if (!row?.sha256.startsWith(match[2]!) || claimedFileExists.has(row.filePath)) return false;
    const relative = path.join(recordingFolderName(id), name);
    await db.update(recordingChunks).set({ filePath: relative }).where(eq(recordingChunks.id, row.id));
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
      await moveToLost(relative);
    }
    // Only an empty folder is removed (rmdir is never recursive).
    await fs.rmdir(path.join(root, folder)).catch(() => {});
  }
  if (result.lostDir) await fsyncDir(root);
  return result;
}

async function countMissing(db: Db, root: string): Promise<number> {
  const rows = await db.select({ filePath: recordingChunks.filePath }).from(recordingChunks);
  let missing = 0;
  for (const row of rows) {
    const file = insideRootOrNull(root, row.filePath);
    if (!file || !(await exists(file))) missing += 1;
  }
  return missing;
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
  const missingFiles = await countMissing(db, root);
  return {
    migrated,
    partialRemoved,
    reattached: orphans.reattached,
    lostAndFound: orphans.lost,
    lostAndFoundDir: orphans.lostDir,
    missingFiles,
  };
}

/** One line for the start-up log, or null when there was nothing to do. */
export function describeRecovery(report: RecoveryReport): string | null {
  const parts = [
    report.migrated > 0 ? `${report.migrated} chunk file(s) moved to their recording's folder` : null,
    report.partialRemoved > 0 ? `${report.partialRemoved} unfinished upload file(s) removed` : null,
    report.reattached > 0 ? `${report.reattached} chunk file(s) re-attached to their rows` : null,
    report.lostAndFound > 0
      ? `${report.lostAndFound} file(s) no recording claims moved to ${report.lostAndFoundDir}`
      : null,
    report.missingFiles > 0 ? `${report.missingFiles} chunk(s) whose file is missing` : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? `Recordings folder: ${parts.join('; ')}.` : null;
}
