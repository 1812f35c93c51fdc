import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AnalysisStatus, LibraryImportResult, listOf, Song } from '@wcs/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYSIS_VERSION } from '../../audio/analysis/index.js';
import { registerAnalyzeSongJob } from '../../jobs/analyze-song.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

/**
 * The whole path through the app: import a folder of synthesised songs through the API, the
 * import queues their analysis, the app's job workers run it in analysis threads, and the Songs
 * API and GET /api/analysis/status show the result.
 */

const execFileAsync = promisify(execFile);
const ffmpeg = process.env.FFMPEG_PATH || 'ffmpeg';

/** A click track at `bpm` over a sustained chord, tagged with a title, as an MP3 made by ffmpeg. */
async function synthSong(file: string, title: string, bpm: number, chord: readonly number[]): Promise<void> {
  const period = 60 / bpm;
  const tones = chord.map((frequency) => `sin(2*PI*${frequency}*t)`).join('+');
  const expression = `0.5*exp(-mod(t,${period})*40)*sin(2*PI*1500*t)+0.1*(${tones})`;
  await execFileAsync(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `aevalsrc='${expression}':s=22050:d=20`],
    ...['-ac', '1', '-metadata', `title=${title}`, '-metadata', 'artist=Synth', file],
  ]);
}

const SONGS = [
  { title: 'Click 100 A minor', bpm: 100, key: 'A minor', chord: [110, 220, 261.63, 329.63] },
  { title: 'Click 88 C major', bpm: 88, key: 'C major', chord: [130.81, 261.63, 329.63, 392] },
  { title: 'Click 120 G major', bpm: 120, key: 'G major', chord: [98, 196, 246.94, 293.66] },
] as const;

let t: TestApp;
let root: string;
/**
 * Every job the app asked for, with its reason. pg-boss merges a send into a run already waiting
 * in the same few seconds (services/recompute-schedule.ts), so the queue alone cannot show that
 * a request was made: the import's score recompute asks for the same regeneration.
 */
const requested: Array<{ name: string; reason: unknown }> = [];

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-analysis-library-'));
  await Promise.all(
    SONGS.map((song) => synthSong(path.join(root, `${song.title}.mp3`), song.title, song.bpm, song.chord)),
  );
  t = await createTestApp({ env: { WCS_LIBRARY_ROOTS: root, WCS_ANALYSIS_WORKERS: '2' } });
  const send = t.deps.jobs.send.bind(t.deps.jobs);
  t.deps.jobs.send = (name, data, options) => {
    requested.push({ name, reason: (data as { reason?: unknown }).reason });
    return send(name, data, options);
  };
}, 60_000);

afterAll(async () => {
  await t?.close();
  await fs.rm(root, { recursive: true, force: true });
});

async function status(): Promise<AnalysisStatus> {
  const response = await t.app.inject({ method: 'GET', url: '/api/analysis/status' });
  expect(response.statusCode).toBe(200);
  return AnalysisStatus.parse(response.json());
}

describe('analysis after a library import', () => {
  it('queues the imported songs, analyses them in the job workers, and the Songs API shows the values', async () => {
    const before = await status();
    expect(before).toMatchObject({ total_songs: 0, analyzed: 0, pending: 0 });

    const response = await t.app.inject({
      method: 'POST',
      url: '/api/library/import',
      payload: { folder: root },
    });
    expect(response.statusCode).toBe(200);
    expect(LibraryImportResult.parse(response.json())).toMatchObject({ imported: 3, failed: [] });

    // A job stores its song, then ends: it counts as pending until pg-boss marks it done.
    await expect
      .poll(
        async () => {
          const { analyzed, pending } = await status();
          return { analyzed, pending };
        },
        { timeout: 90_000, interval: 500 },
      )
      .toEqual({ analyzed: SONGS.length, pending: 0 });
    expect(await status()).toMatchObject({ total_songs: 3, analyzed: 3, pending: 0, failed: 0, outdated: 0 });

    const list = listOf(Song).parse((await t.app.inject({ method: 'GET', url: '/api/songs/' })).json());
    expect(list.total).toBe(3);
    for (const expected of SONGS) {
      const song = list.data.find((row) => row.title === expected.title)!;
      expect(song, expected.title).toBeDefined();
      expect(song.bpm, expected.title).toBeGreaterThan(expected.bpm * 0.98);
      expect(song.bpm, expected.title).toBeLessThan(expected.bpm * 1.02);
      expect(song.key, expected.title).toBe(expected.key);
      expect(song.analysis_version).toBe(ANALYSIS_VERSION);
      expect(song.analyzed_at).not.toBeNull();
      expect(song.energy_level).not.toBeNull();
      expect(song.danceability).not.toBeNull();
      expect(song.valence).not.toBeNull();
    }
  }, 120_000);

  it('asks for a playlist regeneration once the queue is empty', async () => {
    // The last job stores its song, then finds the queue empty and asks: poll, as that follows the store.
    const asked = () =>
      requested.filter((job) => job.name === 'playlists.regenerate' && job.reason === 'songs analysed')
        .length;
    await expect.poll(asked, { timeout: 15_000, interval: 200 }).toBeGreaterThanOrEqual(1);
  });

  it('queues nothing when every song is current, and re-queues a song made outdated', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/api/analysis/analyze-outdated' });
    expect(none.statusCode).toBe(202);
    expect(none.json()).toEqual({ queued: 0 });

    await t.deps.db.execute(
      sql`update songs set analysis_version = 'wcs-analysis 0.1' where title = ${SONGS[0].title}`,
    );
    expect((await status()).outdated).toBe(1);
    const one = await t.app.inject({ method: 'POST', url: '/api/analysis/analyze-outdated' });
    expect(one.json()).toEqual({ queued: 1 });
    await expect
      .poll(
        async () => {
          const { outdated, pending } = await status();
          return { outdated, pending };
        },
        { timeout: 60_000, interval: 500 },
      )
      .toEqual({ outdated: 0, pending: 0 });
    expect(await status()).toMatchObject({ analyzed: 3 });
  }, 90_000);

  it('queues the outdated songs when the job workers start (as at every server start)', async () => {
    await t.deps.db.execute(sql`update songs set analysis_version = null where title = ${SONGS[1].title}`);
    expect((await status()).outdated).toBe(1);
    // What the server runs at start; here it adds workers beside the app's own, which is harmless.
    await registerAnalyzeSongJob(t.deps);
    await expect.poll(async () => (await status()).outdated, { timeout: 60_000, interval: 500 }).toBe(0);
  }, 90_000);
});
