import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isProcessAlive, readProcessStartTime } from '../processes.js';

/** What the lock file holds: enough to tell a live owner from a dead one whose pid was reused. */
export interface LockOwner {
  pid: number;
  /** Start time of the process in clock ticks since boot (/proc/<pid>/stat field 22); null off Linux. */
  startTime: number | null;
  hostname: string;
  /** ISO time the lock was taken. */
  startedAt: string;
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still ours. Idempotent. */
  release(): void;
}

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    const host = owner.hostname === os.hostname() ? '' : ` on ${owner.hostname}`;
    super(
      `Data folder ${dataDir} is in use by another WCS DJ Library process (pid ${owner.pid}${host}, started ${owner.startedAt}). Stop it first, or use another --data-dir.`,
    );
  }
}

export const LOCK_FILE_NAME = 'wcs.lock';

/** A takeover that has not finished within this time was abandoned by a crashed process. */
const STALE_TAKEOVER_MS = 10_000;

/** True when the owner recorded in a lock file is the process that is running under its pid now. */
export function isLockOwnerAlive(owner: LockOwner): boolean {
  if (!isProcessAlive(owner.pid)) return false;
  if (owner.startTime === null) return true;
  const startTime = readProcessStartTime(owner.pid);
  // A different start time means the pid was reused by an unrelated process.
  return startTime === null || startTime === owner.startTime;
}

function parseOwner(text: string): LockOwner | null {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid !== 'number') return null;
    return {
      pid: value.pid,
      startTime: typeof value.startTime === 'number' ? value.startTime : null,
      hostname: typeof value.hostname === 'string' ? value.hostname : 'unknown',
      startedAt: typeof value.startedAt === 'string' ? value.startedAt : 'at an unknown time',
    };
  } catch {
    return null;
  }
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Reads the lock file. A racing starter may have created it and not yet written it, so an
 * unreadable file is read again for a moment before it is judged corrupt.
 */
function readLock(file: string): { text: string; owner: LockOwner | null } | null {
  for (let attempt = 0; ; attempt++) {
    const text = readText(file);
    if (text === null) return null;
    const owner = parseOwner(text);
    if (owner || attempt >= 10) return { text, owner };
    sleep(20);
  }
}

/**
 * Removes a stale lock file, but only the one that was judged stale: another starter may have
 * taken it over meanwhile. A second exclusive file serialises takeovers, so two starters can
 * never both remove a lock and both create their own.
 */
function removeStaleLock(file: string, staleText: string): void {
  const guard = `${file}.takeover`;
  let fd: number;
  try {
    fd = fs.openSync(guard, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (Date.now() - fs.statSync(guard).mtimeMs > STALE_TAKEOVER_MS) fs.rmSync(guard, { force: true });
    } catch {
      // Removed by its owner meanwhile.
    }
    sleep(20);
    return;
  }
  try {
    if (readText(file) === staleText) fs.rmSync(file, { force: true });
  } finally {
    fs.closeSync(fd);
    fs.rmSync(guard, { force: true });
  }
}

/**
 * Takes the exclusive lock on a data folder, so two app processes never write the same embedded
 * database. A lock left by a dead process (crash, kill -9, power loss) is taken over; a live
 * owner makes this throw DataDirInUseError.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const dir = path.resolve(dataDir);
  const file = path.join(dir, LOCK_FILE_NAME);
  const me: LockOwner = {
    pid: process.pid,
    startTime: readProcessStartTime(process.pid),
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
  };
  const myText = `${JSON.stringify(me)}\n`;

  for (let attempt = 0; attempt < 50; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'wx', 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const current = readLock(file);
      if (current === null) continue; // released meanwhile
      if (current.owner && isLockOwnerAlive(current.owner)) throw new DataDirInUseError(dir, current.owner);
      removeStaleLock(file, current.text);
      continue;
    }
    try {
      fs.writeSync(fd, myText);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    let isReleased = false;
    return {
      file,
      release() {
        if (isReleased) return;
        isReleased = true;
        if (readText(file) === myText) fs.rmSync(file, { force: true });
      },
    };
  }
  throw new Error(`Could not take the lock ${file}: other processes keep taking it over.`);
}
