import { describe, expect, it } from 'vitest';
import { findDatabaseError, withDeadlockRetry } from './client.js';

/** A PostgreSQL error as node-postgres raises it, wrapped the way Drizzle wraps it. */
function wrapped(code: string): Error {
  const driverError = Object.assign(new Error('deadlock detected'), { code, severity: 'ERROR' });
  return Object.assign(new Error('Failed query: insert ...'), { cause: driverError });
}

describe('findDatabaseError', () => {
  it("finds the driver's error behind Drizzle's wrapper, and nothing in other errors", () => {
    expect(findDatabaseError(wrapped('22021'))?.code).toBe('22021');
    expect(findDatabaseError(new Error('plain'))).toBeNull();
    // An errno code of the file system is not a SQLSTATE.
    expect(findDatabaseError(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBeNull();
  });
});

describe('withDeadlockRetry', () => {
  it('runs the transaction again when it was a deadlock victim or failed serialization', async () => {
    for (const code of ['40P01', '40001']) {
      let calls = 0;
      const result = await withDeadlockRetry(async () => {
        calls += 1;
        if (calls < 3) throw wrapped(code);
        return 'stored';
      });
      expect(result).toBe('stored');
      expect(calls).toBe(3);
    }
  });

  it('gives up after the last attempt, and never retries other errors', async () => {
    let calls = 0;
    await expect(
      withDeadlockRetry(async () => {
        calls += 1;
        throw wrapped('40P01');
      }, 2),
    ).rejects.toThrow('Failed query');
    expect(calls).toBe(2);
    calls = 0;
    await expect(
      withDeadlockRetry(async () => {
        calls += 1;
        throw wrapped('23505');
      }),
    ).rejects.toThrow();
    expect(calls).toBe(1);
  });
});
