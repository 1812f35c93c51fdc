/**
 * The cloud step end to end: a song the library lacks is uploaded as a recording; the stretches
 * our index cannot place go as clips to local ACRCloud and AudD fakes (answering in their
 * documented formats and checking signature and token), and the song named becomes a song without
 * a file with its external ids, its play recognised by that provider. Provider failures end up on
 * the recording, not in a crashed job.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, plays, songs } from '../../db/schema.js';
import { chunkUpload } from '../../test/audio.js';
import {
  type AcrAnswer,
  type AuddAnswer,
  acrError,
  acrNoResult,
  acrSuccess,
  auddError,
  auddSuccess,
  type FakeServer,
  startAcrCloudFake,
  startAuddFake,
} from '../../test/fakes/cloud-fakes.js';
import { roomize, synthSong, webmOpus, writeWav } from '../../test/fakes/songs.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

const RATE = 22050;
const T0 = Date.parse('2026-11-21T20:30:00Z');
const credentials = { accessKey: 'acr-key', accessSecret: 'acr-secret' };
let t: TestApp;
let acr: FakeServer<AcrAnswer>;
let audd: FakeServer<AuddAnswer>;
let work: string;
let eventId: number;
const chunks: Buffer[] = [];

const nightTrain = {
  title: 'Night Train',
  artists: [{ name: 'The Cloud Artists' }],
  album: { name: 'Far Away' },
  release_date: '2021-03-05',
  external_ids: { isrc: 'USABC2600001' },
  acrid: 'acr-night-train',
  score: 92,
  genres: [{ name: 'R&B' }],
};

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('timed out waiting');
}

async function uploadSession(session: string) {
  let recordingId = 0;
  for (const [index, audio] of chunks.entries()) {
    const { body, contentType } = chunkUpload({
      session_id: session,
      chunk_number: index,
      duration_seconds: 30,
      recorded_at: new Date(T0 + index * 30_000).toISOString(),
      event_id: eventId,
      audio,
      contentType: 'audio/webm',
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/recordings/upload',
      payload: body,
      headers: { 'content-type': contentType },
    });
    expect(response.statusCode).toBe(200);
    recordingId = response.json().recording_id;
  }
  return waitFor(async () => {
    const recording = (await t.app.inject({ method: 'GET', url: `/api/recordings/${recordingId}` })).json();
    return recording.processed && recording.chunk_count === chunks.length ? recording : undefined;
  });
}

beforeAll(async () => {
  acr = await startAcrCloudFake(credentials);
  audd = await startAuddFake('audd-token');
  t = await createTestApp({
    env: {
      ACRCLOUD_HOST: acr.url,
      ACRCLOUD_ACCESS_KEY: credentials.accessKey,
      ACRCLOUD_ACCESS_SECRET: credentials.accessSecret,
      AUDD_API_TOKEN: 'audd-token',
      AUDD_URL: `${audd.url}/`,
    },
  });
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-cloud-'));
  const unknown = roomize(synthSong(7, 60, RATE), RATE, 15);
  for (const index of [0, 1]) {
    const wav = path.join(work, `chunk-${index}.wav`);
    await writeWav(wav, unknown.subarray(index * 30 * RATE, (index + 1) * 30 * RATE), RATE);
    chunks.push(await webmOpus(wav, path.join(work, `chunk-${index}.webm`)));
  }
  const [event] = await t.deps.db
    .insert(events)
    .values({
      name: 'Cloud Night',
      startDate: '2026-11-21',
      endDate: '2026-11-21',
      timezone: 'Europe/Berlin',
    })
    .returning({ id: events.id });
  eventId = event!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await acr?.close();
  await audd?.close();
  if (work) await fs.rm(work, { recursive: true, force: true });
});

describe('cloud recognisers', () => {
  it('asks ACRCloud about what the library did not recognise, and adds the song without a file', async () => {
    acr.respond = () => acrSuccess([nightTrain]);
    const recording = await uploadSession('cloud-1');
    expect(recording.error_message).toBeNull();
    expect(recording.recognized_songs).toHaveLength(1);
    expect(recording.recognized_songs[0]).toMatchObject({
      title: 'Night Train',
      artist: 'The Cloud Artists',
      confidence: 0.92,
    });

    const [song] = await t.deps.db
      .select()
      .from(songs)
      .where(eq(songs.id, recording.recognized_songs[0].song_id));
    expect(song).toMatchObject({
      filePresent: false,
      filePath: null,
      album: 'Far Away',
      releaseDate: '2021-03-05',
      externalIds: { isrc: 'USABC2600001', acrcloud: 'acr-night-train' },
    });
    const [play] = await t.deps.db.select().from(plays).where(eq(plays.recordingId, recording.recording_id));
    expect(play).toMatchObject({ recognizer: 'acrcloud', source: 'recording', eventId });
    // One play over both chunks: each chunk's stretch was asked about, the answers merged.
    expect((play!.startedAt.getTime() - T0) / 1000).toBe(0);
    expect((play!.endedAt!.getTime() - T0) / 1000).toBeCloseTo(60, 0);

    expect(acr.requests).toHaveLength(2);
    for (const request of acr.requests) {
      // The fake checked key and signature; a clip is a short WAV cut by ffmpeg.
      expect(request.fields).toMatchObject({
        access_key: 'acr-key',
        data_type: 'audio',
        signature_version: '1',
      });
      expect(request.file!.bytes.subarray(0, 4).toString()).toBe('RIFF');
      expect(request.file!.bytes.length).toBeLessThan(16000 * 2 * 13 + 1000);
    }
    expect(audd.requests).toHaveLength(0);
  });

  it('falls back to AudD and finds the known song again by title and artist, whatever the case', async () => {
    acr.respond = () => acrNoResult();
    audd.respond = () =>
      auddSuccess({
        artist: 'THE CLOUD ARTISTS',
        title: 'night train',
        album: 'Far Away',
        song_link: 'https://lis.tn/nt',
      });
    const before = await t.deps.db.select({ id: songs.id }).from(songs);
    const recording = await uploadSession('cloud-2');
    expect(await t.deps.db.select({ id: songs.id }).from(songs)).toHaveLength(before.length);
    expect(recording.recognized_songs).toHaveLength(1);
    expect(recording.recognized_songs[0]).toMatchObject({ title: 'Night Train', confidence: null });
    const [play] = await t.deps.db.select().from(plays).where(eq(plays.recordingId, recording.recording_id));
    expect(play!.recognizer).toBe('audd');
    const [song] = await t.deps.db.select().from(songs).where(eq(songs.id, play!.songId));
    expect(song!.externalIds).toMatchObject({ isrc: 'USABC2600001', audd: 'https://lis.tn/nt' });
    expect(audd.requests.every((request) => request.fields.api_token === 'audd-token')).toBe(true);
  });

  it('does not ask about silence', async () => {
    const silent = path.join(work, 'silence.wav');
    await writeWav(silent, new Float32Array(30 * RATE), RATE);
    const audio = await webmOpus(silent, path.join(work, 'silence.webm'));
    const asked = acr.requests.length + audd.requests.length;
    const { body, contentType } = chunkUpload({
      session_id: 'cloud-silence',
      chunk_number: 0,
      duration_seconds: 30,
      recorded_at: new Date(T0).toISOString(),
      event_id: eventId,
      audio,
      contentType: 'audio/webm',
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/recordings/upload',
      payload: body,
      headers: { 'content-type': contentType },
    });
    const recordingId = response.json().recording_id;
    await waitFor(async () => {
      const recording = (await t.app.inject({ method: 'GET', url: `/api/recordings/${recordingId}` })).json();
      return recording.processed ? recording : undefined;
    });
    expect(acr.requests.length + audd.requests.length).toBe(asked);
  });

  it('reports provider failures on the recording without failing the job', async () => {
    acr.respond = () => acrError(3003, 'Limit exceeded');
    audd.respond = () => auddError(901, 'Recognition failed: the limit was reached.');
    const recording = await uploadSession('cloud-3');
    expect(recording.recognized_songs).toEqual([]);
    expect(recording.error_message).toContain('Chunks 0, 1:');
    expect(recording.error_message).toContain(
      'ACRCloud refused the request: the account has reached its request limit (code 3003)',
    );
    expect(recording.error_message).toContain(
      'AudD refused the request: Recognition failed: the limit was reached. (code 901)',
    );
  });
});
