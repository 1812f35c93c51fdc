/**
 * Track-before-detect in the server's path, with real audio, PostgreSQL and ffmpeg: a library song
 * played under noise so loud that no chunk's windows make a play of it (a window of 15-45 here and
 * there, never a play) is uploaded chunk by chunk; the stream's tracking, kept from chunk to chunk,
 * verifies the song at the position its first window placed it in every later window and tells it
 * once its evidence reaches TRACK_BOUND (audio/fingerprint/tracking.ts). Checked: one play, at the
 * song's time; a chunk processed again (also without the tracking stored, as for chunks recognised
 * before it was) adds nothing; Retry rebuilds the same play; the tracking is stored with each
 * chunk, so a process that did not recognise the chunk before (another worker, a restart) goes on
 * from it; `wcs recognize` finds the same play in the same chunks, and in the night as one file
 * (recognition-signal.ts: the server's chunks and tracking).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../cli/index.js';
import { events, plays, recordingChunks } from '../../db/schema.js';
import { chunkUpload } from '../../test/audio.js';
import { concat, roomize, synthSong, webmOpus, writeWav } from '../../test/fakes/songs.js';
import { addFingerprintedSong } from '../../test/library-songs.js';
import { type BackendTestApp, createBackendTestApp } from '../../test/storage-backends.js';
import { forgetDecodedTails, processRecording } from './recognition.js';
import { TRACK_STATE_FORMAT } from './recognition-chunk.js';
import { storedPlaysOf, storeTimeline, TRACKING_KEPT_CHUNKS } from './recognition-store.js';

const RATE = 22050;
const T0 = Date.parse('2026-11-21T21:00:00Z');
/**
 * How loud the song is against the room's noise (dB): at -18 the chunks' windows make no play of it
 * (with tracking off, every test below fails); at -19 the night as one file is found no more: its
 * hypothesis gathers 127.5 from windows of 15-23.5, no window besides its first seed at the window
 * threshold, as chance reaches (113.0) outside the index (TRACK_CONFIRM_SCORE in
 * audio/fingerprint/tracking.ts; at -20, as here before that rule, the chunks' path 194 unconfirmed).
 */
const SNR_DB = -18;
let work: string;
let songFile: string;
const chunks: Buffer[] = [];
const chunkFiles: string[] = [];
/** The night as one file, as a recorder that is no phone would keep it. */
let nightFile: string;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-tracking-'));
  const gamma = synthSong(11, 150, RATE);
  songFile = path.join(work, 'gamma.wav');
  await writeWav(songFile, gamma, RATE);
  // The night: gamma from its start for 140 s under the crowd, then 10 s of the crowd alone.
  const night = roomize(concat(gamma.subarray(0, 140 * RATE), new Float32Array(10 * RATE)), RATE, SNR_DB, 4);
  nightFile = path.join(work, 'night.wav');
  await writeWav(nightFile, night, RATE);
  for (let index = 0; index * 30 * RATE < night.length; index += 1) {
    const wav = path.join(work, `chunk-${index}.wav`);
    await writeWav(wav, night.subarray(index * 30 * RATE, (index + 1) * 30 * RATE), RATE);
    chunkFiles.push(path.join(work, `chunk-${index}.webm`));
    chunks.push(await webmOpus(wav, chunkFiles.at(-1)!));
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
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  const playsOf = (recording = recordingId) =>
    t.deps.db.select().from(plays).where(eq(plays.recordingId, recording)).orderBy(plays.startedAt);
  const seconds = (date: Date) => (date.getTime() - T0) / 1000;
  const trackingStored = async (recording = recordingId) =>
    (
      await t.deps.db
        .select({ number: recordingChunks.chunkNumber, tracking: recordingChunks.tracking })
        .from(recordingChunks)
        .where(eq(recordingChunks.recordingId, recording))
        .orderBy(recordingChunks.chunkNumber)
    ).map((row) => [row.number, row.tracking !== null]);

  /** Uploads the night's chunks to `session`, each recognised before the next is uploaded. */
  async function recordNight(session: string, beforeEach: () => void = () => {}): Promise<number> {
    let recording = 0;
    for (const [index, audio] of chunks.entries()) {
      const { body, contentType } = chunkUpload({
        session_id: session,
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
      recording = response.json().recording_id;
      // Each chunk recognised before the next is uploaded, as a phone's upload paces them.
      beforeEach();
      await processRecording(t.deps, recording, index);
    }
    return recording;
  }

  it('becomes one play at its time, from the evidence of windows across chunks', async () => {
    recordingId = await recordNight('loud-1');
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

  it('keeps the tracking of the chunks recognised, in the shape it was written for', async () => {
    expect(await trackingStored()).toEqual([0, 1, 2, 3, 4].map((number) => [number, true]));
    const [row] = await t.deps.db
      .select({ tracking: recordingChunks.tracking })
      .from(recordingChunks)
      .where(eq(recordingChunks.recordingId, recordingId))
      .orderBy(desc(recordingChunks.chunkNumber))
      .limit(1);
    const stored = row!.tracking as { format: string; state: Record<string, unknown> };
    // A change of TrackState's fields (audio/fingerprint/tracking.ts) must raise TRACK_STATE_FORMAT,
    // so that no process reads a state of the old shape as the new one; then update these lists.
    expect(TRACK_STATE_FORMAT).toBe(2);
    expect(stored.format).toMatch(/^track2\|/);
    expect(Object.keys(stored.state).sort()).toEqual([
      'endSample',
      'heard',
      'hypotheses',
      'nextWindow',
      'seededUntil',
    ]);
    const hypotheses = stored.state.hypotheses as Record<string, unknown>[];
    expect(hypotheses.length).toBeGreaterThan(0);
    expect(Object.keys(hypotheses[0]!).sort()).toEqual([
      'anchors',
      'born',
      'lastGood',
      'repeat',
      'seeds',
      'slope',
      'songId',
      'told',
      'warp',
      'windows',
    ]);
  });

  it('adds nothing when chunks are processed again, with or without the tracking stored', async () => {
    const before = await playsOf();
    for (const index of [2, 3]) await processRecording(t.deps, recordingId, index);
    expect(await playsOf()).toEqual(before);
    forgetDecodedTails();
    await t.deps.db
      .update(recordingChunks)
      .set({ tracking: null })
      .where(eq(recordingChunks.recordingId, recordingId));
    for (const index of [4, 1, 3]) await processRecording(t.deps, recordingId, index);
    expect(await playsOf()).toEqual(before);
  });

  it('goes on from the stored tracking when each chunk is recognised by another process', async () => {
    // A process that recognised none of the chunks before has neither their decoded tails nor
    // anything else of them in memory: only what the database and the recordings folder hold.
    const other = await recordNight('loud-2', forgetDecodedTails);
    const found = await playsOf(other);
    expect(found.map((play) => play.songId)).toEqual([songId]);
    expect(Math.abs(seconds(found[0]!.startedAt))).toBeLessThanOrEqual(3);
    expect(seconds(found[0]!.endedAt!)).toBeGreaterThan(115);
  });

  it('forgets the tracking of chunks more than TRACKING_KEPT_CHUNKS back', async () => {
    // The night's 5 chunks and 40 more after them (rows only: what the store writes is the point).
    const [first] = await t.deps.db
      .select()
      .from(recordingChunks)
      .where(eq(recordingChunks.recordingId, recordingId))
      .orderBy(recordingChunks.chunkNumber)
      .limit(1);
    const { id: _, ...row } = first!;
    const more = await t.deps.db
      .insert(recordingChunks)
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          ...row,
          chunkNumber: 5 + i,
          tracking: { format: 'stale', state: {} },
        })),
      )
      .returning();
    const last = more.at(-1)!;
    await storeTimeline(
      t.deps.db,
      { id: recordingId, eventId, timezone: 'Europe/Berlin' },
      { plays: await storedPlaysOf(t.deps.db, recordingId), removedIds: [] },
      [{ chunk: last, error: null, tracking: null }],
      false,
    );
    const kept = (await trackingStored()).filter(([, stored]) => stored).map(([number]) => number);
    // 44 is the one just stored (tracking null: not recognised); 12-43 are the 32 before it.
    expect(kept).toEqual(
      Array.from({ length: TRACKING_KEPT_CHUNKS }, (_, i) => 44 - TRACKING_KEPT_CHUNKS + i),
    );
    await t.deps.db.delete(recordingChunks).where(
      inArray(
        recordingChunks.id,
        more.map((chunk) => chunk.id),
      ),
    );
  });

  /** `wcs recognize --json` with `args`: its lines, parsed. */
  async function recognizeCli(args: string[]) {
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const previous = process.env.DATABASE_URL;
    process.env.DATABASE_URL = t.databaseUrl;
    try {
      await buildProgram().parseAsync(['node', 'wcs', 'recognize', '--json', ...args]);
    } finally {
      log.mockRestore();
      if (previous === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previous;
    }
    return lines.map(
      (line) => JSON.parse(line) as { plays: { song_id: number; start_s: number; end_s: number }[] },
    );
  }

  it('is the same play through `wcs recognize --session` on the same chunks', async () => {
    const [stored] = await playsOf();
    const [line] = await recognizeCli(['--session', ...chunkFiles]);
    expect(line!.plays.map((play) => play.song_id)).toEqual([songId]);
    const [gamma] = line!.plays;
    // The server maps each chunk from its recorded_at, the command from the decoded lengths before
    // it (30 s of Opus decode to 30 s and a few samples): the same times, within a few ms.
    expect(Math.abs(gamma!.start_s - seconds(stored!.startedAt))).toBeLessThan(0.05);
    expect(Math.abs(gamma!.end_s - seconds(stored!.endedAt!))).toBeLessThan(0.05);
  }, 60_000);

  it('is found by `wcs recognize` in the night as one file, cut into chunks as a recorder would', async () => {
    const [line] = await recognizeCli([nightFile]);
    expect(line!.plays.map((play) => play.song_id)).toEqual([songId]);
    const [gamma] = line!.plays;
    expect(Math.abs(gamma!.start_s)).toBeLessThanOrEqual(3);
    expect(gamma!.end_s).toBeGreaterThan(115);
    expect(gamma!.end_s).toBeLessThanOrEqual(145);
  }, 60_000);

  it('rebuilds the same play on Retry', async () => {
    const before = await playsOf();
    await processRecording(t.deps, recordingId);
    const rebuilt = await playsOf();
    expect(rebuilt.map((play) => [play.songId, play.startedAt.getTime(), play.endedAt?.getTime()])).toEqual(
      before.map((play) => [play.songId, play.startedAt.getTime(), play.endedAt?.getTime()]),
    );
  });
});
