import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Role } from '@wcs/contract';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createDatabase, type Db } from '../db/client.js';
import type { AppDeps } from '../deps.js';
import { registerJobHandlers } from '../jobs/index.js';
import { createJobQueue } from '../jobs/queue.js';
import { createToken } from '../services/accounts/tokens.js';
import { createLiveHub } from '../services/live.js';
import { openStores } from '../storage/index.js';
// For the ProvidedContext declaration (pgAdminUrl, pgTemplateDatabase).
import type {} from './global-setup.js';

let adminPool: pg.Pool | undefined;

/** One small pool per test worker for CREATE/DROP DATABASE, made on first use only. */
function admin(): pg.Pool {
  adminPool ??= new pg.Pool({ connectionString: inject('pgAdminUrl'), max: 2, allowExitOnIdle: true });
  return adminPool;
}

export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  db: Db;
  /** Ends the pool and drops the database. */
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own: a copy of the run's template (tens of milliseconds). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `wcs_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin().query(`create database ${name} template ${inject('pgTemplateDatabase')}`);
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  const { pool, db } = createDatabase(url.toString());
  let dropping: Promise<void> | undefined;
  return {
    url: url.toString(),
    pool,
    db,
    drop() {
      dropping ??= (async () => {
        await pool.end();
        await admin().query(`drop database if exists ${name} with (force)`);
      })();
      return dropping;
    },
  };
}

export interface TestApp {
  /**
   * The app; its `inject(options)` calls as an admin (a device token of role admin) unless the
   * request names its own authorization or cookie. `injectAs` calls as another role or anonymously.
   */
  app: FastifyInstance;
  /** One device token per role, made for this app. */
  tokens: Record<Role, string>;
  /** A request as `role`'s token, or with no credentials at all. */
  injectAs(role: Role | 'anonymous', options: InjectOptions): Promise<LightMyRequestResponse>;
  deps: AppDeps;
  databaseUrl: string;
  /** A temporary data folder with recordings/ and playlists/ in it. */
  dataDir: string;
  /**
   * Drops the jobs waiting to start and waits for the running ones to end. A write schedules
   * follow-ups a few seconds later (a score recompute, then playlists and downloads: see
   * services/recompute-schedule.ts); a test that sets scores by hand calls this first, so that a
   * recompute scheduled by the test before it cannot rewrite them while it runs.
   */
  settleJobs(): Promise<void>;
  /** Undoes everything: app, job workers, live hub, pool, database, data folder. */
  close(): Promise<void>;
}

/**
 * The whole app on a fresh database and data folder, ready for `app.inject`. Configuration
 * comes from `options.env` only (not the developer's environment), with a silent log unless
 * `options.logLevel` asks for one (printed with the test's output).
 */
export async function createTestApp(
  options: { env?: Record<string, string>; logLevel?: 'silent' | 'error' } = {},
): Promise<TestApp> {
  const undo: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const step of undo.splice(0).reverse()) await step();
  };
  try {
    const database = await createTestDatabase();
    undo.push(() => database.drop());
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-test-data-'));
    undo.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    // No weekly scrape of the real calendar from a test app, unless a test asks for one.
    const config = loadConfig(
      // No metadata services asked either (a test that wants them points them at local fakes).
      // Nor load shedding: the app shares its event loop with the test's own work (synthesising and
      // mixing audio), which at a load of 15-20 held it over the 2 s bound, and uploads got 503.
      {
        WCS_SCRAPER_SCHEDULE: 'off',
        WCS_METADATA_LOOKUP: 'off',
        WCS_MAX_EVENT_LOOP_DELAY_MS: '0',
        ...options.env,
      },
      { databaseUrl: database.url, dataDir, logLevel: options.logLevel ?? 'silent' },
    );
    await fs.mkdir(config.recordingsDir, { recursive: true });
    await fs.mkdir(config.playlistsDir, { recursive: true });

    const live = await createLiveHub(database.pool, database.url);
    undo.push(() => live.close());
    const jobs = await createJobQueue({
      connectionString: database.url,
      pollingIntervalSeconds: 0.5,
      maintenanceIntervalSeconds: Math.min(120, config.chunkJobExpireSeconds),
    });
    undo.push(() => jobs.stop());
    // The folders above, or the bucket of WCS_STORAGE in options.env (a fake S3 server's).
    const storage = await openStores(config);
    const deps: AppDeps = { config, db: database.db, pool: database.pool, jobs, live, storage };
    const stopWatching = await registerJobHandlers(deps);
    undo.push(stopWatching);
    const app = await buildApp(deps);
    undo.push(() => app.close());
    await app.ready();
    const tokens = {} as Record<Role, string>;
    for (const role of ['admin', 'dj', 'viewer'] as const) {
      tokens[role] = (await createToken(database.db, { name: `test-${role}`, role }, undefined)).token;
    }
    const rawInject = app.inject.bind(app) as (options: InjectOptions) => Promise<LightMyRequestResponse>;
    const injectAs = (role: Role | 'anonymous', options: InjectOptions) =>
      rawInject(
        role === 'anonymous'
          ? options
          : { ...options, headers: { ...options.headers, authorization: `Bearer ${tokens[role]}` } },
      );
    // Tests of features call as an admin; tests of access control use injectAs.
    const inject = (options?: InjectOptions | string) => {
      if (options === undefined) throw new Error('The test app has no inject() chain: pass the options');
      const given = typeof options === 'string' ? { url: options } : options;
      const names = Object.keys(given.headers ?? {}).map((name) => name.toLowerCase());
      const hasCredentials = names.includes('authorization') || names.includes('cookie') || given.cookies;
      return hasCredentials ? rawInject(given) : injectAs('admin', given);
    };
    (app as { inject: unknown }).inject = inject;
    const settleJobs = async () => {
      // A running job may send a follow-up as it ends: drop and wait again until nothing is left.
      for (let attempt = 0; attempt < 600; attempt++) {
        await database.pool.query("delete from pgboss.job where state in ('created', 'retry')");
        const { rows } = await database.pool.query<{ left: number }>(
          "select count(*)::int as left from pgboss.job where state in ('created', 'retry', 'active')",
        );
        if (rows[0]?.left === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('settleJobs: jobs still running after 60 s');
    };
    return { app, tokens, injectAs, deps, databaseUrl: database.url, dataDir, settleJobs, close };
  } catch (error) {
    await close();
    throw error;
  }
}
