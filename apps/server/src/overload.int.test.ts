import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/harness.js';

/**
 * Load shedding (app.ts, @fastify/under-pressure): while the event loop is held past
 * WCS_MAX_EVENT_LOOP_DELAY_MS, calls are refused with 503, a Retry-After and a message a person can
 * act on, and served again once it runs freely. The guard takes, each second, the mean delay of
 * the loop's 10 ms ticks less 10 ms. The loop is held here by 100 ms tasks back to back, as
 * requests that compute for a tenth of a second each would hold it: every tick then waits about
 * 100 ms, a mean of 100 ms or more (more on a loaded machine, never less), over the 50 ms bound
 * set here. (One long block does not do: Node's delay histogram does not record it as one tick.)
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { WCS_MAX_EVENT_LOOP_DELAY_MS: '50' } });
});
afterAll(async () => {
  await t?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const events = () => t.injectAs('viewer', { method: 'GET', url: '/api/events/' });

/** Polls until a call is served (the guard's next samples see a free loop). */
async function servedWithin(ms: number): Promise<number> {
  const until = Date.now() + ms;
  for (;;) {
    const { statusCode } = await events();
    if (statusCode !== 503 || Date.now() > until) return statusCode;
    await sleep(250);
  }
}

/** Holds the event loop for `ms` with tasks of 100 ms of work each; resolves when done. */
function holdLoop(ms: number): Promise<void> {
  const until = Date.now() + ms;
  return new Promise((resolve) => {
    const task = () => {
      const busyUntil = Date.now() + 100;
      while (Date.now() < busyUntil) {
        // busy: nothing else runs meanwhile
      }
      if (Date.now() < until) setImmediate(task);
      else resolve();
    };
    setImmediate(task);
  });
}

describe('load shedding', () => {
  it('refuses calls with 503 while the event loop is held, then serves them again', async () => {
    expect(await servedWithin(30_000)).toBe(200);

    // Calls go on between the tasks for 5 s: at least three of the guard's whole seconds.
    const held = holdLoop(5_000);
    let holding = true;
    void held.then(() => {
      holding = false;
    });
    let refused = await events();
    while (refused.statusCode !== 503 && holding) refused = await events();
    await held;
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('10');
    expect(refused.json().message).toBe(
      'The server is overloaded (busy event loop); try again in 10 seconds',
    );

    expect(await servedWithin(30_000)).toBe(200);
  }, 90_000);
});
