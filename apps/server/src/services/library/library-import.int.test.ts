import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { LibraryImportResult } from '@wcs/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { songs } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { type ImportedSong, importLibraryFolder, UNKNOWN_ARTIST } from './library-import.js';

const execFileAsync = promisify(execFile);
const ffmpeg = process.env.FFMPEG_PATH || 'ffmpeg';
const serverDir = path.resolve(import.meta.dirname, '../../..');
const repoRoot = path.resolve(serverDir, '../..');

let t: TestApp;
/** The only library root of the test app. */
let root: string;
/** Outside every root. */
let outside: string;
let frequency = 300;

/**
 * A real audio file made by ffmpeg: a short sine tone (a new pitch each time, so no two files
 * share a hash) with the given tags written by `-metadata`.
 */
async function makeAudio(file: string, tags: Record<string, string> = {}, seconds = 1.5): Promise<string> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  frequency += 37;
  const metadata = Object.entries(tags).flatMap(([key, value]) => ['-metadata', `${key}=${value}`]);
  await execFileAsync(ffmpeg, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${frequency}:duration=${seconds}`,
    ...metadata,
    file,
  ]);
  return file;
}

const sha256 = async (file: string) =>
  createHash('sha256')
    .update(await fs.readFile(file))
    .digest('hex');

async function songAt(file: string) {
  const [row] = await t.deps.db.select().from(songs).where(eq(songs.filePath, file));
  return row;
}

async function songsUnder(folder: string) {
  return t.deps.db
    .select()
    .from(songs)
    .where(sql`starts_with(${songs.filePath}, ${`${folder}/`})`)
    .orderBy(songs.filePath);
}

/** A fresh folder inside the library root for one test. */
async function newFolder(name: string): Promise<string> {
  const folder = path.join(root, name);
  await fs.mkdir(folder, { recursive: true });
  return folder;
}

beforeAll(async () => {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-library-test-')));
  root = path.join(base, 'music');
  outside = path.join(base, 'elsewhere');
  await fs.mkdir(root);
  await fs.mkdir(outside);
  t = await createTestApp({ env: { WCS_LIBRARY_ROOTS: root } });
});

afterAll(async () => {
  await t?.close();
  if (root) await fs.rm(path.dirname(root), { recursive: true, force: true });
});

/**
 * A test's budget: its ffmpeg runs take seconds each on a loaded two-core machine (the recorder's
 * tests took 5-11 s at a load of 15), not vitest's 30 s.
 */
const HEAVY_TEST_MS = 120_000;
describe('importLibraryFolder', { timeout: HEAVY_TEST_MS }, () => {
  it('reads the tags of mp3, flac, ogg, m4a and wav files, maps their genres, and lists a corrupt file', async () => {
    const folder = await newFolder('formats');
    const mp3 = await makeAudio(path.join(folder, 'a/one.mp3'), {
      title: 'Blinding Lights',
      artist: 'The Weeknd',
      album: 'After Hours',
      album_artist: 'The Weeknd',
      genre: 'R&B',
      date: '2019',
      track: '9/14',
    });
    const flac = await makeAudio(path.join(folder, 'b/two.flac'), {
      title: 'Ain’t No Sunshine',
      artist: 'Bill Withers',
      genre: 'Soul',
      date: '1971-05-14',
    });
    const ogg = await makeAudio(path.join(folder, 'three.ogg'), {
      title: 'Riptide',
      artist: 'Vance Joy',
      genre: 'Folk',
    });
    const m4a = await makeAudio(path.join(folder, 'four.m4a'), {
      title: 'Levitating',
      artist: 'Dua Lipa',
      genre: 'Dance-Pop',
      date: '2020-03-27',
    });
    const wav = await makeAudio(path.join(folder, 'five.wav'), {
      title: 'Señorita',
      artist: 'Zoë',
      genre: 'Indie',
    });
    const corrupt = path.join(folder, 'broken.mp3');
    await fs.writeFile(corrupt, 'this is a text file with an mp3 name, not audio\n'.repeat(40));
    await fs.writeFile(path.join(folder, 'cover.jpg'), 'not audio, not an audio extension');

    const summary = await importLibraryFolder(t.deps.db, folder);
    expect(LibraryImportResult.parse(summary)).toEqual(summary);
    expect(summary).toMatchObject({ scanned: 6, imported: 5, updated: 0, unchanged: 0, missing_marked: 0 });
    expect(summary.failed).toHaveLength(1);
    expect(summary.failed[0]!.file).toBe(corrupt);
    expect(summary.failed[0]!.reason).toMatch(/no audio stream could be read|not a readable audio file/);

    const one = await songAt(mp3);
    expect(one).toMatchObject({
      title: 'Blinding Lights',
      artist: 'The Weeknd',
      album: 'After Hours',
      genre: 'Hip-Hop/R&B',
      releaseDate: '2019-01-01',
      filePresent: true,
      fileSizeBytes: (await fs.stat(mp3)).size,
      contentHash: await sha256(mp3),
      searchKey: 'blinding lights the weeknd',
      tags: { album_artist: 'The Weeknd', track: 9, year: 2019, genre: 'R&B' },
    });
    // 1.5 s of audio; encoders add a few milliseconds of padding.
    expect(one!.durationMs).toBeGreaterThanOrEqual(1490);
    expect(one!.durationMs).toBeLessThanOrEqual(1600);

    expect(await songAt(flac)).toMatchObject({
      genre: 'Blues/Jazz',
      releaseDate: '1971-05-14',
      title: 'Ain’t No Sunshine',
    });
    expect(await songAt(ogg)).toMatchObject({ genre: 'Acoustic', releaseDate: null, artist: 'Vance Joy' });
    expect(await songAt(m4a)).toMatchObject({ genre: 'Pop', releaseDate: '2020-03-27' });
    // RIFF INFO text comes back as UTF-8 even though the parser reads it as Latin-1.
    expect(await songAt(wav)).toMatchObject({ genre: 'Contemporary', title: 'Señorita', artist: 'Zoë' });
    expect(await songAt(corrupt)).toBeUndefined();
  });

  it('falls back to the file name and Unknown Artist when a file has no tags', async () => {
    const folder = await newFolder('untagged');
    const file = await makeAudio(path.join(folder, 'Track 07 (live).flac'));
    const summary = await importLibraryFolder(t.deps.db, folder);
    expect(summary).toMatchObject({ scanned: 1, imported: 1, failed: [] });
    expect(await songAt(file)).toMatchObject({
      title: 'Track 07 (live)',
      artist: UNKNOWN_ARTIST,
      genre: null,
      releaseDate: null,
      tags: { album_artist: null, track: null, year: null, genre: null },
    });
  });

  it('measures a long Ogg Vorbis file, whose header declares no duration', async () => {
    const folder = await newFolder('long-ogg');
    const file = await makeAudio(path.join(folder, 'long.ogg'), { title: 'Long', artist: 'Band' }, 70);
    const summary = await importLibraryFolder(t.deps.db, folder);
    expect(summary).toMatchObject({ scanned: 1, imported: 1, failed: [] });
    const song = await songAt(file);
    expect(song?.durationMs).toBeGreaterThan(69_500);
    expect(song?.durationMs).toBeLessThan(70_500);
  });

  it('changes nothing when nothing changed on disk', async () => {
    const folder = await newFolder('stable');
    await makeAudio(path.join(folder, 'x.mp3'), { title: 'X', artist: 'A', genre: 'Blues' });
    await makeAudio(path.join(folder, 'y.ogg'), { title: 'Y', artist: 'B', genre: 'Rock' });
    expect(await importLibraryFolder(t.deps.db, folder)).toMatchObject({ imported: 2, unchanged: 0 });
    const before = await songsUnder(folder);

    const again = await importLibraryFolder(t.deps.db, folder);
    expect(again).toEqual({
      scanned: 2,
      imported: 0,
      updated: 0,
      unchanged: 2,
      missing_marked: 0,
      failed: [],
    });
    expect(await songsUnder(folder)).toEqual(before);
  });

  it('keeps a moved or renamed file as the same song (identity by content hash)', async () => {
    const folder = await newFolder('moves');
    const original = await makeAudio(path.join(folder, 'old/name.mp3'), { title: 'Moved', artist: 'Mover' });
    await importLibraryFolder(t.deps.db, folder);
    const song = await songAt(original);
    const [{ total: songsBefore }] = (await t.deps.db.execute(sql`select count(*)::int as total from songs`))
      .rows as [{ total: number }];

    const moved = path.join(folder, 'new/renamed.mp3');
    await fs.mkdir(path.dirname(moved), { recursive: true });
    await fs.rename(original, moved);
    const seen: ImportedSong[] = [];
    const summary = await importLibraryFolder(t.deps.db, folder, {
      hooks: [(imported) => void seen.push(imported)],
    });

    expect(summary).toEqual({
      scanned: 1,
      imported: 0,
      updated: 1,
      unchanged: 0,
      missing_marked: 0,
      failed: [],
    });
    expect(await songAt(original)).toBeUndefined();
    expect(await songAt(moved)).toMatchObject({ id: song!.id, title: 'Moved', filePresent: true });
    expect(seen).toEqual([
      { songId: song!.id, filePath: moved, contentHash: song!.contentHash, change: 'moved' },
    ]);
    const [{ total: songsAfter }] = (await t.deps.db.execute(sql`select count(*)::int as total from songs`))
      .rows as [{ total: number }];
    expect(songsAfter).toBe(songsBefore);
  });

  it('refuses a second copy of the same audio while the first is still on disk', async () => {
    const folder = await newFolder('copies');
    const first = await makeAudio(path.join(folder, 'a.mp3'), { title: 'Twice', artist: 'Copy' });
    const copy = path.join(folder, 'b.mp3');
    await fs.copyFile(first, copy);
    const summary = await importLibraryFolder(t.deps.db, folder);
    expect(summary).toMatchObject({ scanned: 2, imported: 1 });
    expect(summary.failed).toEqual([
      { file: copy, reason: expect.stringContaining(`the same audio as ${first}`) },
    ]);
    expect(await songAt(first)).toMatchObject({ title: 'Twice' });
  });

  it('marks songs whose file is gone as missing, once, and present again when the file is back', async () => {
    const folder = await newFolder('missing');
    const keep = await makeAudio(path.join(folder, 'keep.mp3'), { title: 'Keep', artist: 'K' });
    const gone = await makeAudio(path.join(folder, 'gone.mp3'), { title: 'Gone', artist: 'G' });
    await importLibraryFolder(t.deps.db, folder);
    const backup = `${gone}.bak-outside`;
    await fs.rename(gone, path.join(outside, path.basename(backup)));

    const summary = await importLibraryFolder(t.deps.db, folder);
    expect(summary).toEqual({
      scanned: 1,
      imported: 0,
      updated: 0,
      unchanged: 1,
      missing_marked: 1,
      failed: [],
    });
    expect(await songAt(gone)).toMatchObject({ filePresent: false, filePath: gone });
    expect(await songAt(keep)).toMatchObject({ filePresent: true });
    expect((await importLibraryFolder(t.deps.db, folder)).missing_marked).toBe(0);

    await fs.rename(path.join(outside, path.basename(backup)), gone);
    const seen: ImportedSong[] = [];
    const back = await importLibraryFolder(t.deps.db, folder, { hooks: [(song) => void seen.push(song)] });
    expect(back).toMatchObject({ updated: 1, unchanged: 1, missing_marked: 0 });
    expect(await songAt(gone)).toMatchObject({ filePresent: true });
    expect(seen.map((song) => song.change)).toEqual(['restored']);
  });

  it('updates a song when the file at its path has new content, keeping what the new tags do not say', async () => {
    const folder = await newFolder('retagged');
    const file = await makeAudio(path.join(folder, 'song.flac'), {
      title: 'Old Title',
      artist: 'Same',
      genre: 'Soul',
    });
    await importLibraryFolder(t.deps.db, folder);
    const before = await songAt(file);
    await makeAudio(file, { title: 'New Title', artist: 'Same' });

    const summary = await importLibraryFolder(t.deps.db, folder);
    expect(summary).toMatchObject({ updated: 1, imported: 0 });
    expect(await songAt(file)).toMatchObject({
      id: before!.id,
      title: 'New Title',
      genre: 'Blues/Jazz',
      contentHash: await sha256(file),
      searchKey: 'new title same',
    });
  });

  it('gives a file to the played song without a file that has the same title and artist', async () => {
    const folder = await newFolder('attach');
    const [played] = await t.deps.db
      .insert(songs)
      .values({
        title: 'Wanted Song',
        artist: 'Downloaded Artist',
        searchKey: 'wanted song downloaded artist',
      })
      .returning();
    const file = await makeAudio(path.join(folder, 'wanted.mp3'), {
      title: 'Wanted Song',
      artist: 'Downloaded Artist',
      genre: 'Pop',
    });
    const summary = await importLibraryFolder(t.deps.db, folder);
    expect(summary).toMatchObject({ imported: 0, updated: 1 });
    expect(await songAt(file)).toMatchObject({ id: played!.id, filePresent: true, genre: 'Pop' });
  });

  it('lists a failing hook as a failure of that file and goes on', async () => {
    const folder = await newFolder('hooks');
    await makeAudio(path.join(folder, '1.mp3'), { title: 'H1', artist: 'H' });
    const second = await makeAudio(path.join(folder, '2.mp3'), { title: 'H2', artist: 'H' });
    const summary = await importLibraryFolder(t.deps.db, folder, {
      hooks: [
        (song) => {
          if (song.filePath === second) throw new Error('fingerprinter is down');
        },
      ],
    });
    expect(summary.imported).toBe(2);
    expect(summary.failed).toEqual([
      { file: second, reason: 'imported, but a follow-up step failed: fingerprinter is down' },
    ]);
  });
});

describe('POST /api/library/import', () => {
  const post = (folder: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/library/import', payload: { folder } });

  it('imports a folder inside the library roots', async () => {
    const folder = await newFolder('api');
    const file = await makeAudio(path.join(folder, 'api.ogg'), {
      title: 'Via API',
      artist: 'HTTP',
      genre: 'Jazz',
    });
    const response = await post(folder);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      scanned: 1,
      imported: 1,
      updated: 0,
      unchanged: 0,
      missing_marked: 0,
      failed: [],
    });
    expect(await songAt(file)).toMatchObject({ genre: 'Blues/Jazz' });
  });

  it('refuses folders outside the library roots, also through .. and symbolic links, naming the roots', async () => {
    await makeAudio(path.join(outside, 'secret.mp3'), { title: 'Outside', artist: 'O' });
    const link = path.join(root, 'link-out');
    await fs.symlink(outside, link);
    for (const folder of [outside, `${root}/../elsewhere`, link]) {
      const response = await post(folder);
      expect(response.statusCode, folder).toBe(400);
      expect(response.json().message).toBe(
        `Folder ${folder} is outside the library roots (${root}). Import a folder inside one of them, or add its parent folder to WCS_LIBRARY_ROOTS.`,
      );
    }
    expect(await songAt(path.join(outside, 'secret.mp3'))).toBeUndefined();
  });

  it('answers 400 with a reason for a relative path, a missing folder, a file and an empty body', async () => {
    const relative = await post('music/wcs');
    expect(relative.statusCode).toBe(400);
    expect(relative.json().message).toContain('folder must be an absolute path');
    const missing = await post(path.join(root, 'nope'));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(`Folder ${path.join(root, 'nope')} does not exist`);
    const file = await makeAudio(path.join(root, 'file-not-folder.mp3'));
    const notFolder = await post(file);
    expect(notFolder.statusCode).toBe(400);
    expect(notFolder.json().message).toBe(`${file} is a file, not a folder`);
    const empty = await post('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('name the folder to import');
  });
});

describe('wcs library import', () => {
  beforeAll(async () => {
    // The CLI runs from dist, as users run it. Other people's type errors do not stop the emit.
    await execFileAsync(
      process.execPath,
      [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-b', serverDir],
      {
        cwd: repoRoot,
      },
    ).catch(() => {});
  }, 180_000);

  it('imports any folder and prints the summary as JSON', async () => {
    // Outside the roots on purpose: the command line may import any folder.
    const folder = path.join(outside, 'cli');
    const file = await makeAudio(path.join(folder, 'cli.mp3'), {
      title: 'From CLI',
      artist: 'Shell',
      genre: 'Hip Hop',
    });
    const relative = path.relative(repoRoot, folder);
    const { stdout } = await execFileAsync(
      process.execPath,
      [path.join(serverDir, 'bin/wcs.js'), 'library', 'import', relative, '--json'],
      { cwd: repoRoot, env: { ...process.env, DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'silent' } },
    );
    expect(JSON.parse(stdout)).toEqual({
      scanned: 1,
      imported: 1,
      updated: 0,
      unchanged: 0,
      missing_marked: 0,
      failed: [],
    });
    // Stored absolute, though the command was given a relative path.
    expect(await songAt(file)).toMatchObject({ title: 'From CLI', genre: 'Hip-Hop/R&B', filePresent: true });
    // The change asks the server's worker for a score recompute.
    const jobs = await t.deps.db.execute(
      sql`select count(*)::int as total from pgboss.job where name = 'scores.recompute'`,
    );
    expect((jobs.rows[0] as { total: number }).total).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('prints a readable summary with the failures', async () => {
    const folder = path.join(outside, 'cli-text');
    await makeAudio(path.join(folder, 'ok.flac'), { title: 'Fine', artist: 'Text' });
    await fs.writeFile(path.join(folder, 'bad.ogg'), 'nope');
    const { stdout } = await execFileAsync(
      process.execPath,
      [path.join(serverDir, 'bin/wcs.js'), 'library', 'import', folder],
      { cwd: repoRoot, env: { ...process.env, DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'silent' } },
    );
    expect(stdout).toContain('[wcs] 2/2 files');
    expect(stdout).toMatch(
      /Scanned 2 audio files in .*cli-text \([\d.]+ s\): 1 imported, 0 updated, 0 unchanged, 0 marked missing, 1 failed\./,
    );
    expect(stdout).toContain(`failed: ${path.join(folder, 'bad.ogg')}: `);
  }, 60_000);
});
