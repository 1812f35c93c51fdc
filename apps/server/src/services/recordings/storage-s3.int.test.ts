/**
 * Recordings and playlists in S3-compatible object storage (WCS_STORAGE=s3://...), through the
 * app, against a local S3 server speaking the protocol (test/fakes/s3-server.ts): what is
 * particular to objects (their keys, the requests made, a store that refuses, an object gone, the
 * start's recovery over objects, the playlists' files). The upload, recognition and deletion tests
 * of the folder backend run on this one too (recordings.int.test.ts,
 * recognition/recognition.int.test.ts and upload-durability.int.test.ts's kill -9, through
 * test/storage-backends.ts). Nothing of a recording is left on this machine's disk.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, playlists, plays, recordingChunks, recordings, songs } from '../../db/schema.js';
import { chunkUpload, sineWav, uploadInject } from '../../test/audio.js';
import { type FakeS3, startFakeS3 } from '../../test/fakes/s3-server.js';
import { concat, roomize, synthSong, webmOpus, writeWav } from '../../test/fakes/songs.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { addFingerprintedSong } from '../../test/library-songs.js';
import { forgetDecodedTails } from '../recognition/recognition.js';
import { forgetDecodedChunks } from './decoded-chunks.js';
import { recoverStoredRecordings } from './recording-recovery.js';

const RATE = 22050;
const T0 = Date.parse('2026-11-20T21:00:00Z');
const PREFIX = 'club';
let fake: FakeS3;
let t: TestApp;
let work: string;
let eventId: number;
const songIds: Record<'alpha' | 'beta', number> = { alpha: 0, beta: 0 };
/** A night (alpha 0-45 s, beta 45-90 s, through a room) as three 30 s WebM/Opus chunks. */
const chunks: Buffer[] = [];

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const objectKeys = (under: string) =>
  [...fake.objects.keys()].filter((key) => key.startsWith(`${PREFIX}/${under}`)).sort();
const objectOf = (recordingId: number) => objectKeys(`recordings/${recordingId}/`);

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('timed out waiting');
}

const uploadNight = (session: string, index: number, extra: Record<string, unknown> = {}) =>
  t.app.inject(
    uploadInject(
      chunkUpload({
        session_id: session,
        chunk_number: index,
        duration_seconds: 30,
        recorded_at: new Date(T0 + index * 30_000).toISOString(),
        audio: chunks[index]!,
        contentType: 'audio/webm',
        ...extra,
      }),
    ),
  );
const getRecording = async (id: number) =>
  (await t.app.inject({ method: 'GET', url: `/api/recordings/${id}` })).json();
const settled = (id: number, chunkCount: number) =>
  waitFor(async () => {
    const recording = await getRecording(id);
    return recording.chunk_count === chunkCount && (recording.processed || recording.error_message)
      ? recording
      : undefined;
  });
/** Every file under a folder of this machine, relative to it. */
async function localFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

beforeAll(async () => {
  fake = await startFakeS3();
  t = await createTestApp({ env: fake.env(PREFIX) });
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-s3-recognition-'));
  const alpha = synthSong(1, 60, RATE);
  const beta = synthSong(2, 70, RATE);
  for (const [key, samples, title] of [
    ['alpha', alpha, 'Alpha Groove'],
    ['beta', beta, 'Beta Blues'],
  ] as const) {
    const file = path.join(work, `${key}.wav`);
    await writeWav(file, samples, RATE);
    songIds[key] = await addFingerprintedSong(t.deps.db, { file, title }, t.deps.config.ffmpegPath);
  }
  const [event] = await t.deps.db
    .insert(events)
    .values({ name: 'S3 Night', startDate: '2026-11-20', endDate: '2026-11-20', timezone: 'Europe/Berlin' })
    .returning({ id: events.id });
  eventId = event!.id;
  const night = roomize(concat(alpha.subarray(0, 45 * RATE), beta.subarray(0, 45 * RATE)), RATE, 10);
  for (let index = 0; index * 30 * RATE < night.length; index += 1) {
    const wav = path.join(work, `chunk-${index}.wav`);
    await writeWav(wav, night.subarray(index * 30 * RATE, (index + 1) * 30 * RATE), RATE);
    chunks.push(await webmOpus(wav, path.join(work, `chunk-${index}.webm`)));
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
  if (work) await fs.rm(work, { recursive: true, force: true });
});

describe('recordings in object storage', () => {
  let recordingId: number;

  it('stores each chunk as an object before answering, keeps one copy of a retry, and nothing on local disk', async () => {
    const first = await uploadNight('s3-night', 0, { event_id: eventId });
    expect(first.statusCode).toBe(200);
    recordingId = first.json().recording_id;
    const keys = objectOf(recordingId);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`^${PREFIX}/recordings/${recordingId}/00000-[0-9a-f]{16}\\.webm$`));
    expect(sha256(fake.objects.get(keys[0]!)!.body)).toBe(sha256(chunks[0]!));
    const [row] = await t.deps.db
      .select()
      .from(recordingChunks)
      .where(eq(recordingChunks.recordingId, recordingId));
    expect(`${PREFIX}/recordings/${row!.filePath}`).toBe(keys[0]);
    // The staging folder is emptied; no recording folder exists on this machine.
    expect(await localFiles(t.deps.config.recordingsDir)).toEqual([]);

    const retry = await uploadNight('s3-night', 0, { event_id: eventId });
    expect(retry.json()).toMatchObject({ created: false, recording_id: recordingId });
    expect(objectOf(recordingId)).toEqual(keys);
    const conflict = await t.app.inject(
      uploadInject(chunkUpload({ session_id: 's3-night', chunk_number: 0, audio: sineWav(1, 333) })),
    );
    expect(conflict.statusCode).toBe(409);
    expect(objectOf(recordingId)).toEqual(keys);
  });

  it('recognises each chunk from the samples its upload decoded: no object is read back', async () => {
    const requestsBefore = fake.requests.length;
    for (const index of [1, 2]) {
      expect((await uploadNight('s3-night', index)).statusCode).toBe(200);
    }
    expect(objectOf(recordingId)).toHaveLength(3);
    const recording = await settled(recordingId, 3);
    expect(recording.error_message).toBeNull();
    const found = await t.deps.db.select().from(plays).where(eq(plays.recordingId, recordingId));
    expect(found.map((play) => play.songId).sort()).toEqual([songIds.alpha, songIds.beta].sort());
    // Each chunk went through ffmpeg once, at its upload (decoded-chunks.ts).
    const since = fake.requests.slice(requestsBefore);
    expect(since.filter((request) => request.operation === 'PutObject')).toHaveLength(2);
    expect(since.filter((request) => request.operation === 'GetObject')).toEqual([]);
  });

  it('recognises chunks read back from object storage, whichever process stored them', async () => {
    const before = await t.deps.db.select().from(plays).where(eq(plays.recordingId, recordingId));
    // As in a process that did not receive the uploads: nothing decoded in memory.
    forgetDecodedTails();
    forgetDecodedChunks();
    const requestsBefore = fake.requests.length;
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/tasks/recognition/process/${recordingId}`,
    });
    expect(retry.statusCode).toBe(202);
    const rebuilt = await waitFor(async () => {
      const rows = await t.deps.db.select().from(plays).where(eq(plays.recordingId, recordingId));
      const recording = await getRecording(recordingId);
      return rows.length > 0 && rows[0]!.id !== before[0]!.id && recording.processed ? rows : undefined;
    });
    expect(rebuilt.map((play) => play.songId).sort()).toEqual([songIds.alpha, songIds.beta].sort());
    const reads = fake.requests.slice(requestsBefore).filter((request) => request.operation === 'GetObject');
    expect(reads).toHaveLength(3);
    // The copies made for ffmpeg are gone.
    expect(await localFiles(t.deps.config.recordingsDir)).toEqual([]);
  });

  it('a chunk whose object is gone is reported as missing, the others still recognised', async () => {
    const [row] = await t.deps.db
      .select()
      .from(recordingChunks)
      .where(eq(recordingChunks.recordingId, recordingId))
      .orderBy(recordingChunks.chunkNumber);
    const saved = fake.objects.get(`${PREFIX}/recordings/${row!.filePath}`)!;
    fake.objects.delete(`${PREFIX}/recordings/${row!.filePath}`);
    forgetDecodedTails();
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/tasks/recognition/process/${recordingId}`,
    });
    expect(retry.statusCode).toBeLessThan(300);
    const failed = await waitFor(async () => {
      const recording = await getRecording(recordingId);
      return recording.error_message ? recording : undefined;
    });
    expect(failed.error_message).toMatch(/^Chunk 0: audio file missing \(.*no such file in s3:\/\//);
    expect(failed.recognized_songs.map((song: { song_id: number }) => song.song_id)).toContain(songIds.beta);
    fake.objects.set(`${PREFIX}/recordings/${row!.filePath}`, saved);
  });

  it('an upload is not acknowledged while the store refuses it, and leaves nothing', async () => {
    const before = [...fake.objects.keys()];
    const lift = fake.fail((request) => request.operation === 'PutObject', 503);
    try {
      const response = await t.app.inject(
        uploadInject(chunkUpload({ session_id: 's3-down', chunk_number: 0, audio: sineWav(1, 444) })),
      );
      expect(response.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      lift();
    }
    expect([...fake.objects.keys()]).toEqual(before);
    expect(await t.deps.db.select().from(recordings).where(eq(recordings.sessionId, 's3-down'))).toEqual([]);
    expect(await localFiles(t.deps.config.recordingsDir)).toEqual([]);
  });

  it('deleting a recording deletes its objects and nothing else', async () => {
    const other = await t.app.inject(
      uploadInject(chunkUpload({ session_id: 's3-other', chunk_number: 0, audio: sineWav(1, 555) })),
    );
    const otherId = other.json().recording_id as number;
    const otherKeys = objectOf(otherId);
    expect(otherKeys).toHaveLength(1);
    const response = await t.app.inject({ method: 'DELETE', url: `/api/recordings/${recordingId}` });
    expect(response.statusCode).toBe(200);
    expect(objectOf(recordingId)).toEqual([]);
    expect(objectOf(otherId)).toEqual(otherKeys);
    expect(fake.requests.some((request) => request.operation === 'DeleteObjects')).toBe(true);
  });
});

describe('the start over object storage', () => {
  it('re-attaches, removes second copies, moves unclaimed objects to lost+found and spares recent ones', async () => {
    const store = t.deps.storage.recordings;
    const stored = await t.app.inject(
      uploadInject(chunkUpload({ session_id: 's3-residue', chunk_number: 0, audio: sineWav(1, 700) })),
    );
    const id = stored.json().recording_id as number;
    const [chunk] = await t.deps.db.select().from(recordingChunks).where(eq(recordingChunks.recordingId, id));
    const bytes = fake.objects.get(`${PREFIX}/recordings/${chunk!.filePath}`)!.body;
    // The row's object under another name of the same chunk and hash (its own object gone), a second
    // copy of a stored chunk, an object no row claims, and a partial upload in the staging folder.
    const renamed = chunk!.filePath.replace(/\.wav$/, '.bin');
    await store.put(renamed, Readable.from([bytes]));
    await store.delete(chunk!.filePath);
    const other = await t.app.inject(
      uploadInject(chunkUpload({ session_id: 's3-twice', chunk_number: 0, audio: sineWav(1, 900) })),
    );
    const [otherChunk] = await t.deps.db
      .select()
      .from(recordingChunks)
      .where(eq(recordingChunks.recordingId, other.json().recording_id));
    const copy = otherChunk!.filePath.replace(/\.wav$/, '.ogg');
    await store.put(copy, await store.get(otherChunk!.filePath));
    await store.put(`${id}/00001-00000000000000aa.webm`, Readable.from([Buffer.from('no row claims me')]));
    await fs.mkdir(store.stagingDir, { recursive: true });
    await fs.writeFile(path.join(store.stagingDir, 'dead.part'), 'half an upload');

    // Another process may be mid-upload: nothing recent is touched.
    const spared = await recoverStoredRecordings(t.deps.db, store, { spareRecentMs: 60_000 });
    expect(spared).toMatchObject({ partialRemoved: 0, reattached: 0, duplicatesRemoved: 0, lostAndFound: 0 });

    const report = await recoverStoredRecordings(t.deps.db, store, {
      startedAt: new Date(Date.now() + 120_000),
      spareRecentMs: 60_000,
    });
    expect(report).toMatchObject({
      partialRemoved: 1,
      reattached: 1,
      duplicatesRemoved: 1,
      lostAndFound: 1,
      missingFiles: 0,
    });
    expect(report.lostAndFoundDir).toMatch(
      new RegExp(`^s3://${fake.bucket}/${PREFIX}/recordings/lost\\+found/`),
    );
    const [after] = await t.deps.db.select().from(recordingChunks).where(eq(recordingChunks.id, chunk!.id));
    expect(after!.filePath).toBe(renamed);
    expect(await store.stat(copy)).toBeNull();
    const lost = objectKeys('recordings/lost+found/');
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatch(new RegExp(`/${id}/00001-00000000000000aa\\.webm$`));
    expect(fake.objects.get(lost[0]!)!.body.toString()).toBe('no row claims me');
    expect(await store.stat(`${id}/00001-00000000000000aa.webm`)).toBeNull();
    expect(await fs.readdir(store.stagingDir)).toEqual([]);
  });
});

describe('playlists in object storage', () => {
  it('writes the M3U8 files as objects and serves them from there', async () => {
    const rows = await t.deps.db
      .insert(songs)
      .values(
        [1, 2, 3, 4, 5].map((n) => ({
          title: `Cloud ${n}`,
          artist: 'Anonymous',
          searchKey: `cloud ${n} anonymous`,
          filePresent: true,
          filePath: `/music/cloud-${n}.mp3`,
          analyzedAt: new Date('2026-01-01T00:00:00Z'),
          durationMs: 200_000,
          bpm: 100,
          energyLevel: 500,
        })),
      )
      .returning({ id: songs.id });
    await t.deps.db.insert(plays).values(
      rows.map((row) => ({
        songId: row.id,
        eventId,
        startedAt: new Date('2026-01-01T21:00:00Z'),
        timeWindow: '20-22' as const,
        source: 'manual' as const,
      })),
    );
    const regenerated = await t.app.inject({ method: 'POST', url: '/api/playlists/regenerate' });
    expect(regenerated.statusCode).toBe(200);
    const keys = objectKeys('playlists/');
    expect(keys).toContain(`${PREFIX}/playlists/Unknown - Unknown - 20-22 - Mid energy.m3u8`);
    expect(await localFiles(t.deps.config.playlistsDir)).toEqual([]);
    const [playlist] = await t.deps.db
      .select({ id: playlists.id })
      .from(playlists)
      .where(eq(playlists.name, 'Unknown · Unknown · 20-22 · Mid energy'));
    const file = await t.app.inject({ method: 'GET', url: `/api/playlists/${playlist!.id}/m3u8` });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe(
      fake.objects.get(`${PREFIX}/playlists/Unknown - Unknown - 20-22 - Mid energy.m3u8`)!.body.toString(),
    );
    expect(file.body).toContain('/music/cloud-1.mp3');
  });
});
