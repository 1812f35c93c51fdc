import fs from 'node:fs';

/**
 * Facts about other processes of this machine, read from /proc: shared by the data folder's lock
 * (db/lock.ts), the embedded PostgreSQL's supervision and the device recorder's spool lock.
 */

/**
 * Start time of a process in clock ticks since boot, or null when it cannot be read (no /proc,
 * or no such process). Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces
 * and parentheses, so fields are counted from the last ')'.
 */
export function readProcessStartTime(pid: number): number | null {
  const fields = readStatFields(pid);
  const value = fields?.[19];
  return value === undefined ? null : Number(value);
}

/** Fields 3.. of /proc/<pid>/stat (index 0 is the state), or null. */
function readStatFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat
      .slice(stat.lastIndexOf(')') + 2)
      .trim()
      .split(' ');
  } catch {
    return null;
  }
}

/** True when a process with this pid exists and is not a zombie waiting to be reaped. */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = readStatFields(pid)?.[0];
  return state !== 'Z' && state !== 'X';
}
