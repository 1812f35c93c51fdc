import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYSIS_VERSION } from '../audio/analysis/index.js';
import { songs } from '../db/schema.js';
import { createTestDatabase, type TestDatabase } from '../test/harness.js';

/**
 * `wcs library analyze` as users run it: the built CLI (dist/, so the analysis threads load the
 * compiled worker) against a real database, on a synthesised song and an undecodable file.
 */

const execFileAsync = promisify(execFile);
const ffmpeg = process.env.FFMPEG_PATH || 'ffmpeg';
const serverDir = path.resolve(import.meta.dirname, '../..');
const repoRoot = path.resolve(serverDir, '../..');

let database: TestDatabase;
let dir: string;
let goodId: number;
let brokenId: number;

async function insertSong(title: string, file: string): Promise<number> {
  const [row] = await database.db
    .insert(songs)
    .values({ title, artist: 'CLI', searchKey: title.toLowerCase(), filePath: file, filePresent: true })
    .returning({ id: songs.id });
  return row!.id;
}

function wcs(...args: string[]) {
  return execFileAsync(
    process.execPath,
    [path.join(serverDir, 'bin/wcs.js'), 'library', 'analyze', ...args],
    {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent', WCS_ANALYSIS_WORKERS: '2' },
    },
  );
}

beforeAll(async () => {
  // Other people's type errors do not stop the emit.
  await execFileAsync(
    process.execPath,
    [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-b', serverDir],
    {
      cwd: repoRoot,
    },
  ).catch(() => {});
  database = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-cli-analyze-'));
  const good = path.join(dir, 'clicks-96.mp3');
  const expression = '0.5*exp(-mod(t,0.625)*40)*sin(2*PI*1500*t)+0.1*(sin(2*PI*110*t)+sin(2*PI*220*t))';
  await execFileAsync(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `aevalsrc='${expression}':s=22050:d=15`, '-ac', '1', good],
  ]);
  const broken = path.join(dir, 'broken.mp3');
  await fs.writeFile(broken, randomBytes(10_000));
  goodId = await insertSong('Clicks 96', good);
  brokenId = await insertSong('Broken', broken);
}, 240_000);

afterAll(async () => {
  await database?.drop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('wcs library analyze', () => {
  it('analyses every song with a file, stores the values and prints a JSON summary', async () => {
    const { stdout } = await wcs('--json');
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({
      songs: 2,
      analyzed: 1,
      skipped: 0,
      threads: 2,
      analysis_version: ANALYSIS_VERSION,
      failed: [{ song_id: brokenId, file: path.join(dir, 'broken.mp3'), reason: expect.any(String) }],
    });
    expect(summary.failed[0].reason).toMatch(/^the file could not be decoded/);
    expect(summary.audio_seconds).toBeCloseTo(15, 0);
    expect(summary.times_real_time).toBeGreaterThan(0);

    const [good] = await database.db.select().from(songs).where(eq(songs.id, goodId));
    expect(good!.bpm).toBeGreaterThan(94);
    expect(good!.bpm).toBeLessThan(98);
    expect(good!.analysisVersion).toBe(ANALYSIS_VERSION);
    const [broken] = await database.db.select().from(songs).where(eq(songs.id, brokenId));
    expect(broken).toMatchObject({ analyzedAt: null, analysisError: summary.failed[0].reason });
  }, 120_000);

  it('with --outdated, analyses only what the current analyser has not done, and prints a readable summary', async () => {
    const { stdout } = await wcs('--outdated');
    expect(stdout).toMatch(/Analysed 0 of 1 songs in [\d.]+ s: 1 failed, 0 skipped; 0\.0 min of audio\.$/m);
    expect(stdout).toContain(`Analyser: ${ANALYSIS_VERSION}`);
    expect(stdout).toContain(`failed: ${path.join(dir, 'broken.mp3')}: the file could not be decoded`);
  }, 120_000);
});
