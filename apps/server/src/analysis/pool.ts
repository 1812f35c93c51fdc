/**
 * The analysis thread pool: WCS_ANALYSIS_WORKERS threads (config.analysisWorkers) that decode and
 * analyse songs while the API's event loop serves requests. One pool per process and size, made on
 * first use: the job workers and the command line share it, and an idle pool holds no thread.
 */
import type { AnalysisTask, AnalysisTaskResult } from './analysis-task.js';
import { siblingModuleUrl } from './thread.js';
import { createWorkerPool, type WorkerPool, type WorkerPoolOptions } from './worker-pool.js';

export type AnalysisPool = WorkerPool<AnalysisTask, AnalysisTaskResult>;

export type AnalysisPoolOptions = Omit<WorkerPoolOptions, 'moduleUrl' | 'name'>;

/** A pool of its own (the command line closes it when done). */
export function createAnalysisPool(options: AnalysisPoolOptions): AnalysisPool {
  return createWorkerPool<AnalysisTask, AnalysisTaskResult>({
    ...options,
    moduleUrl: siblingModuleUrl('analysis-worker'),
    name: 'analysis',
  });
}

const shared = new Map<number, AnalysisPool>();

/** The process's pool of `size` threads. */
export function sharedAnalysisPool(size: number): AnalysisPool {
  let pool = shared.get(size);
  if (!pool) {
    pool = createAnalysisPool({ size });
    shared.set(size, pool);
  }
  return pool;
}
