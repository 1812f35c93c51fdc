// The engine against a real PostgreSQL and ffmpeg: a folder of synthesised songs imported with
// the fingerprint hook, a distorted excerpt (room echo, band limits, 5% faster, noise) recognised
// with its song and position, unknown music rejected, `wcs recognize --json` on files, the index
// following song deletion, undecodable files recorded on the song, and the re-index job.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../cli/index.js';
import { DEMO_ANALYSIS_VERSION } from '../../demo/generate.js';
import { fingerprintSongJob } from '../../jobs/fingerprint-song.js';
import { fingerprintImportHook, outdatedFingerprintSongs } from '../../services/library/fingerprints.js';
import { importLibraryFolder } from '../../services/library/library-import.js';
import { createTestDatabase, type TestDatabase } from '../../test/harness.js';
import { DecodeError, decodeAudio } from '../decode.js';
import { floatWav } from '../wav.js';
import {
  FINGERPRINT_SAMPLE_RATE,
  FINGERPRINT_VERSION,
  fingerprintSong,
  recognizeTimeline,
  warmPeakCache,
} from './index.js';
import { currentIndex } from './memory-index.js';
import { addNoise, synthSong } from './synth.js';

const RATE = 22050;
const config = { ffmpegPath: process.env.FFMPEG_PATH || 'ffmpeg' };

function writeWav16(file: string, samples: Float32Array, rate = RATE) {
  fs.writeFileSync(file, floatWav(samples, rate));
}

let database: TestDatabase;
let folder: string;
const idOf = new Map<string, number>();

beforeAll(async () => {
  database = await createTestDatabase();
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-fingerprint-'));
  fs.mkdirSync(path.join(folder, 'library'));
  for (let seed = 1; seed <= 4; seed++) {
    writeWav16(path.join(folder, 'library', `song-${seed}.wav`), synthSong(100 + seed, 40, RATE));
  }
  const summary = await importLibraryFolder(database.db, path.join(folder, 'library'), {
    hooks: [fingerprintImportHook({ db: database.db, config })],
  });
  expect(summary.failed).toEqual([]);
  expect(summary.imported).toBe(4);
  const { rows } = await database.pool.query<{ id: number; file_path: string }>(
    'select id, file_path from songs',
  );
  for (const row of rows) idOf.set(path.basename(row.file_path, '.wav'), row.id);
}, 120_000);

afterAll(async () => {
  await database?.drop();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

/** 10 s of a song from 12 s on, through a room-like chain, 5% faster, with noise at +5 dB. */
function distortedExcerpt(name: string, out: string): Float32Array {
  execFileSync(config.ffmpegPath, [
    '-v',
    'error',
    '-y',
    '-ss',
    '12',
    '-t',
    '10.5',
    '-i',
    path.join(folder, 'library', `${name}.wav`),
    '-af',
    `aecho=0.8:0.5:23|61:0.3|0.2,highpass=f=250,lowpass=f=3500,asetrate=${Math.round(RATE * 1.05)},aresample=${RATE}`,
    out,
  ]);
  return out as unknown as Float32Array;
}

describe('fingerprinting on import', () => {
  it('indexes every imported song with the current version', async () => {
    const { rows } = await database.pool.query<{
      version: string;
      n: number;
      error: string | null;
      at: Date | null;
    }>(
      `select s.fingerprint_version as version, s.fingerprint_error as error, s.fingerprinted_at as at,
              coalesce((select length(f.hashes) / 8 from song_fingerprints f where f.song_id = s.id), 0)::int as n
         from songs s`,
    );
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.version).toBe(FINGERPRINT_VERSION);
      expect(row.error).toBeNull();
      expect(row.at).not.toBeNull();
      expect(row.n).toBeGreaterThan(1000);
    }
  });

  it('does not re-index a moved file whose fingerprints are current', async () => {
    const before = await database.pool.query<{ at: Date }>(
      'select fingerprinted_at as at from songs where id = $1',
      [idOf.get('song-4')],
    );
    fs.renameSync(
      path.join(folder, 'library', 'song-4.wav'),
      path.join(folder, 'library', 'song-4-moved.wav'),
    );
    const summary = await importLibraryFolder(database.db, path.join(folder, 'library'), {
      hooks: [fingerprintImportHook({ db: database.db, config })],
    });
    expect(summary.updated).toBe(1);
    const after = await database.pool.query<{ at: Date }>(
      'select fingerprinted_at as at from songs where id = $1',
      [idOf.get('song-4')],
    );
    expect(after.rows[0]!.at.getTime()).toBe(before.rows[0]!.at.getTime());
  });
});

describe('recognizeTimeline', () => {
  it('recognises a distorted, 5% faster excerpt with its position, and rejects unknown music', async () => {
    const file = path.join(folder, 'query.wav');
    distortedExcerpt('song-3', file);
    const clean = await decodeAudio(file, {
      sampleRate: FINGERPRINT_SAMPLE_RATE,
      ffmpegPath: config.ffmpegPath,
    });
    const samples = addNoise(clean, 5, 3);
    const plays = await recognizeTimeline(database.db, samples);
    expect(plays).toHaveLength(1);
    expect(plays[0]!.songId).toBe(idOf.get('song-3'));
    expect(plays[0]!.startS).toBeLessThan(2);
    expect(plays[0]!.endS).toBeGreaterThan(8);
    expect(plays[0]!.confidence).toBeGreaterThanOrEqual(0.5);
    // The song's length as indexed (40 s synthesised; its last peak within a second of the end),
    // which tells the timeline where the song ends as heard.
    expect(plays[0]!.songSeconds).toBeGreaterThan(39);
    expect(plays[0]!.songSeconds).toBeLessThanOrEqual(40);

    const unknown = addNoise(synthSong(999, 10, FINGERPRINT_SAMPLE_RATE), 10, 4);
    expect(await recognizeTimeline(database.db, unknown)).toEqual([]);
    expect(await recognizeTimeline(database.db, new Float32Array(FINGERPRINT_SAMPLE_RATE * 10))).toEqual([]);
    expect(await recognizeTimeline(database.db, new Float32Array(0))).toEqual([]);
  });

  it('finds two songs played one after the other, in order, with their times', async () => {
    const decode = (name: string) =>
      decodeAudio(path.join(folder, 'library', `${name}.wav`), {
        sampleRate: FINGERPRINT_SAMPLE_RATE,
        ffmpegPath: config.ffmpegPath,
      });
    const a = (await decode('song-1')).subarray(0, 20 * FINGERPRINT_SAMPLE_RATE);
    const b = (await decode('song-2')).subarray(10 * FINGERPRINT_SAMPLE_RATE, 35 * FINGERPRINT_SAMPLE_RATE);
    const both = new Float32Array(a.length + b.length);
    both.set(a);
    both.set(b, a.length);
    const plays = await recognizeTimeline(database.db, both);
    expect(plays.map((p) => p.songId)).toEqual([idOf.get('song-1'), idOf.get('song-2')]);
    expect(plays[0]!.startS).toBeLessThan(1.5);
    expect(Math.abs(plays[0]!.endS - 20)).toBeLessThan(2);
    expect(Math.abs(plays[1]!.startS - 20)).toBeLessThan(2);
    expect(plays[1]!.endS).toBeGreaterThan(43);
  });
});

describe('warmPeakCache', () => {
  it('caches every indexed song’s peaks, and a song re-indexed since is read again', async () => {
    const { rows } = await database.pool.query('select count(*)::int as n from song_fingerprints');
    const index = await currentIndex(database.db);
    expect(await warmPeakCache(database.db, index)).toBe(rows[0].n);
    expect(await warmPeakCache(database.db, index)).toBe(rows[0].n);
    // Re-indexed (a new revision): the cached peaks are stale and recognition reads the new ones.
    const songId = idOf.get('song-2')!;
    const file = path.join(folder, 'library', 'song-2.wav');
    await fingerprintSong({ db: database.db, config }, { songId, filePath: file });
    const samples = await decodeAudio(file, {
      sampleRate: FINGERPRINT_SAMPLE_RATE,
      ffmpegPath: config.ffmpegPath,
    });
    const query = vi.spyOn(database.pool, 'query');
    try {
      const plays = await recognizeTimeline(database.db, samples.subarray(0, 12 * FINGERPRINT_SAMPLE_RATE));
      expect(plays.map((p) => p.songId)).toEqual([songId]);
      const peakReads = query.mock.calls.filter(([text]) => String(text).includes('select song_id, peaks'));
      expect(peakReads.map((call) => call[1])).toEqual([[`{${songId}}`]]);
    } finally {
      query.mockRestore();
    }
  });
});

describe('wcs recognize --json', () => {
  it('prints one line per file with the plays, an empty list for unknown music, an error line for a bad file', async () => {
    const known = path.join(folder, 'known.wav');
    distortedExcerpt('song-2', known);
    const unknown = path.join(folder, 'unknown.wav');
    writeWav16(unknown, synthSong(555, 10, RATE));
    const broken = path.join(folder, 'broken.wav');
    fs.writeFileSync(broken, 'not audio at all');
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const previous = { url: process.env.DATABASE_URL, exitCode: process.exitCode };
    process.env.DATABASE_URL = database.url;
    try {
      await buildProgram().parseAsync(['node', 'wcs', 'recognize', '--json', known, unknown, broken]);
    } finally {
      log.mockRestore();
      if (previous.url === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previous.url;
    }
    expect(process.exitCode).toBe(1);
    process.exitCode = previous.exitCode;
    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed).toHaveLength(3);
    expect(parsed[0].file).toBe(known);
    expect(parsed[0].plays).toHaveLength(1);
    expect(parsed[0].plays[0]).toMatchObject({
      song_id: idOf.get('song-2'),
      title: expect.any(String),
      artist: expect.any(String),
    });
    expect(Object.keys(parsed[0].plays[0]).sort()).toEqual([
      'artist',
      'confidence',
      'end_s',
      'song_id',
      'start_s',
      'title',
    ]);
    expect(parsed[1]).toEqual({ file: unknown, plays: [] });
    expect(parsed[2].file).toBe(broken);
    expect(parsed[2].error).toMatch(/could not decode/);
  }, 60_000);
});

describe('index maintenance', () => {
  it('records an undecodable file on the song and removes its old fingerprints', async () => {
    const broken = path.join(folder, 'broken.mp3');
    fs.writeFileSync(broken, 'garbage');
    const songId = idOf.get('song-1')!;
    await expect(
      fingerprintSong({ db: database.db, config }, { songId, filePath: broken }),
    ).rejects.toBeInstanceOf(DecodeError);
    const { rows } = await database.pool.query(
      `select fingerprint_error, fingerprint_version, (select count(*) from song_fingerprints where song_id = $1)::int as n
         from songs where id = $1`,
      [songId],
    );
    expect(rows[0].fingerprint_error).toMatch(/could not decode/);
    expect(rows[0].fingerprint_version).toBeNull();
    expect(rows[0].n).toBe(0);
  });

  it('re-indexes an outdated song through the job, and skips a current one', async () => {
    const songId = idOf.get('song-2')!;
    const samples = await decodeAudio(path.join(folder, 'library', 'song-2.wav'), {
      sampleRate: FINGERPRINT_SAMPLE_RATE,
      ffmpegPath: config.ffmpegPath,
    });
    const excerpt = samples.subarray(0, 15 * FINGERPRINT_SAMPLE_RATE);
    expect((await currentIndex(database.db)).revisions.has(songId)).toBe(true);
    await database.pool.query(`update songs set fingerprint_version = 'old' where id = $1`, [songId]);
    expect(await outdatedFingerprintSongs({ db: database.db })).toContain(songId);
    // Hashes of another engine version (an upgrade that changed them) are not searched as if they
    // were this one's: the song is out of the index until the job has re-indexed it.
    expect((await currentIndex(database.db)).revisions.has(songId)).toBe(false);
    expect((await recognizeTimeline(database.db, excerpt)).map((p) => p.songId)).not.toContain(songId);
    expect(await fingerprintSongJob({ db: database.db, config: config as never }, { song_id: songId })).toBe(
      'fingerprinted',
    );
    expect(await fingerprintSongJob({ db: database.db, config: config as never }, { song_id: songId })).toBe(
      'skipped',
    );
    expect(await outdatedFingerprintSongs({ db: database.db })).not.toContain(songId);
    // Recognition reads the re-indexed song (a new revision: its cached peaks are read again).
    const plays = await recognizeTimeline(database.db, excerpt);
    expect(plays.map((p) => p.songId)).toEqual([songId]);
  });

  it('leaves demo songs (placeholder tones) out of the re-indexing', async () => {
    const songId = idOf.get('song-2')!;
    await database.pool.query(
      `update songs set fingerprint_version = 'old', analysis_version = $2 where id = $1`,
      [songId, DEMO_ANALYSIS_VERSION],
    );
    expect(await outdatedFingerprintSongs({ db: database.db })).not.toContain(songId);
    await database.pool.query(`update songs set analysis_version = null where id = $1`, [songId]);
    expect(await outdatedFingerprintSongs({ db: database.db })).toContain(songId);
    await fingerprintSongJob({ db: database.db, config: config as never }, { song_id: songId });
  });

  it('deletes a song’s fingerprints with the song, and recognition stops hearing it', async () => {
    const songId = idOf.get('song-3')!;
    const excerpt = async () =>
      (
        await decodeAudio(path.join(folder, 'library', 'song-3.wav'), {
          sampleRate: FINGERPRINT_SAMPLE_RATE,
          ffmpegPath: config.ffmpegPath,
        })
      ).subarray(5 * FINGERPRINT_SAMPLE_RATE, 20 * FINGERPRINT_SAMPLE_RATE);
    // Heard before (this process's in-memory index holds the song)...
    expect((await recognizeTimeline(database.db, await excerpt())).map((p) => p.songId)).toEqual([songId]);
    await database.pool.query('delete from songs where id = $1', [songId]);
    const { rows } = await database.pool.query(
      'select count(*)::int as n from song_fingerprints where song_id = $1',
      [songId],
    );
    expect(rows[0].n).toBe(0);
    const { rows: others } = await database.pool.query('select count(*)::int as n from song_fingerprints');
    expect(others[0].n).toBeGreaterThan(0);
    // ...and not after: the in-memory index followed the delete.
    expect(await recognizeTimeline(database.db, await excerpt())).toEqual([]);
  });
});
