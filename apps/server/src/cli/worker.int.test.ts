/**
 * Processes by role on one hosted PostgreSQL (docs/operations.md, "Several processes"): a
 * `wcs serve --no-jobs` takes uploads and queues their recognition, a separate `wcs worker` runs
 * it; and two `wcs serve` processes sharing one recordings folder recognise each other's uploads
 * (issue 24: a chunk uploaded to process 1 was looked for in process 2's own folder).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type Db } from '../db/client.js';
import { events } from '../db/schema.js';
import { createToken } from '../services/accounts/tokens.js';
import { concat, roomize, synthSong, webmOpus, writeWav } from '../test/fakes/songs.js';
import { addFingerprintedSong } from '../test/library-songs.js';
import {
  newDataDir,
  type Server,
  serverDir,
  start,
  useServerProcesses,
  withTimeout,
} from '../test/server-process.js';

useServerProcesses();

const RATE = 22050;
const T0 = Date.parse('2026-11-21T21:00:00Z');
let work: string;
/** alpha 0-45 s then beta 45-90 s, through a room: three 30 s WebM/Opus chunks. */
const chunks: Buffer[] = [];
let alphaWav: string;
let betaWav: string;
const admin = () => new pg.Client({ connectionString: inject('pgAdminUrl') });
const children = new Set<ChildProcess>();
const databases: string[] = [];

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-roles-'));
  const alpha = synthSong(1, 60, RATE);
  const beta = synthSong(2, 70, RATE);
  alphaWav = path.join(work, 'alpha.wav');
  betaWav = path.join(work, 'beta.wav');
  await writeWav(alphaWav, alpha, RATE);
  await writeWav(betaWav, beta, RATE);
  const night = roomize(concat(alpha.subarray(0, 45 * RATE), beta.subarray(0, 45 * RATE)), RATE, 10);
  for (let index = 0; index * 30 * RATE < night.length; index += 1) {
    const wav = path.join(work, `chunk-${index}.wav`);
    await writeWav(wav, night.subarray(index * 30 * RATE, (index + 1) * 30 * RATE), RATE);
    chunks.push(await webmOpus(wav, path.join(work, `chunk-${index}.webm`)));
  }
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  const client = admin();
  await client.connect();
  for (const name of databases) await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
  fs.rmSync(work, { recursive: true, force: true });
});

/** A fresh, empty database on the test run's PostgreSQL: the "hosted" one of these processes. */
async function freshDatabase(): Promise<string> {
  const name = `wcs_roles_${randomBytes(4).toString('hex')}`;
  const client = admin();
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  databases.push(name);
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

/** What a night needs in a migrated database: two songs in the index, an event, a dj's token. */
async function prepareLibrary(db: Db): Promise<{ eventId: number; token: string; songIds: number[] }> {
  const songIds: number[] = [];
  for (const [file, title] of [
    [alphaWav, 'Alpha Groove'],
    [betaWav, 'Beta Blues'],
  ] as const) {
    songIds.push(await addFingerprintedSong(db, { file, title }));
  }
  const [event] = await db
    .insert(events)
    .values({ name: 'Roles Night', startDate: '2026-11-21', endDate: '2026-11-21', timezone: 'UTC' })
    .returning({ id: events.id });
  const { token } = await createToken(db, { name: 'roles-recorder', role: 'dj' }, undefined);
  return { eventId: event!.id, token, songIds };
}

async function upload(
  url: string,
  token: string,
  session: string,
  index: number,
  eventId: number,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  form.append(
    'metadata',
    JSON.stringify({
      session_id: session,
      chunk_number: index,
      duration_seconds: 30,
      recorded_at: new Date(T0 + index * 30_000).toISOString(),
      source: 'device',
      event_id: eventId,
    }),
  );
  form.append('audio_file', new Blob([chunks[index]!], { type: 'audio/webm' }), `chunk-${index}.webm`);
  const response = await fetch(`${url}/api/recordings/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

interface RecordingState {
  processed: boolean;
  error_message: string | null;
  chunk_count: number;
}

async function recordingState(pool: pg.Pool, id: number): Promise<RecordingState> {
  const { rows } = await pool.query<RecordingState>(
    'select processed, error_message, chunk_count from recordings where id = $1',
    [id],
  );
  return rows[0]!;
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const playedSongs = async (pool: pg.Pool, recordingId: number) =>
  (
    await pool.query<{ song_id: number }>(
      'select distinct song_id from plays where recording_id = $1 order by song_id',
      [recordingId],
    )
  ).rows.map((row) => row.song_id);

/** `wcs worker`, as users run it (the built CLI), with its output kept. */
function launchWorker(dataDir: string, env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [path.join(serverDir, 'bin/wcs.js'), 'worker', '--data-dir', dataDir],
    {
      cwd: path.resolve(serverDir, '../..'),
      env: { ...process.env, LOG_LEVEL: 'warn', WCS_DATA_DIR: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    });
  });
  return { child, output: () => output, exited };
}

const stopped = async (server: { child: ChildProcess; exited: Server['exited'] }) => {
  server.child.kill('SIGTERM');
  return (await withTimeout(server.exited, 30_000, 'shutdown')).code;
};

describe('wcs serve --no-jobs and wcs worker', () => {
  it('a --no-jobs server takes the upload and only queues it; a separate wcs worker recognises it', async () => {
    const databaseUrl = await freshDatabase();
    // One recordings folder for both processes, each with its own data folder.
    const shared = newDataDir();
    const env = {
      DATABASE_URL: databaseUrl,
      WCS_RECORDINGS_DIR: path.join(shared, 'recordings'),
      WCS_PLAYLISTS_DIR: path.join(shared, 'playlists'),
    };
    const web = await start(newDataDir(), env, { args: ['--no-jobs'] });
    expect(web.output()).toContain('no background jobs here');
    const { pool, db } = createDatabase(databaseUrl, 2);
    try {
      const { eventId, token, songIds } = await prepareLibrary(db);
      const scheduled = async () =>
        (await pool.query<{ n: number }>('select count(*)::int as n from pgboss.schedule')).rows[0]!.n;
      // HTTP only: it scheduled nothing (`wcs serve` schedules the calendar's scrape).
      expect(await scheduled()).toBe(0);

      const first = await upload(web.url, token, 'roles-night', 0, eventId);
      expect(first.status).toBe(200);
      const recordingId = first.body.recording_id as number;
      // Queued, and nobody here takes it: its job stays created while the server runs alone.
      const jobStates = async () =>
        (
          await pool.query<{ state: string }>(
            `select state from pgboss.job where name = 'recording.process' and data->>'recording_id' = $1`,
            [String(recordingId)],
          )
        ).rows.map((row) => row.state);
      expect(await jobStates()).toEqual(['created']);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(await jobStates()).toEqual(['created']);
      expect(await recordingState(pool, recordingId)).toMatchObject({
        processed: false,
        error_message: null,
      });

      const worker = launchWorker(newDataDir(), env);
      for (const index of [1, 2])
        expect((await upload(web.url, token, 'roles-night', index, eventId)).status).toBe(200);
      const done = await until(async () => {
        const state = await recordingState(pool, recordingId);
        return state.chunk_count === 3 && (state.processed || state.error_message) ? state : undefined;
      }, 'the worker to recognise the recording');
      expect(done).toMatchObject({ processed: true, error_message: null });
      expect(await playedSongs(pool, recordingId)).toEqual(songIds);
      expect(worker.output()).toMatch(/worker is running the background jobs \(no HTTP/);
      expect(worker.output()).not.toMatch(/listening on/);
      // The worker's start scheduled what `wcs serve` schedules.
      expect(await scheduled()).toBe(1);

      expect(await stopped(worker)).toBe(0);
      expect(await stopped(web)).toBe(0);
    } finally {
      await pool.end();
    }
  }, 240_000);
});

describe('two wcs serve processes sharing one recordings folder', () => {
  it('recognise uploads spread over both, with no chunk looked for in the wrong folder', async () => {
    const databaseUrl = await freshDatabase();
    const shared = newDataDir();
    const env = {
      DATABASE_URL: databaseUrl,
      WCS_RECORDINGS_DIR: path.join(shared, 'recordings'),
      WCS_PLAYLISTS_DIR: path.join(shared, 'playlists'),
    };
    const [one, two] = [newDataDir(), newDataDir()];
    const servers = await Promise.all([start(one, env), start(two, env)]);
    const { pool, db } = createDatabase(databaseUrl, 2);
    try {
      const { eventId, token, songIds } = await prepareLibrary(db);
      // Two sessions, their chunks alternating between the processes.
      const ids: number[] = [];
      for (const [s, session] of ['shared-a', 'shared-b'].entries()) {
        for (const index of [0, 1, 2]) {
          const server = servers[(index + s) % 2]!;
          const answer = await upload(server.url, token, session, index, eventId);
          expect(answer.status).toBe(200);
          if (index === 0) ids.push(answer.body.recording_id as number);
        }
      }
      const settled = (id: number) =>
        until(async () => {
          const state = await recordingState(pool, id);
          return state.chunk_count === 3 && (state.processed || state.error_message) ? state : undefined;
        }, `recording ${id} to be recognised`);
      for (const id of ids) {
        expect(await settled(id)).toMatchObject({ processed: true, error_message: null });
        expect(await playedSongs(pool, id)).toEqual(songIds);
      }
      // A Retry rebuilds a recording from all its chunks in one job: whichever process runs it
      // reads the chunks the other one received.
      for (const [i, id] of ids.entries()) {
        const response = await fetch(`${servers[i % 2]!.url}/api/tasks/recognition/process/${id}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(response.status).toBeLessThan(300);
      }
      for (const id of ids) {
        expect(await settled(id)).toMatchObject({ processed: true, error_message: null });
        expect(await playedSongs(pool, id)).toEqual(songIds);
      }
      const { rows: failures } = await pool.query<{ recognition_error: string }>(
        'select recognition_error from recording_chunks where recognition_error is not null',
      );
      expect(failures).toEqual([]);
      // Every chunk is in the shared folder, none in either process's own data folder.
      const { rows: stored } = await pool.query<{ file_path: string }>(
        'select file_path from recording_chunks',
      );
      expect(stored).toHaveLength(6);
      for (const row of stored)
        expect(fs.existsSync(path.join(shared, 'recordings', row.file_path))).toBe(true);
      for (const own of [one, two]) expect(fs.existsSync(path.join(own, 'recordings'))).toBe(false);
      for (const server of servers) expect(await stopped(server)).toBe(0);
    } finally {
      await pool.end();
    }
  }, 240_000);
});
