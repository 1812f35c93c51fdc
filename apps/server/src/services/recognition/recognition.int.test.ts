/**
 * The upload-to-plays path with real audio: synthesised songs are fingerprinted into a test
 * library, a "night" made of them (through a room: echoes and noise) is cut into 30 s chunks,
 * encoded as Opus/WebM like the browser's, and uploaded through the real API; the pg-boss worker
 * recognises each chunk. Checked: plays and their times, one play for a song across chunk
 * boundaries, the live socket, idempotent re-runs and Retry, undecodable chunks, a recording
 * without an event, deletion. Each runs on both storage backends (the local folder, and S3-compatible
 * object storage against a local S3 server), so a chunk is read back from either for ffmpeg.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, plays, recordingChunks, recordings } from '../../db/schema.js';
import { chunkUpload } from '../../test/audio.js';
import { concat, roomize, synthSong, webmOpus, writeWav } from '../../test/fakes/songs.js';
import { addFingerprintedSong } from '../../test/library-songs.js';
import { type BackendTestApp, createBackendTestApp, STORAGE_BACKENDS } from '../../test/storage-backends.js';
import { chunkRelativePath } from '../recordings/recording-files.js';
import { forgetDecodedTails, processRecording } from './recognition.js';

const RATE = 22050;
const T0 = Date.parse('2026-11-20T21:00:00Z');
let work: string;
/** The library's songs as WAV files. */
const songFiles: Record<'alpha' | 'beta', string> = { alpha: '', beta: '' };
/** The night's chunks as uploaded (WebM/Opus), 30 s each. */
const chunks: Buffer[] = [];

type Message = { type: string; data: Record<string, unknown> };

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-recognition-'));
  const alpha = synthSong(1, 60, RATE);
  const beta = synthSong(2, 70, RATE);
  const unknown = synthSong(5, 60, RATE); // never indexed
  for (const [key, samples] of [
    ['alpha', alpha],
    ['beta', beta],
  ] as const) {
    songFiles[key] = path.join(work, `${key}.wav`);
    await writeWav(songFiles[key], samples, RATE);
  }
  // The night: alpha 0-45 s, beta 45-100 s, an unknown song 100-150 s; through a room at +10 dB SNR.
  const night = roomize(
    concat(alpha.subarray(0, 45 * RATE), beta.subarray(0, 55 * RATE), unknown.subarray(0, 50 * RATE)),
    RATE,
    10,
  );
  for (let index = 0; index * 30 * RATE < night.length; index += 1) {
    const wav = path.join(work, `chunk-${index}.wav`);
    await writeWav(wav, night.subarray(index * 30 * RATE, (index + 1) * 30 * RATE), RATE);
    chunks.push(await webmOpus(wav, path.join(work, `chunk-${index}.webm`)));
  }
}, 120_000);

afterAll(async () => {
  if (work) await fs.rm(work, { recursive: true, force: true });
});

describe.each(STORAGE_BACKENDS)('recognition with recordings in the %s backend', (backend) => {
  let t: BackendTestApp;
  let eventId: number;
  const songIds: Record<'alpha' | 'beta', number> = { alpha: 0, beta: 0 };

  beforeAll(async () => {
    t = await createBackendTestApp(backend);
    for (const [key, title] of [
      ['alpha', 'Alpha Groove'],
      ['beta', 'Beta Blues'],
    ] as const) {
      songIds[key] = await addFingerprintedSong(
        t.deps.db,
        { file: songFiles[key], title },
        t.deps.config.ffmpegPath,
      );
    }
    const [event] = await t.deps.db
      .insert(events)
      .values({
        name: 'Recognition Night',
        startDate: '2026-11-20',
        endDate: '2026-11-20',
        timezone: 'Europe/Berlin',
      })
      .returning({ id: events.id });
    eventId = event!.id;
    // Each backend's suite starts without the other's decoded chunk tails.
    forgetDecodedTails();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('timed out waiting');
  }

  const upload = (session: string, index: number, audio: Buffer, extra: Record<string, unknown> = {}) => {
    const { body, contentType } = chunkUpload({
      session_id: session,
      chunk_number: index,
      duration_seconds: 30,
      recorded_at: new Date(T0 + index * 30_000).toISOString(),
      audio,
      contentType: 'audio/webm',
      ...extra,
    });
    return t.app.inject({
      method: 'POST',
      url: '/api/recordings/upload',
      payload: body,
      headers: { 'content-type': contentType },
    });
  };
  const getRecording = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: `/api/recordings/${id}` })).json();
  const settled = (id: number, chunkCount: number) =>
    waitFor(async () => {
      const recording = await getRecording(id);
      return recording.chunk_count === chunkCount && (recording.processed || recording.error_message)
        ? recording
        : undefined;
    });
  const playsOf = (recordingId: number) =>
    t.deps.db.select().from(plays).where(eq(plays.recordingId, recordingId)).orderBy(plays.startedAt);
  const seconds = (date: Date | string) => (new Date(date).getTime() - T0) / 1000;

  describe('recognition of an uploaded session', () => {
    let recordingId: number;
    const received: Message[] = [];

    it('turns uploaded chunks into one play per song, live, with times from the chunks', async () => {
      const ws = await t.app.injectWS(
        '/api/ws/recordings/night-1',
        { headers: { host: 'localhost', authorization: `Bearer ${t.tokens.viewer}` } },
        {
          onInit: (socket) => socket.on('message', (raw) => received.push(JSON.parse(raw.toString()))),
        },
      );
      for (const [index, audio] of chunks.entries()) {
        const response = await upload('night-1', index, audio, { event_id: eventId });
        expect(response.statusCode).toBe(200);
        recordingId = response.json().recording_id;
      }
      const recording = await settled(recordingId, chunks.length);
      const stored = await playsOf(recordingId);
      expect(stored.map((play) => play.songId)).toEqual([songIds.alpha, songIds.beta]);
      const [alpha, beta] = stored;
      // alpha straddles chunk 0/1, beta chunks 1/2/3: one play each, start and end within a few seconds.
      expect(Math.abs(seconds(alpha!.startedAt) - 0)).toBeLessThanOrEqual(3);
      expect(Math.abs(seconds(alpha!.endedAt!) - 45)).toBeLessThanOrEqual(5);
      expect(Math.abs(seconds(beta!.startedAt) - 45)).toBeLessThanOrEqual(3);
      expect(Math.abs(seconds(beta!.endedAt!) - 100)).toBeLessThanOrEqual(5);
      // Where each song itself ends as heard (alpha, 60 s, from 0 s; beta, 70 s, from 45 s), kept with
      // the play for the chunks after (a play fills no further than its song lasts).
      expect(Math.abs(seconds(alpha!.songEndsAt!) - 60)).toBeLessThanOrEqual(3);
      expect(Math.abs(seconds(beta!.songEndsAt!) - 115)).toBeLessThanOrEqual(3);
      for (const play of stored) {
        expect(play).toMatchObject({
          source: 'recording',
          recognizer: 'library',
          eventId,
          timeWindow: '22-00',
        });
        expect(play.socialId).not.toBeNull();
        expect(play.confidence).toBeGreaterThan(0);
        expect(play.confidence).toBeLessThanOrEqual(1);
      }
      expect(recording.recognized_songs).toEqual([
        {
          song_id: songIds.alpha,
          title: 'Alpha Groove',
          artist: 'Synth Band',
          timestamp: alpha!.startedAt.toISOString(),
          ended_at: alpha!.endedAt!.toISOString(),
          confidence: alpha!.confidence,
        },
        expect.objectContaining({ song_id: songIds.beta, title: 'Beta Blues' }),
      ]);
      expect(recording.processed).toBe(true);
      // The unknown song at the end is no error: a night has songs outside the library.
      expect(recording.error_message).toBeNull();

      const live = await waitFor(async () => {
        const songsHeard = received.filter((message) => message.type === 'song_recognized');
        return songsHeard.length >= 2 ? songsHeard : undefined;
      });
      expect(live.map((message) => message.data.title)).toEqual(['Alpha Groove', 'Beta Blues']);
      expect(live[0]!.data).toMatchObject({ song_id: songIds.alpha, recording_id: recordingId });
      // Socket messages travel through pg_notify: the last one may arrive after the row says processed.
      const states = await waitFor(async () => {
        const seen = received
          .filter((message) => message.type === 'status')
          .map((message) => message.data.state);
        return seen.at(-1) === 'processed' ? seen : undefined;
      });
      expect(states).toContain('processing');
      ws.terminate();
      const chunkRows = await t.deps.db
        .select()
        .from(recordingChunks)
        .where(eq(recordingChunks.recordingId, recordingId));
      expect(chunkRows.every((chunk) => chunk.recognizedAt !== null && chunk.recognitionError === null)).toBe(
        true,
      );
    });

    it('adds nothing when a chunk is processed again', async () => {
      const before = await playsOf(recordingId);
      // Without the decoded tails in memory (as after a restart) the chunk before is decoded again.
      forgetDecodedTails();
      for (const index of [1, 2, 0]) await processRecording(t.deps, recordingId, index);
      expect(await playsOf(recordingId)).toEqual(before);
    });

    it('rebuilds the whole recording on Retry, with the same timeline and no duplicates', async () => {
      const before = await playsOf(recordingId);
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/tasks/recognition/process/${recordingId}`,
      });
      expect(response.statusCode).toBe(202);
      const rebuilt = await waitFor(async () => {
        const rows = await playsOf(recordingId);
        const recording = await getRecording(recordingId);
        return rows.length > 0 && rows[0]!.id !== before[0]!.id && recording.processed ? rows : undefined;
      });
      expect(rebuilt.map((play) => [play.songId, play.startedAt.getTime(), play.endedAt?.getTime()])).toEqual(
        before.map((play) => [play.songId, play.startedAt.getTime(), play.endedAt?.getTime()]),
      );
    });

    it('takes a play on to its song end once the stream has been heard 30 s past it', async () => {
      // beta (70 s, from 45 s: its song ends at 115 s as heard) is last heard at 100 s, where the
      // unknown song begins. Heard clearly, its play ends there (REACH_MAX_CONFIDENCE); as a play
      // heard through a crowd (confidence 0.5) it is taken on to 115 s, but only once the stream
      // is known to have been heard to 145 s (recognition-timeline.ts, REACH_HEARD_SECONDS):
      // processRecording passes how far (heardUntilOf: here all five chunks, to 150 s).
      const before = await playsOf(recordingId);
      const beta = before.find((play) => play.songId === songIds.beta)!;
      expect(Math.abs(seconds(beta.endedAt!) - 100)).toBeLessThanOrEqual(5);
      await t.deps.db.update(plays).set({ confidence: 0.5 }).where(eq(plays.id, beta.id));
      await processRecording(t.deps, recordingId, chunks.length - 1);
      const after = await playsOf(recordingId);
      expect(after.map((play) => play.id)).toEqual(before.map((play) => play.id));
      const taken = after.find((play) => play.id === beta.id)!;
      expect(Math.abs(seconds(taken.endedAt!) - seconds(beta.songEndsAt!))).toBeLessThanOrEqual(0.5);
      expect(seconds(taken.endedAt!)).toBeGreaterThan(seconds(beta.endedAt!) + 10);
    });

    it('deleting the recording removes its plays and its stored chunks', async () => {
      expect(await t.recordingFiles(recordingId)).toHaveLength(chunks.length);
      const response = await t.app.inject({ method: 'DELETE', url: `/api/recordings/${recordingId}` });
      expect(response.statusCode).toBe(200);
      expect(await playsOf(recordingId)).toEqual([]);
      expect(await t.recordingFiles(recordingId)).toEqual([]);
    });
  });

  describe('recordings that cannot be fully recognised', () => {
    it('says so when a chunk cannot be decoded, and still recognises the others', async () => {
      const first = await upload('broken-1', 0, chunks[0]!, { event_id: eventId });
      const recordingId = first.json().recording_id;
      await settled(recordingId, 1);
      // Uploads are decoded before they are stored, so an undecodable chunk only comes from storage
      // (a damaged file, or one stored by an earlier version): put one there, as its row says.
      const garbage = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(4000, 7)]);
      const sha256 = createHash('sha256').update(garbage).digest('hex');
      const filePath = chunkRelativePath(recordingId, 1, sha256, 'webm');
      await t.deps.storage.recordings.put(filePath, Readable.from([garbage]));
      expect((await t.readRecordingFile(filePath))?.equals(garbage)).toBe(true);
      await t.deps.db.insert(recordingChunks).values({
        recordingId,
        chunkNumber: 1,
        filePath,
        contentType: 'audio/webm',
        sizeBytes: garbage.length,
        sha256,
        durationSeconds: 30,
        recordedAt: new Date(T0 + 30_000),
      });
      await t.deps.db
        .update(recordings)
        .set({ chunkCount: 2, processed: false })
        .where(eq(recordings.id, recordingId));
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/tasks/recognition/process/${recordingId}` }))
          .statusCode,
      ).toBe(202);
      const recording = await settled(recordingId, 2);
      await waitFor(async () => ((await getRecording(recordingId)).processed ? true : undefined));
      const final = await getRecording(recordingId);
      expect(final.error_message).toMatch(/Chunk 1: undecodable audio/);
      expect(recording.recognized_songs.map((song: { title: string }) => song.title)).toEqual([
        'Alpha Groove',
      ]);
    });

    it('keeps the audio of a recording without an event, and recognises it once one is assigned', async () => {
      const first = await upload('no-event-1', 0, chunks[0]!);
      const recordingId = first.json().recording_id;
      const recording = await settled(recordingId, 1);
      expect(recording.error_message).toContain('has no event');
      expect(recording.recognized_songs).toEqual([]);
      const assign = await t.app.inject({
        method: 'PATCH',
        url: `/api/recordings/${recordingId}/event?event_id=${eventId}`,
      });
      expect(assign.statusCode).toBe(200);
      // Assigning the event queues recognition again by itself.
      const done = await waitFor(async () => {
        const current = await getRecording(recordingId);
        return current.recognized_songs.length > 0 ? current : undefined;
      });
      expect(done.recognized_songs[0]).toMatchObject({ song_id: songIds.alpha });
    });
  });
});
