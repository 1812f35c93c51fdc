/**
 * A small pool of worker threads that run CPU-heavy tasks (audio analysis) off the main thread, so
 * the API's event loop stays responsive. Tasks wait in a FIFO queue; at most `size` run at once,
 * one per thread. A thread that dies mid-task (an uncaught error, out of memory, a hung decoder
 * past the timeout) fails that task with a WorkerCrashError and is replaced for the next task.
 * Threads are started on demand and end after a quiet spell; an idle pool never keeps the process
 * alive, a busy one does (a command line waiting on a task must not exit under it).
 */
import type { Worker } from 'node:worker_threads';
import { startThread } from './thread.js';
import type { ReplyMessage, TaskMessage } from './worker-protocol.js';

export interface WorkerPoolOptions {
  /** The module each thread runs; it calls `serveTasks` (worker-protocol.ts). */
  moduleUrl: URL;
  /** Threads at most (1 or more). */
  size: number;
  /** A task running longer than this ends its thread and fails (default 10 minutes). */
  taskTimeoutMs?: number;
  /** An idle thread ends after this long (default 30 s). */
  idleTimeoutMs?: number;
  /** Names the pool in error messages ("the analysis thread crashed..."). */
  name?: string;
}

/** The thread running a task died (or was stopped after the timeout); the pool lives on. */
export class WorkerCrashError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCrashError';
  }
}

/** A task's own failure, as the thread reported it (its message and the original error's name). */
export class WorkerTaskError extends Error {
  constructor(
    message: string,
    readonly originalName: string,
  ) {
    super(message);
    this.name = 'WorkerTaskError';
  }
}

export interface WorkerPoolStats {
  threads: number;
  running: number;
  queued: number;
  /** Threads that died mid-task (or timed out) since the pool was made. */
  crashes: number;
}

export interface WorkerPool<T, R> {
  readonly size: number;
  run(task: T): Promise<R>;
  stats(): WorkerPoolStats;
  /** Fails queued tasks, ends every thread (running tasks fail with WorkerCrashError). */
  close(): Promise<void>;
}

interface Pending<T, R> {
  id: number;
  task: T;
  resolve: (result: R) => void;
  reject: (error: Error) => void;
}

interface Slot<T, R> {
  worker: Worker;
  current: Pending<T, R> | null;
  taskTimer: NodeJS.Timeout | null;
  idleTimer: NodeJS.Timeout | null;
  /** Set once the thread is known dead or being stopped: it takes no more tasks. */
  isGone: boolean;
}

export function createWorkerPool<T, R>(options: WorkerPoolOptions): WorkerPool<T, R> {
  if (!Number.isInteger(options.size) || options.size < 1) {
    throw new Error(`a worker pool needs at least one thread, got ${options.size}`);
  }
  const taskTimeoutMs = options.taskTimeoutMs ?? 10 * 60_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  const name = options.name ?? 'worker';
  const queue: Pending<T, R>[] = [];
  const slots = new Set<Slot<T, R>>();
  let nextId = 1;
  let crashes = 0;
  let isClosed = false;

  const clearTimers = (slot: Slot<T, R>) => {
    if (slot.taskTimer) clearTimeout(slot.taskTimer);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.taskTimer = null;
    slot.idleTimer = null;
  };

  /** The slot's thread is dead or stopping: fail its task, forget it, start others for the queue. */
  const retire = (slot: Slot<T, R>, reason: string | null) => {
    if (!slots.has(slot)) return;
    slots.delete(slot);
    slot.isGone = true;
    clearTimers(slot);
    const task = slot.current;
    slot.current = null;
    if (task) {
      crashes += 1;
      task.reject(new WorkerCrashError(reason ?? `the ${name} thread stopped during the task`));
    }
    dispatch();
  };

  const spawn = (): Slot<T, R> => {
    const worker = startThread(options.moduleUrl);
    const slot: Slot<T, R> = { worker, current: null, taskTimer: null, idleTimer: null, isGone: false };
    worker.on('message', (reply: ReplyMessage<R>) => {
      const task = slot.current;
      if (!task || task.id !== reply.id) return;
      if (slot.taskTimer) clearTimeout(slot.taskTimer);
      slot.taskTimer = null;
      slot.current = null;
      if (reply.ok) task.resolve(reply.result);
      else task.reject(new WorkerTaskError(reply.error, reply.name));
      idle(slot);
      dispatch();
    });
    worker.on('error', (error) => {
      retire(slot, `the ${name} thread crashed: ${error.message}`);
    });
    worker.on('messageerror', (error) => {
      retire(slot, `the ${name} thread sent a message that could not be read: ${error.message}`);
      void worker.terminate();
    });
    worker.on('exit', (code) => {
      retire(slot, `the ${name} thread exited (code ${code}) during the task`);
    });
    slots.add(slot);
    return slot;
  };

  /** No task: the thread does not hold the process open, and ends after a quiet spell. */
  const idle = (slot: Slot<T, R>) => {
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => {
      if (slot.current || slot.isGone) return;
      slots.delete(slot);
      slot.isGone = true;
      void slot.worker.terminate();
    }, idleTimeoutMs);
    slot.idleTimer.unref();
  };

  const assign = (slot: Slot<T, R>, task: Pending<T, R>) => {
    clearTimers(slot);
    slot.current = task;
    slot.worker.ref();
    slot.taskTimer = setTimeout(() => {
      retire(slot, `the ${name} task took longer than ${taskTimeoutMs / 1000} s and was stopped`);
      void slot.worker.terminate();
    }, taskTimeoutMs);
    slot.worker.postMessage({ id: task.id, task: task.task } satisfies TaskMessage<T>);
  };

  function dispatch() {
    while (queue.length > 0 && !isClosed) {
      let free: Slot<T, R> | undefined;
      for (const slot of slots) {
        if (!slot.current && !slot.isGone) {
          free = slot;
          break;
        }
      }
      if (!free && slots.size < options.size) free = spawn();
      if (!free) return;
      assign(free, queue.shift()!);
    }
  }

  return {
    size: options.size,
    run(task) {
      if (isClosed) return Promise.reject(new Error(`the ${name} pool is closed`));
      return new Promise<R>((resolve, reject) => {
        queue.push({ id: nextId++, task, resolve, reject });
        dispatch();
      });
    },
    stats() {
      let running = 0;
      for (const slot of slots) if (slot.current) running += 1;
      return { threads: slots.size, running, queued: queue.length, crashes };
    },
    async close() {
      isClosed = true;
      for (const task of queue.splice(0)) task.reject(new Error(`the ${name} pool was closed`));
      const workers = [...slots].map((slot) => slot.worker);
      for (const slot of [...slots]) retire(slot, `the ${name} pool was closed during the task`);
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
