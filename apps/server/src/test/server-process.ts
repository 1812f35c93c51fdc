import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { findFreePort } from '../db/embedded.js';
import { isProcessAlive } from '../processes.js';

/**
 * Runs the built `wcs serve` as a child process, as users run it, for tests of whole-process
 * behaviour (signals, crashes, locks). Call `useServerProcesses()` once at the top of a test file:
 * it builds the CLI before the tests and kills and removes everything after them.
 */
// The built command, as users run it: `wcs serve` from apps/server/bin/wcs.js and dist.
export const serverDir = path.resolve(import.meta.dirname, '../..');
const repoRoot = path.resolve(serverDir, '../..');
const wcsBin = path.join(serverDir, 'bin/wcs.js');
const execFileAsync = promisify(execFile);

const dataDirs: string[] = [];
const running = new Set<ChildProcess>();

export function newDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-serve-test-'));
  // As root, PostgreSQL runs as the postgres user, who must get through the folder (mkdtemp: 0700).
  fs.chmodSync(dir, 0o755);
  dataDirs.push(dir);
  return dir;
}

export interface Server {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface LaunchOptions {
  /** More flags for `wcs serve`, e.g. ['--public']. */
  args?: string[];
  /** The server speaks TLS (--public, WCS_TLS_CERT): its url is https. */
  https?: boolean;
}

export async function launch(
  dataDir: string,
  env: Record<string, string> = {},
  options: LaunchOptions = {},
): Promise<Server> {
  const port = await findFreePort();
  const args = [wcsBin, 'serve', '--port', String(port), '--data-dir', dataDir, ...(options.args ?? [])];
  // The developer's own address, name and certificate settings do not reach the test servers.
  const inherited = { ...process.env };
  for (const name of ['HOST', 'WCS_PUBLIC_HOSTNAME', 'WCS_ALLOWED_HOSTS', 'WCS_TLS_CERT', 'WCS_TLS_KEY']) {
    delete inherited[name];
  }
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...inherited, LOG_LEVEL: 'warn', DATABASE_URL: '', WCS_DATA_DIR: '', ...env },
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
  const scheme = options.https ? 'https' : 'http';
  return { child, url: `${scheme}://127.0.0.1:${port}`, output: () => output, exited };
}

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** SHA-256 of the certificate the server presented, AA:BB:... */
  fingerprint256: string;
}

/**
 * One https request with node's client. `ca` trusts that certificate alone (and checks the name
 * in `url` against it); `host` sends another Host header, the certificate's name then unchecked.
 */
export function httpsRequest(
  url: string,
  options: { ca?: string; host?: string; method?: string; headers?: Record<string, string> } = {},
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      {
        method: options.method ?? 'GET',
        headers: { ...options.headers, ...(options.host ? { host: options.host } : {}) },
        agent: false,
        ...(options.ca ? { ca: options.ca } : { rejectUnauthorized: false }),
        ...(options.host ? { servername: '', checkServerIdentity: () => undefined } : {}),
      },
      (response) => {
        const fingerprint256 = (response.socket as TLSSocket).getPeerCertificate().fingerprint256;
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, fingerprint256 }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

export async function health(url: string): Promise<number | null> {
  try {
    // Only whether it answers: the tests of TLS check the certificate themselves.
    if (url.startsWith('https:')) return (await httpsRequest(`${url}/api/health`)).status;
    return (await fetch(`${url}/api/health`)).status;
  } catch {
    return null;
  }
}

/** Starts `wcs serve` and waits until /api/health answers 200. */
export async function start(
  dataDir: string,
  env: Record<string, string> = {},
  options: LaunchOptions = {},
): Promise<Server> {
  const server = await launch(dataDir, env, options);
  let hasExited = false;
  void server.exited.then(() => {
    hasExited = true;
  });
  // A start with its embedded PostgreSQL takes seconds, but over 20 s at a load of 20-30 on 2 cores.
  const deadline = Date.now() + 60_000;
  while ((await health(server.url)) !== 200) {
    if (hasExited) throw new Error(`wcs serve exited while starting:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`wcs serve did not answer within 60 s:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return server;
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
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

export function postmasterPid(dataDir: string): number | null {
  try {
    return Number(fs.readFileSync(path.join(dataDir, 'pg/postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

export function adminUrl(dataDir: string, pgPort: number): string {
  const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  return `postgres://postgres:${password}@127.0.0.1:${pgPort}/wcs`;
}

export function useServerProcesses(): void {
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
}
