/**
 * Track-before-detect in the server's path, with real audio, PostgreSQL and ffmpeg: a library song
 * played under noise so loud that no chunk's windows make a play of it (a window of 15-45 here and
 * there, never a play) is uploaded chunk by chunk; the stream's tracking, kept from chunk to chunk,
 * verifies the song at the position its first window placed it in every later window and tells it
 * once its evidence reaches TRACK_BOUND (audio/fingerprint/tracking.ts). Checked: one play, at the
 * song's time; a chunk processed again (also without the tracking kept, as after a restart) adds
 * nothing; Retry rebuilds the same play.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, plays } from '../../db/schema.js';
import { chunkUpload } from '../../test/audio.js';
import { concat, roomize, synthSong, webmOpus, writeWav } from '../../test/fakes/songs.js';
import { addFingerprintedSong } from '../../test/library-songs.js';
import { type BackendTestApp, createBackendTestApp } from '../../test/storage-backends.js';
import { forgetDecodedTails, forgetTracking, processRecording } from './recognition.js';

const RATE = 22050;
const T0 = Date.parse('2026-11-21T21:00:00Z');
/**
 * How loud the song is against the room's noise (dB): at -17 the chunks' windows make a play of it
 * themselves, at -23 tracking finds it no more.
 */
const SNR_DB = -20;
let work: string;
let songFile: string;
const chunks: Buffer[] = [];

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-tracking-'));
  const gamma = synthSong(11, 150, RATE);
  songFile = path.join(work, 'gamma.wav');
  await writeWav(songFile, gamma, RATE);
  // The night: gamma from its start for 140 s under the crowd, then 10 s of the crowd alone.
  const night = roomize(concat(gamma.subarray(0, 140 * RATE), new Float32Array(10 * RATE)), RATE, SNR_DB, 4);
  for (let index = 0; index * 30 * RATE < night.length; index += 1) {
    const wav = path.join(work, `chunk-${index}.wav`);
    await writeWav(wav, night.subarray(index * 30 * RATE, (index + 1) * 30 * RATE), RATE);
    chunks.push(await webmOpus(wav, path.join(work, `chunk-${index}.webm`)));
  }
}, 120_000);

afterAll(async () => {
  if (work) await fs.rm(work, { recursive: true, force: true });
});

describe('a song heard only through its tracked hypothesis', () => {
  let t: BackendTestApp;
  let eventId: number;
  let songId: number;
  let recordingId: number;

  beforeAll(async () => {
    t = await createBackendTestApp('folder');
    songId = await addFingerprintedSong(
      t.deps.db,
      { file: songFile, title: 'Gamma Under Crowd' },
      t.deps.config.ffmpegPath,
    );
    const [event] = await t.deps.db
      .insert(events)
      .values({
        name: 'Loud Night',
        startDate: '2026-11-21',
        endDate: '2026-11-21',
        timezone: 'Europe/Berlin',
      })
      .returning({ id: events.id });
    eventId = event!.id;
    forgetDecodedTails();
    forgetTracking();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  const playsOf = () =>
    t.deps.db.select().from(plays).where(eq(plays.recordingId, recordingId)).orderBy(plays.startedAt);
  const seconds = (date: Date) => (date.getTime() - T0) / 1000;

  it('becomes one play at its time, from the evidence of windows across chunks', async () => {
    for (const [index, audio] of chunks.entries()) {
      const { body, contentType } = chunkUpload({
        session_id: 'loud-1',
        chunk_number: index,
        duration_seconds: 30,
        recorded_at: new Date(T0 + index * 30_000).toISOString(),
        audio,
        contentType: 'audio/webm',
        event_id: eventId,
      });
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/recordings/upload',
        payload: body,
        headers: { 'content-type': contentType },
      });
      expect(response.statusCode).toBe(200);
      recordingId = response.json().recording_id;
      // Each chunk recognised before the next is uploaded, as a phone's upload paces them.
      await processRecording(t.deps, recordingId, index);
    }
    const found = await playsOf();
    expect(found.map((play) => play.songId)).toEqual([songId]);
    const [gamma] = found;
    expect(gamma!.recognizer).toBe('library');
    // Where the song began as its best window heard it (0 s), to where it was last heard (the
    // song stops at 140 s; its last stretch's windows under 15).
    expect(Math.abs(seconds(gamma!.startedAt))).toBeLessThanOrEqual(3);
    expect(seconds(gamma!.endedAt!)).toBeGreaterThan(115);
    expect(seconds(gamma!.endedAt!)).toBeLessThanOrEqual(145);
  });

  it('adds nothing when chunks are processed again, with or without the tracking kept', async () => {
    const before = await playsOf();
    for (const index of [2, 3]) await processRecording(t.deps, recordingId, index);
    expect(await playsOf()).toEqual(before);
    forgetDecodedTails();
    forgetTracking();
    for (const index of [4, 1, 3]) await processRecording(t.deps, recordingId, index);
    expect(await playsOf()).toEqual(before);
  });

  it('rebuilds the same play on Retry', async () => {
    const before = await playsOf();
    forgetTracking();
    await processRecording(t.deps, recordingId);
    const rebuilt = await playsOf();
    expect(rebuilt.map((play) => [play.songId, play.startedAt.getTime(), play.endedAt?.getTime()])).toEqual(
      before.map((play) => [play.songId, play.startedAt.getTime(), play.endedAt?.getTime()]),
    );
  });
});
