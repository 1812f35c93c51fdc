import { describe, expect, it } from 'vitest';
import { startPeriodicFold } from './periodic-fold.js';

/** Waits for `done`, however long a loaded machine takes (the test's own timeout bounds it). */
const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('startPeriodicFold', () => {
  it('folds only when needed, logs a failed fold and tries again, and stops after the fold under way', async () => {
    const logged: string[] = [];
    let pending = 0;
    let folds = 0;
    let failNext = true;
    const stop = startPeriodicFold({
      name: 'Test summary',
      intervalMs: 5,
      log: (message) => logged.push(message),
      needed: async () => pending > 0,
      fold: async () => {
        folds += 1;
        if (failNext) {
          failNext = false;
          throw new Error('lock timeout');
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
        pending = 0;
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(folds).toBe(0);
    pending = 3;
    await until(() => folds >= 2);
    await stop();
    expect(pending).toBe(0);
    expect(logged).toEqual(['Test summary fold failed (retried in 5 ms): lock timeout']);
    const after = folds;
    pending = 1;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(folds).toBe(after);
  });
});
