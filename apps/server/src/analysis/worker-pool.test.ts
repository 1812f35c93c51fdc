import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerPool, WorkerCrashError, type WorkerPool, WorkerTaskError } from './worker-pool.js';

/**
 * The pool against real threads running a small plain-JS module that speaks the protocol of
 * worker-protocol.ts and can sleep, fail, crash or hang on request.
 */
type Task =
  | { kind: 'sleep'; ms: number }
  | { kind: 'throw' }
  | { kind: 'exit' }
  | { kind: 'uncaught' }
  | { kind: 'hang' };
interface Result {
  threadId: number;
  startedAt: number;
  endedAt: number;
}

const FIXTURE = `
import { parentPort, threadId } from 'node:worker_threads';
parentPort.on('message', async ({ id, task }) => {
  const startedAt = Date.now();
  if (task.kind === 'exit') process.exit(3);
  if (task.kind === 'uncaught') setTimeout(() => { throw new Error('boom in the thread'); });
  if (task.kind === 'hang') { const until = Date.now() + 60000; while (Date.now() < until) {} }
  if (task.kind === 'throw') {
    parentPort.postMessage({ id, ok: false, error: 'the task failed on purpose', name: 'DecodeError' });
    return;
  }
  if (task.kind === 'sleep') await new Promise((resolve) => setTimeout(resolve, task.ms));
  if (task.kind === 'sleep') parentPort.postMessage({ id, ok: true, result: { threadId, startedAt, endedAt: Date.now() } });
});
`;

let dir: string;
let moduleUrl: URL;
let pool: WorkerPool<Task, Result> | undefined;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-pool-'));
  const file = path.join(dir, 'fixture-worker.mjs');
  await fs.writeFile(file, FIXTURE);
  moduleUrl = pathToFileURL(file);
});

afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** Most tasks running at the same moment, from their start and end times. */
function maxOverlap(results: readonly Result[]): number {
  return Math.max(
    ...results.map(
      (a) => results.filter((b) => b.startedAt <= a.startedAt && a.startedAt < b.endedAt).length,
    ),
  );
}

describe('createWorkerPool', () => {
  it('runs tasks in parallel on up to `size` threads, never more', async () => {
    pool = createWorkerPool<Task, Result>({ moduleUrl, size: 2 });
    // Both threads started first: a thread's start (a V8 isolate and the module) can take longer
    // on a loaded machine than the other thread takes for the whole queue, and then no two
    // tasks overlap. Started, both take their tasks at once.
    await Promise.all([pool.run({ kind: 'sleep', ms: 1 }), pool.run({ kind: 'sleep', ms: 1 })]);
    expect(pool.stats().threads).toBe(2);
    const results = await Promise.all(Array.from({ length: 6 }, () => pool!.run({ kind: 'sleep', ms: 150 })));
    expect(new Set(results.map((result) => result.threadId)).size).toBe(2);
    expect(maxOverlap(results)).toBe(2);
    expect(pool.stats()).toMatchObject({ threads: 2, running: 0, queued: 0, crashes: 0 });
  });

  it('passes a task error on, and the thread lives on for the next task', async () => {
    pool = createWorkerPool<Task, Result>({ moduleUrl, size: 1 });
    const first = await pool.run({ kind: 'sleep', ms: 1 });
    const error = await pool.run({ kind: 'throw' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WorkerTaskError);
    expect(error).toMatchObject({ message: 'the task failed on purpose', originalName: 'DecodeError' });
    const after = await pool.run({ kind: 'sleep', ms: 1 });
    expect(after.threadId).toBe(first.threadId);
    expect(pool.stats().crashes).toBe(0);
  });

  it('fails the task of a thread that exits, and replaces the thread for the queued tasks', async () => {
    pool = createWorkerPool<Task, Result>({ moduleUrl, size: 1, name: 'analysis' });
    const first = await pool.run({ kind: 'sleep', ms: 1 });
    const crashing = pool.run({ kind: 'exit' });
    const queued = pool.run({ kind: 'sleep', ms: 1 });
    await expect(crashing).rejects.toThrow(WorkerCrashError);
    await expect(crashing).rejects.toThrow(/the analysis thread exited \(code 3\)/);
    const after = await queued;
    expect(after.threadId).not.toBe(first.threadId);
    expect(pool.stats().crashes).toBe(1);
  });

  it('fails the task of a thread with an uncaught exception', async () => {
    pool = createWorkerPool<Task, Result>({ moduleUrl, size: 2 });
    const results = await Promise.allSettled([
      pool.run({ kind: 'uncaught' }),
      pool.run({ kind: 'sleep', ms: 50 }),
      pool.run({ kind: 'sleep', ms: 50 }),
    ]);
    expect(results[0]).toMatchObject({ status: 'rejected' });
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/crashed: boom in the thread/);
    expect(results.slice(1).map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
  });

  it('stops a task that runs past the timeout and goes on with a new thread', async () => {
    pool = createWorkerPool<Task, Result>({ moduleUrl, size: 1, taskTimeoutMs: 2000 });
    await expect(pool.run({ kind: 'hang' })).rejects.toThrow(/took longer than 2 s and was stopped/);
    await expect(pool.run({ kind: 'sleep', ms: 1 })).resolves.toMatchObject({ threadId: expect.any(Number) });
  });

  it('ends idle threads after the idle timeout', async () => {
    pool = createWorkerPool<Task, Result>({ moduleUrl, size: 2, idleTimeoutMs: 50 });
    await Promise.all([pool.run({ kind: 'sleep', ms: 1 }), pool.run({ kind: 'sleep', ms: 1 })]);
    expect(pool.stats().threads).toBeGreaterThan(0);
    await expect.poll(() => pool!.stats().threads, { timeout: 5000 }).toBe(0);
    await expect(pool.run({ kind: 'sleep', ms: 1 })).resolves.toBeDefined();
  });

  it('refuses a size below one, and tasks after close', async () => {
    expect(() => createWorkerPool({ moduleUrl, size: 0 })).toThrow(/at least one thread/);
    pool = createWorkerPool<Task, Result>({ moduleUrl, size: 1 });
    await pool.close();
    await expect(pool.run({ kind: 'sleep', ms: 1 })).rejects.toThrow(/closed/);
  });
});
