import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { findFreePort } from '../db/embedded.js';
import { LOCK_FILE_NAME } from '../db/lock.js';
import { isProcessAlive } from '../processes.js';
import {
  adminUrl,
  health,
  launch,
  newDataDir,
  postmasterPid,
  serverDir,
  start,
  useServerProcesses,
  withTimeout,
} from '../test/server-process.js';

useServerProcesses();

/** A stop's budget: far above its 0.04-0.16 s (docs/performance.md), as the machine may be loaded. */
const SHUTDOWN_MS = 30_000;
/**
 * A test's budget: up to two starts (each allowed 60 s by `start`) and a stop. Not vitest's 30 s:
 * a test with two starts took 29.5 s at a load of 15 on two cores.
 */
const SERVER_TEST_MS = 180_000;

describe('wcs serve', { timeout: SERVER_TEST_MS }, () => {
  it('starts, answers /api/health, and on SIGTERM stops PostgreSQL, releases the lock and exits 0', async () => {
    const dataDir = newDataDir();
    const server = await start(dataDir);
    const pgPid = postmasterPid(dataDir);
    expect(pgPid).toBeGreaterThan(0);
    expect(isProcessAlive(pgPid!)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(true);
    expect(server.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ .*started in/);

    server.child.kill('SIGTERM');
    // How fast it stops is measured by scripts/bench (docs/performance.md), not here: at a load of 10
    // on two cores, stopping PostgreSQL alone can take seconds.
    const { code } = await withTimeout(server.exited, SHUTDOWN_MS, 'shutdown');
    expect(code).toBe(0);
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
    expect((await withTimeout(second.exited, SHUTDOWN_MS, 'shutdown')).code).toBe(0);
  });

  it('refuses a second process on the same data folder at once, and the first keeps serving', async () => {
    const dataDir = newDataDir();
    const first = await start(dataDir);
    const firstPid = first.child.pid;

    const second = await launch(dataDir);
    const { code } = await withTimeout(second.exited, SHUTDOWN_MS, 'the second process to give up');
    expect(code).not.toBe(0);
    expect(second.output()).toContain(
      `Data folder ${dataDir} is in use by another WCS DJ Library process (pid ${firstPid}, started `,
    );
    expect(second.output()).toContain('Stop it first, or use another --data-dir.');
    expect(await health(first.url)).toBe(200);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE_NAME), 'utf8')).pid).toBe(firstPid);

    first.child.kill('SIGTERM');
    expect((await withTimeout(first.exited, SHUTDOWN_MS, 'shutdown')).code).toBe(0);
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
    expect((await withTimeout(server.exited, SHUTDOWN_MS, 'shutdown')).code).toBe(0);
  });

  it('lets exactly one of several processes racing for a stale lock win', async () => {
    const dataDir = newDataDir();
    fs.writeFileSync(
      path.join(dataDir, LOCK_FILE_NAME),
      JSON.stringify({ pid: 999_999_999, startTime: 1, hostname: os.hostname(), startedAt: 'long ago' }),
    );
    const lockModule = path.join(serverDir, 'dist/db/lock.js');
    // Each racer says what it got, then holds on (the winner to its lock) until every racer has
    // tried: a winner that let go after a fixed time would leave the file to a racer whose start
    // took longer than that (node's start at a load of 10 on two cores), a second win.
    const script = `
      const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)});
      try { acquireDataDirLock(process.argv[1]); console.log('won'); }
      catch (error) { console.log(error.name); }
      process.stdin.resume();
      await new Promise((resolve) => process.stdin.on('end', resolve));`;
    const racers = Array.from({ length: 6 }, () => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script, dataDir], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      let stdout = '';
      const said = new Promise<string>((resolve) => {
        child.stdout.on('data', (data: Buffer) => {
          stdout += data.toString();
          if (stdout.includes('\n')) resolve(stdout.trim());
        });
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      return { child, said, exited };
    });
    const results = await Promise.all(racers.map((racer) => racer.said));
    for (const racer of racers) racer.child.stdin.end();
    expect(await Promise.all(racers.map((racer) => racer.exited))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(results.filter((result) => result === 'won')).toHaveLength(1);
    expect(results.filter((result) => result === 'DataDirInUseError')).toHaveLength(5);
  });
});
