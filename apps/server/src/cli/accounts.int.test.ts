import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newDataDir, serverDir, start, useServerProcesses } from '../test/server-process.js';

useServerProcesses();

const wcsBin = path.join(serverDir, 'bin/wcs.js');

/** Runs the built `wcs` with `input` on stdin, as a script would pipe a password. */
function wcs(args: string[], input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [wcsBin, ...args], {
      env: { ...process.env, DATABASE_URL: '', WCS_DATA_DIR: '', LOG_LEVEL: 'warn' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

async function login(url: string, name: string, password: string): Promise<number> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ name, password }),
  });
  return response.status;
}

const eventsWith = (url: string, token: string) =>
  fetch(`${url}/api/events/`, { headers: { authorization: `Bearer ${token}` } });

describe('wcs user and wcs token', () => {
  it('work on a stopped data folder and beside the server running on it', async () => {
    const dataDir = newDataDir();
    const added = await wcs(
      ['user', 'add', 'ada', '--role', 'admin', '--data-dir', dataDir],
      'ada password 1\n',
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Created the account ada (admin)');
    const tooShort = await wcs(['user', 'add', 'bo', '--role', 'dj', '--data-dir', dataDir], 'short\n');
    expect(tooShort.code).toBe(1);
    expect(tooShort.stderr).toMatch(/at least 8 characters/);
    const created = await wcs([
      'token',
      'create',
      '--name',
      'pi',
      '--role',
      'dj',
      '--expires',
      '30d',
      '--data-dir',
      dataDir,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^wcs_[\w-]{43}$/);

    const server = await start(dataDir);
    // Accounts exist: no setup link.
    expect(server.output()).not.toContain('/setup?token=');
    expect(await login(server.url, 'ada', 'ada password 1')).toBe(200);
    expect((await eventsWith(server.url, token)).status).toBe(200);

    // Beside the running server: a second account, a password reset, a revocation.
    const second = await wcs(
      ['user', 'add', 'bob', '--role', 'viewer', '--data-dir', dataDir],
      'bob password 1\n',
    );
    expect(second.code, second.stderr).toBe(0);
    expect(await login(server.url, 'bob', 'bob password 1')).toBe(200);
    const reset = await wcs(['user', 'reset-password', 'bob', '--data-dir', dataDir], 'bob password 2\n');
    expect(reset.code, reset.stderr).toBe(0);
    expect(await login(server.url, 'bob', 'bob password 1')).toBe(401);
    expect(await login(server.url, 'bob', 'bob password 2')).toBe(200);
    const revoked = await wcs(['token', 'revoke', 'pi', '--data-dir', dataDir]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const refused = await eventsWith(server.url, token);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toMatch(/pi was revoked/);
    const listed = await wcs(['token', 'list', '--data-dir', dataDir]);
    expect(listed.stdout).toMatch(/pi\tdj\trevoked/);
    // Four commands start and stop the folder's PostgreSQL before the server runs: slow on a busy machine.
  }, 180_000);

  it('a fresh data folder prints a setup link that creates the first admin once', async () => {
    const dataDir = newDataDir();
    const server = await start(dataDir);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/setup\?token=([\w-]+))/.exec(server.output());
    expect(link, server.output()).not.toBeNull();
    const setup = () =>
      fetch(`${server.url}/api/auth/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ token: link![2], name: 'first', password: 'first admin password' }),
      });
    expect((await setup()).status).toBe(201);
    expect((await setup()).status).toBe(401);
    expect(await login(server.url, 'first', 'first admin password')).toBe(200);
  }, 120_000);
});
