import type pg from 'pg';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import type { JobQueue } from './jobs/queue.js';
import type { LiveHub } from './services/live.js';

/** What the HTTP app and the job handlers are built from; tests build it against a scratch database. */
export interface AppDeps {
  config: Config;
  db: Db;
  pool: pg.Pool;
  jobs: JobQueue;
  live: LiveHub;
}
