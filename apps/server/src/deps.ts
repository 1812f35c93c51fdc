import type { JobName, JobPayload } from '@wcs/contract';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import type { LiveHub } from './services/live.js';
import type { Stores } from './storage/index.js';

/** What the HTTP app and the job handlers are built from; tests build it against a scratch database. */
export interface AppDeps {
  config: Config;
  db: Db;
  pool: pg.Pool;
  jobs: JobQueue;
  live: LiveHub;
  /** Where recordings and playlists are stored: local folders or object storage (WCS_STORAGE). */
  storage: Stores;
}

export type JobHandler<N extends JobName> = (data: JobPayload<N>, jobId: string) => Promise<void>;

/** Typed access to the background jobs (pg-boss in the same PostgreSQL). */
export interface JobQueue {
  send<N extends JobName>(name: N, data: JobPayload<N>, options?: PgBoss.SendOptions): Promise<string | null>;
  /** At most one job per `seconds` for `key`; later sends within the window are merged into one run. */
  sendDebounced<N extends JobName>(
    name: N,
    data: JobPayload<N>,
    seconds: number,
    key?: string,
  ): Promise<string | null>;
  work<N extends JobName>(name: N, handler: JobHandler<N>, options?: { batchSize?: number }): Promise<void>;
  /** Whether this process works on `name` (a worker was registered here with `work`). */
  worksOn(name: JobName): boolean;
  stop(): Promise<void>;
}
