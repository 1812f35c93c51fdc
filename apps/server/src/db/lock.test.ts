import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProcessAlive, readProcessStartTime } from '../processes.js';
import {
  acquireDataDirLock,
  DataDirInUseError,
  isLockOwnerAlive,
  LOCK_FILE_NAME,
  type LockOwner,
} from './lock.js';

let dir: string;
let lockFile: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-lock-test-'));
  lockFile = path.join(dir, LOCK_FILE_NAME);
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync('true');
  return child.pid!;
}

function writeLock(owner: Partial<LockOwner>): void {
  fs.writeFileSync(
    lockFile,
    JSON.stringify({ hostname: os.hostname(), startedAt: '2020-01-01T00:00:00.000Z', ...owner }),
  );
}

function readLock(): LockOwner {
  return JSON.parse(fs.readFileSync(lockFile, 'utf8')) as LockOwner;
}

describe('readProcessStartTime / isProcessAlive', () => {
  it('reads the start time of a live process and nothing for a dead one', () => {
    expect(readProcessStartTime(process.pid)).toBeGreaterThan(0);
    expect(readProcessStartTime(deadPid())).toBeNull();
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(deadPid())).toBe(false);
    expect(isProcessAlive(0)).toBe(false);
    expect(isProcessAlive(-1)).toBe(false);
  });

  it('tells a live owner from a reused pid by its start time', () => {
    const startTime = readProcessStartTime(process.pid);
    const owner = { pid: process.pid, startTime, hostname: os.hostname(), startedAt: 'now' };
    expect(isLockOwnerAlive(owner)).toBe(true);
    expect(isLockOwnerAlive({ ...owner, startTime: (startTime ?? 0) + 1 })).toBe(false);
    expect(isLockOwnerAlive({ ...owner, pid: deadPid() })).toBe(false);
  });
});

describe('acquireDataDirLock', () => {
  it('creates the lock file with pid, start time, hostname and start date, and removes it on release', () => {
    const lock = acquireDataDirLock(dir);
    expect(lock.file).toBe(lockFile);
    const owner = readLock();
    expect(owner).toEqual({
      pid: process.pid,
      startTime: readProcessStartTime(process.pid),
      hostname: os.hostname(),
      startedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    lock.release();
    expect(fs.existsSync(lockFile)).toBe(false);
    lock.release(); // idempotent
  });

  it('refuses a second lock while the owner is alive, with a message that names it', () => {
    const lock = acquireDataDirLock(dir);
    const { startedAt } = readLock();
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirInUseError);
    expect(() => acquireDataDirLock(dir)).toThrow(
      `Data folder ${dir} is in use by another WCS DJ Library process (pid ${process.pid}, started ${startedAt}). Stop it first, or use another --data-dir.`,
    );
    lock.release();
    acquireDataDirLock(dir).release();
  });

  it('takes over the lock of a dead process', () => {
    writeLock({ pid: deadPid(), startTime: 1 });
    const lock = acquireDataDirLock(dir);
    expect(readLock().pid).toBe(process.pid);
    lock.release();
  });

  it('takes over the lock of a pid reused by another process (different start time)', () => {
    writeLock({ pid: process.pid, startTime: (readProcessStartTime(process.pid) ?? 0) + 1 });
    const lock = acquireDataDirLock(dir);
    expect(readLock().startTime).toBe(readProcessStartTime(process.pid));
    lock.release();
  });

  it('takes over an empty or corrupt lock file (a crash while it was written)', () => {
    fs.writeFileSync(lockFile, '');
    acquireDataDirLock(dir).release();
    fs.writeFileSync(lockFile, '{"pid": 12');
    acquireDataDirLock(dir).release();
  });

  it('clears a takeover guard abandoned by a crashed process', () => {
    writeLock({ pid: deadPid(), startTime: 1 });
    const guard = `${lockFile}.takeover`;
    fs.writeFileSync(guard, '');
    const longAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(guard, longAgo, longAgo);
    const lock = acquireDataDirLock(dir);
    expect(readLock().pid).toBe(process.pid);
    expect(fs.existsSync(guard)).toBe(false);
    lock.release();
  });

  it('leaves a lock alone on release once another process has taken it over', () => {
    const lock = acquireDataDirLock(dir);
    writeLock({ pid: deadPid(), startTime: 1 });
    lock.release();
    expect(fs.existsSync(lockFile)).toBe(true);
  });
});
