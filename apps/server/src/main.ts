import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { warmPeakCache } from './audio/fingerprint/index.js';
import { currentIndex } from './audio/fingerprint/memory-index.js';
import { startSpawnHelper } from './audio/spawn-helper.js';
import { type Config, type ConfigOverrides, DEMO_MARKER_FILE, loadConfig } from './config.js';
import { createDatabase } from './db/client.js';
import { type EmbeddedPostgres, runningEmbeddedConnection, startEmbeddedPostgres } from './db/embedded.js';
import { acquireDataDirLock, type DataDirLock } from './db/lock.js';
import { holdStartupLock, runMigrations } from './db/migrate.js';
import type { AppDeps } from './deps.js';
import { registerJobHandlers } from './jobs/index.js';
import { createJobQueue } from './jobs/queue.js';
import { DEMO_USER, prepareAccounts, SETUP_LINK_HOURS } from './services/accounts/first-run.js';
import { startPlaySummaryFolder } from './services/analytics/play-summary.js';
import { createLiveHub } from './services/live.js';
import { describeRecovery, recoverStoredRecordings } from './services/recordings/recording-recovery.js';
import { startSongCountsFolder } from './services/song-counts.js';
import { openStores } from './storage/index.js';
import { isWildcardHost, loadTls, venueLines } from './tls.js';

export type Log = (message: string) => void;

/** One line on stdout, in the style of the setup scripts; nothing when the log level is silent. */
export function consoleLog(config: Pick<Config, 'logLevel'>): Log {
  return config.logLevel === 'silent' ? () => {} : (message) => console.log(`[wcs] ${message}`);
}

/** The address a browser on this machine opens: loopback whatever interface was bound. */
function loopbackUrl(listening: string): string {
  const url = new URL(listening);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = '127.0.0.1';
  return url.origin;
}

function seconds(startedAt: number): string {
  return `${((performance.now() - startedAt) / 1000).toFixed(2)} s`;
}

/** Runs cleanups in reverse order of registration; each runs even when an earlier one fails. */
class Cleanups {
  private readonly steps: Array<{ name: string; run: () => unknown }> = [];

  add(name: string, run: () => unknown): void {
    this.steps.push({ name, run });
  }

  async runAll(log: Log): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step.run();
      } catch (error) {
        log(`Stopping ${step.name} failed: ${(error as Error).message}`);
      }
    }
  }
}

export interface PreparedDatabase {
  connectionString: string;
  /** Set when the embedded PostgreSQL was started (no DATABASE_URL). */
  embedded: EmbeddedPostgres | undefined;
  /** Stops the embedded PostgreSQL and releases the data folder lock. Idempotent. */
  close(): Promise<void>;
}

/**
 * The database the app runs on, migrated: DATABASE_URL when set, else the embedded PostgreSQL in
 * the data folder, under the data folder lock. On failure, whatever was started is stopped.
 */
export async function prepareDatabase(config: Config, log: Log): Promise<PreparedDatabase> {
  const cleanups = new Cleanups();
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= cleanups.runAll(log);
    return closing;
  };
  try {
    let connectionString: string;
    let embedded: EmbeddedPostgres | undefined;
    if (config.databaseUrl) {
      connectionString = config.databaseUrl;
    } else {
      fs.mkdirSync(config.dataDir, { recursive: true });
      const lock: DataDirLock = acquireDataDirLock(config.dataDir);
      cleanups.add('the data folder lock', () => lock.release());
      embedded = await startEmbeddedPostgres({
        dataDir: config.dataDir,
        port: config.embeddedPgPort,
        log,
      });
      cleanups.add('the embedded PostgreSQL', () => embedded?.stop());
      connectionString = embedded.connectionString;
    }
    await runMigrations(connectionString);
    return { connectionString, embedded, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The database for a short command, whether or not a server runs on the data folder: its own
 * embedded PostgreSQL when the folder is free, else the one the running server started (which
 * has migrated it). `close` stops only what this call started.
 */
export async function attachDatabase(config: Config, log: Log): Promise<PreparedDatabase> {
  try {
    return await prepareDatabase(config, log);
  } catch (error) {
    if ((error as Error).name !== 'DataDirInUseError') throw error;
    return {
      connectionString: runningEmbeddedConnection(config.dataDir),
      embedded: undefined,
      close: async () => {},
    };
  }
}

export interface StartServerOptions extends ConfigOverrides {
  /** Environment to read the configuration from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Where progress lines go (default: stdout, unless the log level is silent). */
  log?: Log;
  /**
   * Run the job workers and the scheduled jobs (default true). False: `wcs serve --no-jobs`, a
   * process that serves HTTP and only queues jobs for the workers of other processes.
   */
  jobs?: boolean;
  /** Serve the web app and the API (default true). False: `wcs worker`, jobs only. */
  http?: boolean;
}

export interface WorkerHandle {
  deps: AppDeps;
  /** HTTP, job workers (with a grace period), live hub, pool, embedded PostgreSQL, lock. Idempotent. */
  close(): Promise<void>;
}

export interface ServerHandle extends WorkerHandle {
  /** Where the HTTP server listens, e.g. http://127.0.0.1:8080. */
  url: string;
  app: FastifyInstance;
}

/**
 * Starts everything the app needs: migrations and the start-up tasks (under the start-up lock),
 * then, by role, the HTTP server (`http`) and the job workers with the scheduled jobs (`jobs`);
 * both by default (`wcs serve`). Signal handling is the caller's (see cli/serve.ts).
 */
export function startServer(options: StartServerOptions & { http: false }): Promise<WorkerHandle>;
export function startServer(options?: StartServerOptions): Promise<ServerHandle>;
export async function startServer(options: StartServerOptions = {}): Promise<ServerHandle | WorkerHandle> {
  const startedAt = performance.now();
  const {
    env = process.env,
    log: givenLog,
    jobs: runsJobs = true,
    http: servesHttp = true,
    ...overrides
  } = options;
  if (!runsJobs && !servesHttp) throw new Error('A process with neither HTTP nor jobs has nothing to do');
  const config = loadConfig(env, overrides);
  const log = givenLog ?? consoleLog(config);
  const cleanups = new Cleanups();
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const stoppingAt = performance.now();
      await cleanups.runAll(log);
      log(`Stopped in ${seconds(stoppingAt)}.`);
    })();
    return closing;
  };

  try {
    const database = await prepareDatabase(config, log);
    cleanups.add('the database', () => database.close());
    const storage = await openStores(config);
    if (config.storage.kind === 'local') {
      fs.mkdirSync(config.recordingsDir, { recursive: true });
      fs.mkdirSync(config.playlistsDir, { recursive: true });
    }

    // Processes starting at once on one hosted database take turns until they serve.
    const releaseStartupLock = await holdStartupLock(database.connectionString);
    cleanups.add('the start-up lock', releaseStartupLock);
    const { pool, db } = createDatabase(database.connectionString);
    cleanups.add('the connection pool', () => pool.end());
    // What a crash or an older version left in the recordings store, before any upload is taken.
    const recovery = describeRecovery(
      await recoverStoredRecordings(db, storage.recordings, {
        // Alone on the folder under the embedded database's lock; on a hosted one, others may be
        // mid-upload in a shared folder or bucket.
        spareRecentMs: database.embedded ? 0 : config.requestTimeoutMs + 60_000,
      }),
      config.storage.kind === 'local' ? 'Recordings folder' : `Recordings in ${storage.recordings.location}`,
    );
    if (recovery) log(recovery);
    const live = await createLiveHub(pool, database.connectionString);
    cleanups.add('the live hub', () => live.close());
    const jobs = await createJobQueue({
      connectionString: database.connectionString,
      onError: (error) => log(`Job queue error: ${error.message}`),
      runsJobs,
      maintenanceIntervalSeconds: Math.min(120, config.chunkJobExpireSeconds),
    });
    // Stopping the queue lets running jobs finish (pg-boss waits up to its grace period).
    cleanups.add('the job workers', () => jobs.stop());

    const deps: AppDeps = { config, db, pool, jobs, live, storage };
    // Every process folds the play summary's dirty songs (one at a time, under an advisory lock),
    // so the calls over all plays stay fast whichever processes serve or work.
    cleanups.add('the play summary fold', startPlaySummaryFolder(pool, log));
    // And collapses the rows of the song counts summary (services/song-counts.ts) the same way.
    cleanups.add('the song counts fold', startSongCountsFolder(pool, log));
    // Workers and schedules only where jobs run; elsewhere uploads and buttons only queue them.
    if (runsJobs) {
      const stopWatching = await registerJobHandlers(deps, log);
      cleanups.add('the inbox watcher', stopWatching);
    }
    const where = database.embedded
      ? `embedded PostgreSQL in ${path.join(config.dataDir, 'pg')}`
      : 'PostgreSQL from DATABASE_URL';
    const served = servesHttp
      ? await serveHttp(deps, { startedAt, where, runsJobs, log, cleanups, releaseStartupLock })
      : undefined;
    if (!served) {
      await releaseStartupLock();
      log(
        `WCS DJ Library worker is running the background jobs (no HTTP; ${where}; storage ${storage.recordings.location}; started in ${seconds(startedAt)}).`,
      );
    }
    // ffmpeg's helper process is started now, while this process is small (spawn-helper.ts): uploads
    // are decoded to check them, chunks to recognise them.
    startSpawnHelper();
    if (runsJobs) loadRecognitionIndex(db, log, () => closing !== undefined);
    return served ? { ...served, deps, close } : { deps, close };
  } catch (error) {
    await cleanups.runAll(log);
    throw error;
  }
}

/**
 * The HTTP half of a start: TLS, the app, the accounts' first run; then, the start-up tasks done
 * and the start-up lock released, listening, and the start lines (URLs, setup link, demo).
 */
async function serveHttp(
  deps: AppDeps,
  start: {
    startedAt: number;
    where: string;
    runsJobs: boolean;
    log: Log;
    cleanups: Cleanups;
    releaseStartupLock: () => Promise<void>;
  },
): Promise<{ url: string; app: FastifyInstance }> {
  const { config, db } = deps;
  const { log } = start;
  // The given certificate, or under --public the self-signed one in the data folder (tls.ts).
  const tls = await loadTls(config, log);
  const app = await buildApp(deps, tls ? { https: { key: tls.key, cert: tls.cert } } : {});
  start.cleanups.add('the HTTP server', () => app.close());
  const accounts = await prepareAccounts(db, {
    isDemo: fs.existsSync(path.join(config.dataDir, DEMO_MARKER_FILE)),
  });
  await start.releaseStartupLock();
  const url = await app.listen({ port: config.port, host: config.host });

  // Fastify names 127.0.0.1 for a wildcard bind; the start line names what was really bound.
  const { port } = app.server.address() as AddressInfo;
  const bound = `${tls ? 'https' : 'http'}://${net.isIPv6(config.host) ? `[${config.host}]` : config.host}:${port}`;
  const scope = isWildcardHost(config.host) ? 'every network interface, ' : '';
  const security = tls ? `TLS${tls.selfSigned ? ' with a self-signed certificate' : ''}, ` : '';
  const role = start.runsJobs ? '' : 'no background jobs here: `wcs worker` runs them, ';
  log(
    `WCS DJ Library is listening on ${bound} (${scope}${security}${role}${start.where}; started in ${seconds(start.startedAt)}).`,
  );
  const listening = { host: config.host, port, tls, publicHostname: config.publicHostname };
  for (const line of await venueLines(listening)) log(line);
  if (accounts.setupToken) {
    const link = `${loopbackUrl(url)}/setup?token=${accounts.setupToken}`;
    log(
      `No account exists yet. Create the first admin with this link (once, within ${SETUP_LINK_HOURS} hour):`,
    );
    log(`  ${link}`);
    log('  or on this machine: wcs user add <name> --role admin');
  }
  if (fs.existsSync(path.join(config.dataDir, DEMO_MARKER_FILE))) {
    log(`Demo: sign in as ${DEMO_USER.name} with the password ${DEMO_USER.password}.`);
  }
  return { url, app };
}

/**
 * The recognition index, read into memory now rather than when the first recording chunk arrives,
 * in each process that runs jobs (it then keeps itself fresh from the database before each
 * recognition); then the songs' peaks, as far as their cache holds.
 */
function loadRecognitionIndex(db: AppDeps['db'], log: Log, isClosing: () => boolean): void {
  const loadingAt = performance.now();
  currentIndex(db)
    .then(async (index) => {
      if (index.revisions.size === 0 || isClosing()) return;
      log(
        `Recognition index: ${index.revisions.size} songs (${(index.size / 1e6).toFixed(1)} M hashes) in memory in ${seconds(loadingAt)}.`,
      );
      const peaksAt = performance.now();
      await warmPeakCache(db, index).then(
        (cached) => {
          if (!isClosing()) log(`Recognition peaks: ${cached} songs in the cache in ${seconds(peaksAt)}.`);
        },
        (error: Error) => {
          if (!isClosing())
            log(`Recognition peaks not cached (${error.message}); recognition reads them as needed.`);
        },
      );
    })
    .catch((error: Error) => {
      if (!isClosing())
        log(`Recognition index not loaded yet (${error.message}); the first recognition loads it.`);
    });
}
