import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../db/embedded.js';
import { isProcessAlive, LOCK_FILE_NAME } from '../db/lock.js';

// The built command, as users run it: `wcs serve` from apps/server/bin/wcs.js and dist.
const serverDir = path.resolve(import.meta.dirname, '../..');
const repoRoot = path.resolve(serverDir, '../..');
const wcsBin = path.join(serverDir, 'bin/wcs.js');
const execFileAsync = promisify(execFile);

const dataDirs: string[] = [];
const running = new Set<ChildProcess>();

function newDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-serve-test-'));
  // As root, PostgreSQL runs as the postgres user, who must get through the folder (mkdtemp: 0700).
  fs.chmodSync(dir, 0o755);
  dataDirs.push(dir);
  return dir;
}

interface Server {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function launch(dataDir: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await findFreePort();
  const child = spawn(process.execPath, [wcsBin, 'serve', '--port', String(port), '--data-dir', dataDir], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', WCS_DATA_DIR: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}

async function health(url: string): Promise<number | null> {
  try {
    return (await fetch(`${url}/api/health`)).status;
  } catch {
    return null;
  }
}

/** Starts `wcs serve` and waits until /api/health answers 200. */
async function start(dataDir: string, env: Record<string, string> = {}): Promise<Server> {
  const server = await launch(dataDir, env);
  let hasExited = false;
  void server.exited.then(() => {
    hasExited = true;
  });
  const deadline = Date.now() + 20_000;
  while ((await health(server.url)) !== 200) {
    if (hasExited) throw new Error(`wcs serve exited while starting:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`wcs serve did not answer within 20 s:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return server;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function postmasterPid(dataDir: string): number | null {
  try {
    return Number(fs.readFileSync(path.join(dataDir, 'pg/postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

function adminUrl(dataDir: string, pgPort: number): string {
  const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  return `postgres://postgres:${password}@127.0.0.1:${pgPort}/wcs`;
}

beforeAll(async () => {
  // Incremental: a no-op when dist is current. Other people's type errors do not stop the emit,
  // so a failed build only matters when it produced no CLI.
  try {
    await execFileAsync(
      process.execPath,
      [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-b', serverDir],
      {
        cwd: repoRoot,
      },
    );
  } catch (error) {
    if (!fs.existsSync(path.join(serverDir, 'dist/cli.js'))) throw error;
  }
}, 180_000);

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  for (const dir of dataDirs) {
    const pid = postmasterPid(dir);
    if (pid && isProcessAlive(pid)) process.kill(pid, 'SIGQUIT');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('wcs serve', () => {
  it('starts, answers /api/health, and on SIGTERM stops PostgreSQL, releases the lock and exits 0', async () => {
    const dataDir = newDataDir();
    const server = await start(dataDir);
    const pgPid = postmasterPid(dataDir);
    expect(pgPid).toBeGreaterThan(0);
    expect(isProcessAlive(pgPid!)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(true);
    expect(server.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ .*started in/);

    const stoppedAt = Date.now();
    server.child.kill('SIGTERM');
    const { code } = await withTimeout(server.exited, 5_000, 'shutdown');
    expect(code).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    expect(isProcessAlive(pgPid!)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'pg/postmaster.pid'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
  });

  it('recovers without a human after the app was killed with SIGKILL, with the data intact', async () => {
    const dataDir = newDataDir();
    const pgPort = await findFreePort();
    const env = { WCS_PG_PORT: String(pgPort) };
    const first = await start(dataDir, env);
    const client = new pg.Client({ connectionString: adminUrl(dataDir, pgPort) });
    await client.connect();
    await client.query(
      `insert into events (name, start_date, end_date, timezone) values ('Crash Test Swing', '2025-03-07', '2025-03-09', 'Europe/Berlin')`,
    );
    await client.end();

    const orphanPid = postmasterPid(dataDir)!;
    first.child.kill('SIGKILL');
    await first.exited;
    // The postgres child outlives the app and still holds the data folder (and the port).
    expect(isProcessAlive(orphanPid)).toBe(true);

    const second = await start(dataDir, env);
    expect(second.output()).toContain(`Recovered from a crash: stopped the PostgreSQL (pid ${orphanPid})`);
    expect(isProcessAlive(orphanPid)).toBe(false);
    const check = new pg.Client({ connectionString: adminUrl(dataDir, pgPort) });
    await check.connect();
    const { rows } = await check.query(
      `select name, to_char(end_date, 'YYYY-MM-DD') as end_date from events`,
    );
    await check.end();
    expect(rows).toEqual([{ name: 'Crash Test Swing', end_date: '2025-03-09' }]);

    second.child.kill('SIGTERM');
    expect((await withTimeout(second.exited, 5_000, 'shutdown')).code).toBe(0);
  });

  it('refuses a second process on the same data folder at once, and the first keeps serving', async () => {
    const dataDir = newDataDir();
    const first = await start(dataDir);
    const firstPid = first.child.pid;

    const second = await launch(dataDir);
    const { code } = await withTimeout(second.exited, 10_000, 'the second process to give up');
    expect(code).not.toBe(0);
    expect(second.output()).toContain(
      `Data folder ${dataDir} is in use by another WCS DJ Library process (pid ${firstPid}, started `,
    );
    expect(second.output()).toContain('Stop it first, or use another --data-dir.');
    expect(await health(first.url)).toBe(200);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE_NAME), 'utf8')).pid).toBe(firstPid);

    first.child.kill('SIGTERM');
    expect((await withTimeout(first.exited, 5_000, 'shutdown')).code).toBe(0);
  });

  it('takes over a stale lock file left by a dead process', async () => {
    const dataDir = newDataDir();
    const dead = spawn('true');
    await new Promise((resolve) => dead.on('exit', resolve));
    fs.writeFileSync(
      path.join(dataDir, LOCK_FILE_NAME),
      JSON.stringify({
        pid: dead.pid,
        startTime: 1,
        hostname: os.hostname(),
        startedAt: '2020-01-01T00:00:00.000Z',
      }),
    );
    const server = await start(dataDir);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE_NAME), 'utf8')).pid).toBe(
      server.child.pid,
    );
    server.child.kill('SIGTERM');
    expect((await withTimeout(server.exited, 5_000, 'shutdown')).code).toBe(0);
  });

  it('lets exactly one of several processes racing for a stale lock win', async () => {
    const dataDir = newDataDir();
    fs.writeFileSync(
      path.join(dataDir, LOCK_FILE_NAME),
      JSON.stringify({ pid: 999_999_999, startTime: 1, hostname: os.hostname(), startedAt: 'long ago' }),
    );
    const lockModule = path.join(serverDir, 'dist/db/lock.js');
    // Each racer holds the lock it won for a while, so the losers see a live owner.
    const script = `
      const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)});
      try { acquireDataDirLock(process.argv[1]); console.log('won'); await new Promise((r) => setTimeout(r, 1500)); }
      catch (error) { console.log(error.name); }`;
    const racers = Array.from({ length: 6 }, () =>
      execFileAsync(process.execPath, ['--input-type=module', '-e', script, dataDir]),
    );
    const results = (await Promise.all(racers)).map((result) => result.stdout.trim());
    expect(results.filter((result) => result === 'won')).toHaveLength(1);
    expect(results.filter((result) => result === 'DataDirInUseError')).toHaveLength(5);
  });
});
