import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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

const execFileAsync = promisify(execFile);

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
