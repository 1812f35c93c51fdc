/**
 * `wcs serve --public` as users run it (the built CLI): every interface, TLS with the self-signed
 * certificate it makes in the data folder, the printed fingerprint, URLs and QR code, a foreign
 * Host refused, and `wcs record` with a token uploading to it while trusting that certificate
 * (--ca). Also the warning of a plain-HTTP server bound to every interface.
 */
import { execFile, spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  httpsRequest,
  newDataDir,
  type Server,
  serverDir,
  start,
  useServerProcesses,
  withTimeout,
} from '../test/server-process.js';
import { CERT_FILE, KEY_FILE, networkAddresses, reachableUrls, TLS_DIR } from '../tls.js';

useServerProcesses();

const execFileAsync = promisify(execFile);
const wcsBin = path.join(serverDir, 'bin/wcs.js');
const quietEnv = () => ({
  ...process.env,
  LOG_LEVEL: 'warn',
  DATABASE_URL: '',
  WCS_DATA_DIR: '',
  WCS_TOKEN: '',
});

/** Waits until the server has printed `pattern` (its start lines follow the first answer). */
async function printed(server: Server, pattern: RegExp): Promise<RegExpExecArray> {
  for (;;) {
    const match = pattern.exec(server.output());
    if (match) return match;
    const exited = await Promise.race([
      server.exited.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 50)),
    ]);
    if (exited) throw new Error(`wcs serve exited before printing ${pattern}:\n${server.output()}`);
  }
}

const portOf = (url: string) => Number(new URL(url).port);

describe('wcs serve --public', () => {
  let dataDir: string;
  let server: Server;
  let cert: string;

  beforeAll(async () => {
    dataDir = newDataDir();
    server = await start(dataDir, {}, { args: ['--public', '--hostname', 'venue.test'], https: true });
    await printed(server, /check this fingerprint/);
    cert = fs.readFileSync(path.join(dataDir, TLS_DIR, CERT_FILE), 'utf8');
    // `start` alone allows 60 s for a start on a loaded machine.
  }, 120_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('answers over TLS with the self-signed certificate whose fingerprint it printed', async () => {
    const port = portOf(server.url);
    expect(server.output()).toMatch(
      new RegExp(
        `listening on https://0\\.0\\.0\\.0:${port} \\(every network interface, TLS with a self-signed certificate, embedded PostgreSQL in .+; started in`,
      ),
    );
    // Printed before the line beforeAll waited for.
    const fingerprint = /SHA-256 fingerprint:\n\[wcs\] {3}([0-9A-F:]{95})\n/.exec(server.output())?.[1];
    const x509 = new X509Certificate(cert);
    expect(fingerprint).toBe(x509.fingerprint256);
    expect(x509.checkHost('venue.test')).toBe('venue.test');
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(fs.statSync(path.join(dataDir, TLS_DIR, KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(server.output()).toContain(
      `Made a self-signed TLS certificate. It is in ${path.join(dataDir, TLS_DIR, CERT_FILE)}`,
    );

    // Trusting that certificate alone, the name in the URL checked against it.
    const answer = await httpsRequest(`${server.url}/api/health`, { ca: cert });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'ok', database: 'ok' });
    expect(answer.fingerprint256).toBe(fingerprint);
    expect(answer.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('prints the URLs for phones, a QR code of the best one, and an https setup link', async () => {
    const port = portOf(server.url);
    await printed(server, /No account exists yet/);
    const output = server.output();
    const urls = reachableUrls({
      host: '0.0.0.0',
      port,
      tls: undefined,
      publicHostname: 'venue.test',
      addresses: networkAddresses(),
    }).map((url) => url.replace(/^http:/, 'https:'));
    expect(urls[0]).toBe(`https://venue.test:${port}`);
    expect(output).toContain(`From a phone or laptop on the same network, open: ${urls.join('  ')}`);
    // The code as qrcode draws it for a terminal, less its last line (colour codes only).
    const qr = (await QRCode.toString(urls[0]!, { type: 'terminal', small: true })).split('\n').slice(0, -1);
    expect(output).toContain(
      `Or scan this code for ${urls[0]}:\n${qr.map((line) => `[wcs] ${line}`).join('\n')}\n[wcs] Self-signed certificate`,
    );
    expect(output).toMatch(new RegExp(`https://127\\.0\\.0\\.1:${port}/setup\\?token=\\S+`));
    expect(output).not.toContain('WARNING');
  });

  it('refuses a request for a name it does not answer for (421)', async () => {
    const answer = await httpsRequest(`${server.url}/api/health`, { ca: cert, host: 'evil.example' });
    expect(answer.status).toBe(421);
    expect(JSON.parse(answer.body)).toEqual({
      message:
        'This server does not answer for the name evil.example: open it by its address, or add the name to WCS_ALLOWED_HOSTS',
    });
    // Its own name is fine.
    expect((await httpsRequest(`${server.url}/api/health`, { ca: cert, host: 'venue.test' })).status).toBe(
      200,
    );
  });

  it('takes chunks from `wcs record --token` that trusts its certificate with --ca', async () => {
    const { stdout: tokenOut } = await execFileAsync(
      process.execPath,
      [wcsBin, 'token', 'create', '--name', 'pi', '--role', 'dj', '--data-dir', dataDir],
      { env: quietEnv() },
    );
    const token = tokenOut.trim();
    expect(token).toMatch(/^wcs_\S+$/);
    const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-spool-public-'));
    const caFile = path.join(spoolDir, '..', `${path.basename(spoolDir)}-server-cert.pem`);
    fs.copyFileSync(path.join(dataDir, TLS_DIR, CERT_FILE), caFile);
    try {
      const child = spawn(
        process.execPath,
        [
          wcsBin,
          'record',
          '--server',
          server.url,
          '--token',
          token,
          '--ca',
          caFile,
          '--input',
          'lavfi:sine=f=440:d=3',
          '--chunk-seconds',
          '1',
          '--spool',
          spoolDir,
        ],
        { env: quietEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (data: Buffer) => {
        output += data.toString();
      });
      child.stderr.on('data', (data: Buffer) => {
        output += data.toString();
      });
      const code = await withTimeout(
        new Promise<number | null>((resolve) => child.on('exit', resolve)),
        60_000,
        `wcs record, so far:\n${output}`,
      );
      expect(code, output).toBe(0);
      expect(output).toContain(`uploading to ${server.url} as pi (dj)`);
      const uploaded = Number(/stopped: (\d+) chunks uploaded, nothing left to send/.exec(output)?.[1]);
      expect(uploaded).toBeGreaterThanOrEqual(3);
      const sessionId = /recording session (\S+) from/.exec(output)?.[1];

      const list = await httpsRequest(`${server.url}/api/recordings/`, {
        ca: cert,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(list.status).toBe(200);
      const { recordings } = JSON.parse(list.body) as {
        recordings: Array<{ session_id: string; chunk_count: number; source: string }>;
      };
      expect(recordings).toEqual([
        expect.objectContaining({ session_id: sessionId, chunk_count: uploaded, source: 'device' }),
      ]);
      expect(fs.readdirSync(spoolDir)).toEqual([]);
    } finally {
      fs.rmSync(spoolDir, { recursive: true, force: true });
      fs.rmSync(caFile, { force: true });
    }
  }, 120_000);

  it('keeps its certificate across restarts, so phones accept it once', async () => {
    server.child.kill('SIGTERM');
    expect((await withTimeout(server.exited, 30_000, 'shutdown')).code).toBe(0);
    server = await start(dataDir, {}, { args: ['--public', '--hostname', 'venue.test'], https: true });
    await printed(server, /check this fingerprint/);
    expect(fs.readFileSync(path.join(dataDir, TLS_DIR, CERT_FILE), 'utf8')).toBe(cert);
    expect(server.output()).not.toContain('Made a');
    expect((await httpsRequest(`${server.url}/api/health`, { ca: cert })).status).toBe(200);
  }, 120_000);
});

describe('wcs serve on every interface without TLS', () => {
  it('says so loudly and names the real address', async () => {
    const dataDir = newDataDir();
    const server = await start(dataDir, { HOST: '0.0.0.0' });
    try {
      const port = portOf(server.url);
      await printed(server, /WARNING/);
      expect(server.output()).toMatch(
        new RegExp(`listening on http://0\\.0\\.0\\.0:${port} \\(every network interface, embedded`),
      );
      expect(server.output()).toContain(
        '[wcs] WARNING: listening on 0.0.0.0 WITHOUT TLS: anyone on this network can reach the server and read what it sends, passwords and tokens included. Use "wcs serve --public" (TLS), or HOST=127.0.0.1 to stay on this machine.',
      );
      expect(server.output()).not.toContain('scan this code');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 120_000);
});
