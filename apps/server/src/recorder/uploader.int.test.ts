/**
 * The uploader against the real app listening on a real port: a server that is down for a while,
 * a chunk the server refuses, chunks resumed from the spool by a later run, a token revoked before
 * or during a run (stops, spool kept), and `wcs record` as a process (a paced live input, uploads
 * while recording, SIGTERM: last partial chunk sent, exit 0; no token or a revoked one: exit 1).
 * Uploading over TLS to `wcs serve --public` is in cli/serve-public.int.test.ts.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeAudio } from '../audio/decode.js';
import { findFreePort } from '../db/embedded.js';
import { recordingChunks, recordings } from '../db/schema.js';
import { revokeToken } from '../services/accounts/tokens.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { chunkFiles, deviceToken, spoolSession, tempDir, waitFor } from '../test/recorder-support.js';
import { startCapture } from './capture.js';
import { RecorderDeniedError, runRecorder } from './recorder.js';
import { REJECTED_DIR, type SessionInfo, Spool } from './spool.js';
import { type ServerTarget, serverTarget, Uploader } from './uploader.js';

interface ListeningApp {
  test: TestApp;
  url: string;
  port: number;
  /** A dj device token made for the recorder, and its id (to revoke it). */
  token: string;
  tokenId: number;
  /** The server as the uploader reaches it, with the token. */
  target: ServerTarget;
  /** Starts listening (on the port chosen up front). */
  listen(): Promise<void>;
}

/** A whole app on its own database; its port is known before it listens, so it can start "late". */
async function appOnPort(): Promise<ListeningApp> {
  const test = await createTestApp();
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const device = await deviceToken(test.deps.db);
  return {
    test,
    port,
    url,
    token: device.token,
    tokenId: device.id,
    target: serverTarget({ server: url, token: device.token }),
    async listen() {
      await test.app.listen({ port, host: '127.0.0.1' });
    },
  };
}

/** The chunks the server stored for a session, in the order they arrived (row ids). */
async function storedChunks(test: TestApp, sessionId: string) {
  return test.deps.db
    .select({
      id: recordingChunks.id,
      chunkNumber: recordingChunks.chunkNumber,
      durationSeconds: recordingChunks.durationSeconds,
      sizeBytes: recordingChunks.sizeBytes,
      recordedAt: recordingChunks.recordedAt,
      filename: recordings.filename,
      source: recordings.source,
      eventId: recordings.eventId,
    })
    .from(recordingChunks)
    .innerJoin(recordings, eq(recordings.id, recordingChunks.recordingId))
    .where(eq(recordings.sessionId, sessionId))
    .orderBy(asc(recordingChunks.id));
}

const apps: ListeningApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.test.close();
});

async function newApp() {
  const app = await appOnPort();
  apps.push(app);
  return app;
}

const quiet = () => {
  const lines: string[] = [];
  return { lines, log: (line: string) => lines.push(line) };
};

/**
 * A test's budget: its ffmpeg runs, child processes and servers took 5-11 s each at a load of 15
 * on two cores, a third of vitest's 30 s; the CI machine is loaded like that.
 */
const HEAVY_TEST_MS = 120_000;
describe('uploader', { timeout: HEAVY_TEST_MS }, () => {
  it('waits while the server is down, then delivers every chunk exactly once and in order', async () => {
    const server = await newApp();
    const spool = new Spool(tempDir('wcs-spool-'));
    const first = await spoolSession(spool, { seconds: 7, chunkSeconds: 2 });
    const second = await spoolSession(spool, { seconds: 3, chunkSeconds: 2 });
    const { lines, log } = quiet();
    const created: string[] = [];
    let waits = 0;
    const uploader = new Uploader({
      server: server.target,
      spool,
      log,
      initialBackoffMs: 50,
      maxBackoffMs: 200,
      events: {
        uploaded: (chunk, outcome) =>
          created.push(`${chunk.session.session_id}#${chunk.chunkNumber}:${outcome.created}`),
        waiting: () => {
          waits += 1;
        },
      },
    });
    const running = uploader.run();
    await waitFor(() => waits >= 3, 10_000, 'the uploader to retry against the closed port');
    expect(created).toEqual([]);
    expect(
      lines.some((line) =>
        /^server unreachable \(ECONNREFUSED\), 6 chunks waiting, retrying in 0\.\d+s$/.test(line),
      ),
    ).toBe(true);
    // Backoff is exponential and capped.
    expect(lines.filter((line) => line.includes('retrying in 0.2s')).length).toBeGreaterThan(0);
    expect(lines.some((line) => /retrying in 0\.[3-9]/.test(line))).toBe(false);

    await server.listen();
    uploader.finish(Date.now() + 20_000);
    expect(await running).toEqual({ left: 0 });

    expect(created).toEqual([
      ...[0, 1, 2, 3].map((n) => `${first.session_id}#${n}:true`),
      ...[0, 1].map((n) => `${second.session_id}#${n}:true`),
    ]);
    const stored = await storedChunks(server.test, first.session_id);
    expect(stored.map((chunk) => chunk.chunkNumber)).toEqual([0, 1, 2, 3]);
    expect(stored.map((chunk) => chunk.durationSeconds.toFixed(2))).toEqual(['2.00', '2.00', '2.00', '1.01']);
    expect(stored.map((chunk) => chunk.recordedAt.getTime() - Date.parse(first.started_at))).toEqual([
      0, 2000, 4000, 6000,
    ]);
    expect(stored.every((chunk) => chunk.source === 'device' && chunk.filename === first.filename)).toBe(
      true,
    );
    const secondStored = await storedChunks(server.test, second.session_id);
    expect(secondStored.map((chunk) => chunk.chunkNumber)).toEqual([0, 1]);
    // Arrival order: the older session first.
    expect(secondStored[0]!.id).toBeGreaterThan(stored[3]!.id);
    // Everything sent leaves the spool, session folders included.
    expect(fs.readdirSync(spool.dir)).toEqual([]);
    expect(lines.filter((line) => line.startsWith('uploaded chunk')).length).toBe(6);
    expect(lines.some((line) => /^the server answers again \(after \d+(\.\d)?s\)$/.test(line))).toBe(true);
  });

  it('sets aside a chunk the server refuses and sends the rest', async () => {
    const server = await newApp();
    await server.listen();
    const spool = new Spool(tempDir('wcs-spool-'));
    const session = await spoolSession(spool, { seconds: 5, chunkSeconds: 2 });
    const badChunk = path.join(spool.sessionDir(session.session_id), 'chunk-000001.ogg');
    fs.writeFileSync(badChunk, 'this is not audio at all, but a note someone saved over the chunk');
    const { lines, log } = quiet();
    const uploader = new Uploader({
      server: server.target,
      spool,
      log,
      initialBackoffMs: 50,
      maxBackoffMs: 200,
    });
    uploader.finish(Date.now() + 20_000);
    expect(await uploader.run()).toEqual({ left: 0 });

    expect((await storedChunks(server.test, session.session_id)).map((chunk) => chunk.chunkNumber)).toEqual([
      0, 2,
    ]);
    expect(uploader.rejectedCount).toBe(1);
    const asideDir = path.join(spool.dir, REJECTED_DIR, session.session_id);
    expect(chunkFiles(asideDir)).toEqual(['chunk-000001.ogg']);
    const reason = fs.readFileSync(path.join(asideDir, 'chunk-000001.ogg.reason.txt'), 'utf8');
    expect(reason).toMatch(/refused it \(415\): audio_file is not audio this server can read/);
    expect(lines.some((line) => line.startsWith(`set aside chunk 1 of session ${session.session_id}`))).toBe(
      true,
    );
    expect(fs.existsSync(spool.sessionDir(session.session_id))).toBe(false);
  });

  it('sends the chunk a crash left unlisted, measured by decoding it', async () => {
    const server = await newApp();
    await server.listen();
    const spoolDir = tempDir('wcs-spool-');
    const spool = new Spool(spoolDir);
    const session: SessionInfo = {
      session_id: `crash-${process.pid}`,
      started_at: new Date(Date.now() - 60_000).toISOString(),
      event_id: null,
      filename: 'crashed recording',
      chunk_seconds: 3,
    };
    const dir = await spool.createSession(session);
    const capture = startCapture({
      source: { kind: 'input', spec: 'lavfi:sine=f=330', realtime: true },
      dir,
      chunkSeconds: 3,
    });
    // Kill ffmpeg without warning inside its second chunk (or a later one), once some audio of that
    // chunk is on disk (its header alone is about 0.5 kB): that chunk is never listed. Not after a
    // fixed 2.5 s of its 3: a loaded machine could wake that late into the next chunk, with no audio.
    const lastHasAudio = () => {
      const files = chunkFiles(dir);
      return files.length >= 2 && fs.statSync(path.join(dir, files.at(-1)!)).size >= 2048;
    };
    await waitFor(lastHasAudio, 15_000, 'audio in the second chunk file');
    process.kill(capture.pid!, 'SIGKILL');
    await capture.exited;
    const files = chunkFiles(dir);
    const unlisted = files.at(-1)!;
    expect(fs.readFileSync(path.join(dir, 'chunks.csv'), 'utf8')).not.toContain(unlisted);

    // A new run (a new Spool object: nothing active) picks it up.
    const { log } = quiet();
    const uploader = new Uploader({ server: server.target, spool: new Spool(spoolDir), log });
    uploader.finish(Date.now() + 20_000);
    expect(await uploader.run()).toEqual({ left: 0 });
    const stored = await storedChunks(server.test, session.session_id);
    expect(stored.map((chunk) => chunk.chunkNumber)).toEqual(files.map((_, i) => i));
    const last = stored.at(-1)!;
    expect(last.durationSeconds).toBeGreaterThan(0);
    expect(last.durationSeconds).toBeLessThan(3);
    const storedFile = (
      await server.test.deps.pool.query<{ file_path: string }>(
        'select file_path from recording_chunks where id = $1',
        [last.id],
      )
    ).rows[0]!.file_path;
    const decoded = await decodeAudio(path.join(server.test.deps.config.recordingsDir, storedFile), {
      sampleRate: 8000,
    });
    expect(Math.abs(decoded.length / 8000 - last.durationSeconds)).toBeLessThan(0.01);
  });
});

describe('wcs record (runRecorder)', { timeout: HEAVY_TEST_MS }, () => {
  it('keeps what it could not send and sends it first on the next start, with its session and numbers', async () => {
    const server = await newApp();
    const spoolDir = tempDir('wcs-spool-');
    const firstRun = quiet();
    const first = await runRecorder(
      {
        server: server.url,
        token: server.token,
        spoolDir,
        source: { kind: 'input', spec: 'lavfi:sine=f=440:d=5', realtime: false },
        chunkSeconds: 2,
        drainMs: 300,
        log: firstRun.log,
        initialBackoffMs: 50,
        maxBackoffMs: 100,
      },
      new AbortController().signal,
    );
    expect(first).toMatchObject({ uploaded: 0, left: 3, exitCode: 0 });
    expect(firstRun.lines.at(-1)).toBe(
      `stopped: 0 chunks uploaded, 3 left in ${spoolDir} (sent on the next start)`,
    );
    expect(chunkFiles(path.join(spoolDir, first.session.session_id))).toHaveLength(3);

    await server.listen();
    const secondRun = quiet();
    const second = await runRecorder(
      {
        server: server.url,
        token: server.token,
        spoolDir,
        source: { kind: 'input', spec: 'lavfi:sine=f=660:d=3', realtime: false },
        chunkSeconds: 2,
        drainMs: 20_000,
        log: secondRun.log,
        pollMs: 50,
      },
      new AbortController().signal,
    );
    expect(second).toMatchObject({ uploaded: 5, left: 0, exitCode: 0 });
    expect(second.session.session_id).not.toBe(first.session.session_id);
    expect(firstRun.lines[0]).toBe('could not check the token: the server does not answer yet');
    expect(secondRun.lines.slice(0, 2)).toEqual([
      `uploading to ${server.url} as test-recorder (dj)`,
      'resuming the unsent chunks of 1 earlier session',
    ]);
    const resumed = await storedChunks(server.test, first.session.session_id);
    const fresh = await storedChunks(server.test, second.session.session_id);
    expect(resumed.map((chunk) => chunk.chunkNumber)).toEqual([0, 1, 2]);
    expect(fresh.map((chunk) => chunk.chunkNumber)).toEqual([0, 1]);
    expect(fresh[0]!.id).toBeGreaterThan(resumed[2]!.id);
    expect(resumed[0]!.recordedAt.toISOString()).toBe(first.session.started_at);
    expect(fs.readdirSync(spoolDir)).toEqual([]);
  });

  it('refuses to start for an event the server does not have, and a spool another recorder holds', async () => {
    const server = await newApp();
    await server.listen();
    const spoolDir = tempDir('wcs-spool-');
    const options = {
      server: server.url,
      token: server.token,
      spoolDir,
      source: { kind: 'input' as const, spec: 'lavfi:sine=d=1', realtime: false },
      chunkSeconds: 2,
      // Ends once its chunk is sent: room for an upload on a loaded machine, not a 1 s deadline.
      drainMs: 30_000,
      log: () => {},
    };
    await expect(runRecorder({ ...options, eventId: 424242 }, new AbortController().signal)).rejects.toThrow(
      /event 424242 does not exist on http:\/\/127\.0\.0\.1:\d+: check --event/,
    );
    // A live process (our parent) holds the lock.
    fs.writeFileSync(path.join(spoolDir, 'record.lock'), `${process.ppid}\n`);
    await expect(runRecorder(options, new AbortController().signal)).rejects.toThrow(
      /in use by another "wcs record" \(pid \d+\)/,
    );
    // A dead one does not.
    fs.writeFileSync(path.join(spoolDir, 'record.lock'), '999999999\n');
    expect(await runRecorder(options, new AbortController().signal)).toMatchObject({ uploaded: 1, left: 0 });
    expect(fs.existsSync(path.join(spoolDir, 'record.lock'))).toBe(false);
  });
});

describe('a token the server refuses', { timeout: HEAVY_TEST_MS }, () => {
  const revokedMessage =
    /^The token test-recorder was revoked on \d{4}-\d\d-\d\dT[\d:.]+Z: ask an admin for a new one$/;

  it('stops the uploader at once and keeps every chunk in the spool, nothing set aside', async () => {
    const server = await newApp();
    await server.listen();
    const spool = new Spool(tempDir('wcs-spool-'));
    const session = await spoolSession(spool, { seconds: 5, chunkSeconds: 2 });
    await revokeToken(server.test.deps.db, server.tokenId);
    const { lines, log } = quiet();
    const uploader = new Uploader({ server: server.target, spool, log, initialBackoffMs: 50 });
    // No finish(): only the refusal ends the run.
    const result = await uploader.run();
    expect(result).toEqual({
      left: 3,
      denied: { status: 401, message: expect.stringMatching(revokedMessage) },
    });
    expect(chunkFiles(spool.sessionDir(session.session_id))).toEqual([
      'chunk-000000.ogg',
      'chunk-000001.ogg',
      'chunk-000002.ogg',
    ]);
    expect(fs.existsSync(path.join(spool.dir, REJECTED_DIR))).toBe(false);
    expect(uploader.rejectedCount).toBe(0);
    expect(lines.at(-1)).toMatch(
      /^the server refuses this recorder \(401\): The token test-recorder was revoked on .+: ask an admin for a new one; 3 chunks kept in .+ for the next start$/,
    );
    expect(await storedChunks(server.test, session.session_id)).toEqual([]);
  });

  it('when revoked during a run: stops the capture, exit code 1, the unsent chunks stay and a new token sends them', async () => {
    const server = await newApp();
    await server.listen();
    const spoolDir = tempDir('wcs-spool-');
    const { lines, log } = quiet();
    let revoking: Promise<unknown> | undefined;
    const result = await runRecorder(
      {
        server: server.url,
        token: server.token,
        spoolDir,
        // Endless and paced: only the refusal (or a bug) ends this run.
        source: { kind: 'input', spec: 'lavfi:sine=f=550', realtime: true },
        chunkSeconds: 1,
        drainMs: 20_000,
        log,
        pollMs: 50,
        events: {
          uploaded: () => {
            revoking ??= revokeToken(server.test.deps.db, server.tokenId);
          },
        },
      },
      new AbortController().signal,
    );
    await revoking;
    expect(result.exitCode).toBe(1);
    expect(result.denied).toEqual({ status: 401, message: expect.stringMatching(revokedMessage) });
    expect(result.uploaded).toBeGreaterThanOrEqual(1);
    expect(result.left).toBeGreaterThanOrEqual(1);
    expect(lines).toContain('stopping the capture: the server refuses this recorder');
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^stopped: the server refuses this recorder \\(401\\): The token test-recorder was revoked on .+: ask an admin for a new one\\. ${result.uploaded} chunks? uploaded, ${result.left} kept in ${spoolDir}: start again with a valid token \\(--token or WCS_TOKEN\\) to send them$`,
      ),
    );
    const sessionDir = path.join(spoolDir, result.session.session_id);
    expect(chunkFiles(sessionDir)).toHaveLength(result.left);
    expect(fs.existsSync(path.join(spoolDir, REJECTED_DIR))).toBe(false);

    // The next start with a valid token sends what was kept, in order after what was sent.
    const fresh = await deviceToken(server.test.deps.db, { name: 'test-recorder-2' });
    const next = await runRecorder(
      {
        server: server.url,
        token: fresh.token,
        spoolDir,
        source: { kind: 'input', spec: 'lavfi:sine=f=660:d=1', realtime: false },
        chunkSeconds: 1,
        drainMs: 20_000,
        log: () => {},
        pollMs: 50,
      },
      new AbortController().signal,
    );
    expect(next).toMatchObject({ exitCode: 0, left: 0, denied: null });
    const stored = await storedChunks(server.test, result.session.session_id);
    expect(stored.map((chunk) => chunk.chunkNumber)).toEqual(
      Array.from({ length: result.uploaded + result.left }, (_, i) => i),
    );
    expect(fs.readdirSync(spoolDir)).toEqual([]);
  });

  it('refuses to start with a revoked token, or one whose role may not upload, and leaves the spool as it was', async () => {
    const server = await newApp();
    await server.listen();
    const spoolDir = tempDir('wcs-spool-');
    const earlier = await spoolSession(new Spool(spoolDir), { seconds: 3, chunkSeconds: 2 });
    const options = {
      server: server.url,
      spoolDir,
      source: { kind: 'input' as const, spec: 'lavfi:sine=d=1', realtime: false },
      chunkSeconds: 2,
      drainMs: 1000,
      log: () => {},
    };
    const viewer = await deviceToken(server.test.deps.db, { name: 'test-viewer', role: 'viewer' });
    const asViewer = runRecorder({ ...options, token: viewer.token }, new AbortController().signal);
    await expect(asViewer).rejects.toThrow(RecorderDeniedError);
    await expect(asViewer).rejects.toThrow(
      `the token test-viewer has the role viewer, which may not upload recordings: ask an admin for a token of role dj ("wcs token create --name <device> --role dj") (unsent chunks stay in ${spoolDir})`,
    );
    await revokeToken(server.test.deps.db, server.tokenId);
    await expect(
      runRecorder({ ...options, token: server.token }, new AbortController().signal),
    ).rejects.toThrow(
      /^the server http:\/\/127\.0\.0\.1:\d+ refuses this recorder \(401\): The token test-recorder was revoked on .+: ask an admin for a new one \(unsent chunks stay in .+\)$/,
    );
    // Only the earlier session, untouched; the lock released.
    expect(fs.readdirSync(spoolDir)).toEqual([earlier.session_id]);
    expect(chunkFiles(path.join(spoolDir, earlier.session_id))).toEqual([
      'chunk-000000.ogg',
      'chunk-000001.ogg',
    ]);
    expect(await storedChunks(server.test, earlier.session_id)).toEqual([]);
  });
});

const serverDir = path.resolve(import.meta.dirname, '../..');

/** `wcs record` from the sources, to its exit. */
function recordProcess(args: string[], env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'src/cli.ts', 'record', ...args],
    {
      cwd: serverDir,
      env: { ...process.env, WCS_TOKEN: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (data: Buffer) => {
    output += data.toString();
  });
  child.stderr.on('data', (data: Buffer) => {
    output += data.toString();
  });
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, output })),
  );
}

describe('wcs record (process)', { timeout: HEAVY_TEST_MS }, () => {
  it("needs a token, takes it from WCS_TOKEN too, and exits 1 with the server's message when it is revoked", async () => {
    const app = await newApp();
    await app.listen();
    const spoolDir = tempDir('wcs-spool-cli-');
    const args = ['--server', app.url, '--input', 'lavfi:sine=d=1', '--spool', spoolDir];
    const missing = await recordProcess(args);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain(
      'wcs: wcs record needs a device token: on the server run "wcs token create --name <device> --role dj" (or Settings, Tokens), then pass it with --token or WCS_TOKEN',
    );
    await revokeToken(app.test.deps.db, app.tokenId);
    const revoked = await recordProcess(args, { WCS_TOKEN: app.token });
    expect(revoked.code).toBe(1);
    expect(revoked.output).toMatch(
      /wcs: the server http:\/\/127\.0\.0\.1:\d+ refuses this recorder \(401\): The token test-recorder was revoked on .+: ask an admin for a new one/,
    );
  });

  it('uploads while recording and on SIGTERM sends the last partial chunk, then exits 0', async () => {
    const app = await newApp();
    await app.listen();
    const spoolDir = tempDir('wcs-spool-cli-');
    const child = spawn(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        'src/cli.ts',
        'record',
        '--server',
        app.url,
        '--token',
        app.token,
        '--input',
        'lavfi:sine=f=440',
        '--realtime',
        '--chunk-seconds',
        '1',
        '--spool',
        spoolDir,
      ],
      { cwd: serverDir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString();
    });
    child.stderr.on('data', (data: Buffer) => {
      output += data.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await waitFor(() => /uploaded chunk 1 of session/.test(output), 30_000, `two uploads, got:\n${output}`);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
    const sessionId = /recording session (\S+) from lavfi:sine=f=440 in 1 s chunks to http/.exec(output)?.[1];
    expect(sessionId).toBeDefined();
    expect(output).toContain('SIGTERM: finishing the last chunk and uploading what is left');
    const uploaded = /stopped: (\d+) chunks uploaded, nothing left to send/.exec(output);
    expect(uploaded, output).not.toBeNull();

    const stored = await storedChunks(app.test, sessionId!);
    expect(stored.map((chunk) => chunk.chunkNumber)).toEqual(stored.map((_, i) => i));
    expect(stored.length).toBe(Number(uploaded![1]));
    expect(stored.length).toBeGreaterThanOrEqual(3);
    for (const chunk of stored.slice(0, -1)) expect(chunk.durationSeconds).toBeCloseTo(1, 2);
    expect(stored.at(-1)!.durationSeconds).toBeLessThanOrEqual(1.01);
    // One line per uploaded chunk, and nothing left behind.
    expect(output.match(/ uploaded chunk \d+ of session /g)).toHaveLength(stored.length);
    expect(fs.readdirSync(spoolDir)).toEqual([]);
  });
});
