import { eq, inArray } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ANALYSIS_VERSION } from '../audio/analysis/index.js';
import { DEMO_VERSION_PREFIX, songs } from '../db/schema.js';
import { createTestDatabase, type TestDatabase } from '../test/harness.js';
import { songSearchKey } from '../text.js';
import { analysisStatus } from './library/analysis.js';
import {
  analysisCounts,
  fingerprintedWithFile,
  foldSongCounts,
  libraryMeans,
  songTotal,
} from './song-counts.js';
import { listSongs } from './songs.js';

/**
 * The song counts summary (migration 0020, song-counts.ts) must answer exactly what the counts
 * and means over the songs table answer (the queries the calls ran before it, recomputed here),
 * whether or not its rows were folded, after inserts, updates of every column it follows, deletes
 * and a truncate, and with concurrent writers. Each check also asserts the expected number of
 * songs, so a change that did nothing fails.
 */

let t: TestDatabase;
const NOW = new Date('2026-11-26T12:00:00Z');

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

type SongValues = Partial<typeof songs.$inferInsert>;

const song = (title: string, values: SongValues = {}): typeof songs.$inferInsert => ({
  title,
  artist: 'Artist',
  searchKey: songSearchKey(title, 'Artist'),
  ...values,
});

const withFile = (name: string, bytes: number | null): SongValues => ({
  filePresent: true,
  filePath: `/music/${name}.mp3`,
  fileSizeBytes: bytes,
});

let ids: number[];

beforeEach(async () => {
  await t.pool.query('truncate plays, socials, recordings, events, songs restart identity cascade');
  await foldSongCounts(t.pool);
  ids = (
    await t.db
      .insert(songs)
      .values([
        song('Analysed', {
          ...withFile('a', 8_000_001),
          analyzedAt: NOW,
          analysisVersion: ANALYSIS_VERSION,
          analysisDurationMs: 1234,
          fingerprintedAt: NOW,
        }),
        song('Outdated', {
          ...withFile('b', 5_000_000),
          analyzedAt: NOW,
          analysisVersion: 'old-analyser/1',
          analysisDurationMs: 999,
        }),
        song('Failed', { ...withFile('c', null), analysisError: 'could not decode' }),
        song('Demo', {
          ...withFile('d', 7_777_777),
          analyzedAt: NOW,
          analysisVersion: `${DEMO_VERSION_PREFIX}1 (generated)`,
          fingerprintedAt: NOW,
        }),
        song('No file'),
        song('No file, failed before', { analysisError: 'file went missing' }),
      ])
      .returning({ id: songs.id })
  ).map((row) => row.id);
});

/** The counts and means as the calls computed them before the summary: over every song. */
async function recomputed() {
  const { rows } = await t.pool.query(
    `select count(*)::int as total,
            (count(*) filter (where analyzed_at is not null))::int as analyzed,
            (count(*) filter (where analysis_error is not null and file_present))::int as failed,
            (count(*) filter (where file_present and analysis_version is distinct from $1
               and coalesce(analysis_version not like $2, true)))::int as outdated,
            (count(*) filter (where not file_present))::int as no_file,
            (count(*) filter (where fingerprinted_at is not null and file_present))::int as fingerprinted,
            avg(file_size_bytes) filter (where file_present) as file_bytes,
            avg(analysis_duration_ms) filter (where analyzed_at is not null) as analysis_ms
     from songs`,
    [ANALYSIS_VERSION, `${DEMO_VERSION_PREFIX}%`],
  );
  const row = rows[0];
  const value = (text: string | null) => (text === null ? null : Number(text));
  return {
    counts: {
      total: row.total,
      analyzed: row.analyzed,
      failed: row.failed,
      outdated: row.outdated,
      no_file: row.no_file,
    },
    fingerprinted: row.fingerprinted as number,
    means: { fileBytes: value(row.file_bytes), analysisMs: value(row.analysis_ms) },
  };
}

async function expectExact(totalSongs: number): Promise<void> {
  const expected = await recomputed();
  expect(expected.counts.total).toBe(totalSongs);
  expect(await analysisCounts(t.db)).toEqual(expected.counts);
  expect(await songTotal(t.db)).toBe(totalSongs);
  expect((await listSongs(t.db, { skip: 0, limit: 1 })).total).toBe(totalSongs);
  expect(await fingerprintedWithFile(t.db)).toBe(expected.fingerprinted);
  expect(await libraryMeans(t.db)).toEqual(expected.means);
  const status = await analysisStatus(t.db);
  expect({
    total: status.total_songs,
    analyzed: status.analyzed,
    failed: status.failed,
    outdated: status.outdated,
    no_file: status.no_file,
  }).toEqual(expected.counts);
}

const rowCount = async () =>
  (await t.pool.query<{ n: number }>('select count(*)::int as n from song_counts')).rows[0]!.n;

/** Checks with the rows as appended, collapses them, checks again (one row per group left). */
async function expectExactFoldedOrNot(totalSongs: number): Promise<void> {
  await expectExact(totalSongs);
  await foldSongCounts(t.pool);
  const { rows } = await t.pool.query<{ groups: number }>(
    `select count(*)::int as groups from (select distinct file_present, analyzed_at is not null,
       analysis_error is not null, fingerprinted_at is not null, analysis_version from songs) g`,
  );
  expect(await rowCount()).toBe(rows[0]!.groups);
  await expectExact(totalSongs);
}

describe('song counts summary', () => {
  it('matches the counts and means over the songs, folded or not', async () => {
    const recomputedNow = await recomputed();
    // The dataset's own figures, so a recomputation that went wrong as well would not pass.
    expect(recomputedNow.counts).toEqual({ total: 6, analyzed: 3, failed: 1, outdated: 2, no_file: 2 });
    expect(recomputedNow.fingerprinted).toBe(2);
    expect(recomputedNow.means.fileBytes).toBeCloseTo((8_000_001 + 5_000_000 + 7_777_777) / 3, 6);
    expect(recomputedNow.means.analysisMs).toBeCloseTo((1234 + 999) / 2, 6);
    await expectExactFoldedOrNot(6);
  });

  it('follows updates of each column it counts, and ignores the others', async () => {
    await foldSongCounts(t.pool);
    const before = await rowCount();
    // The score recompute's columns: no row appended.
    await t.pool.query('update songs set overplay_score = 50, download_priority = 3, exposure = 2');
    expect(await rowCount()).toBe(before);

    await t.db
      .update(songs)
      .set({
        analyzedAt: NOW,
        analysisVersion: ANALYSIS_VERSION,
        analysisDurationMs: 4000,
        analysisError: null,
      })
      .where(eq(songs.id, ids[2]!));
    await expectExactFoldedOrNot(6);
    await t.db.update(songs).set({ filePresent: false }).where(eq(songs.id, ids[0]!));
    await t.db.update(songs).set({ fileSizeBytes: 123 }).where(eq(songs.id, ids[1]!));
    await t.db.update(songs).set({ fingerprintedAt: NOW }).where(eq(songs.id, ids[1]!));
    await expectExactFoldedOrNot(6);
    await t.db.update(songs).set({ analysisDurationMs: null }).where(eq(songs.id, ids[1]!));
    await t.db.update(songs).set({ analysisError: 'again' }).where(eq(songs.id, ids[3]!));
    await t.db.update(songs).set({ analyzedAt: null, analysisVersion: null }).where(eq(songs.id, ids[0]!));
    await expectExactFoldedOrNot(6);
    // Many rows in one statement, several groups at once.
    await t.pool.query(
      `update songs set file_present = true, file_path = '/music/' || id, file_size_bytes = id * 1000`,
    );
    await expectExactFoldedOrNot(6);
  });

  it('takes away deleted songs and a truncate, and adds inserts of many rows at once', async () => {
    await t.db.delete(songs).where(inArray(songs.id, [ids[0]!, ids[4]!]));
    await expectExactFoldedOrNot(4);
    await t.pool.query(
      `insert into songs (title, artist, search_key, file_present, file_path, file_size_bytes, analyzed_at, analysis_duration_ms)
       select 'Bulk ' || n, 'Artist', 'bulk ' || n, n % 2 = 0, case when n % 2 = 0 then '/bulk/' || n end,
              case when n % 3 = 0 then n * 10 end, case when n % 5 = 0 then now() end, n
       from generate_series(1, 500) n`,
    );
    await expectExactFoldedOrNot(504);
    await t.pool.query('truncate songs cascade');
    await expectExactFoldedOrNot(0);
    await t.db.insert(songs).values(song('After', withFile('after', 42)));
    await expectExactFoldedOrNot(1);
  });
});

describe('song counts summary under concurrent writers (real PostgreSQL)', () => {
  async function begin(): Promise<pg.PoolClient> {
    const client = await t.pool.connect();
    await client.query('begin');
    return client;
  }

  it('writers never wait on it; a fold meanwhile takes in only what was committed', async () => {
    await foldSongCounts(t.pool);
    const analysis = await begin();
    const importer = await begin();
    try {
      await analysis.query(
        `update songs set analyzed_at = now(), analysis_version = $2, analysis_error = null,
           analysis_duration_ms = 500 where id = $1`,
        [ids[2], ANALYSIS_VERSION],
      );
      await importer.query(
        `insert into songs (title, artist, search_key, file_present, file_path, file_size_bytes)
         values ('New', 'Artist', 'new artist', true, '/music/new.mp3', 1000)`,
      );
      await importer.query('update songs set file_present = false where id = $1', [ids[1]]);
      // Neither has committed: a reader and a fold on other connections see the songs as they were.
      await foldSongCounts(t.pool);
      await expectExact(6);
      await analysis.query('commit');
      await expectExact(6);
      await foldSongCounts(t.pool);
      await importer.query('commit');
      await expectExactFoldedOrNot(7);
    } finally {
      await analysis.query('rollback').catch(() => undefined);
      await importer.query('rollback').catch(() => undefined);
      analysis.release();
      importer.release();
    }
  });

  it('a rolled back writer leaves no trace, and folds on several connections at once stay exact', async () => {
    const rolledBack = await begin();
    await rolledBack.query('update songs set file_present = false');
    await rolledBack.query('rollback');
    rolledBack.release();
    for (let round = 0; round < 5; round += 1) {
      await t.pool.query('update songs set analysis_duration_ms = coalesce(analysis_duration_ms, 0) + 1');
      await Promise.all([foldSongCounts(t.pool), foldSongCounts(t.pool), foldSongCounts(t.pool)]);
    }
    await expectExactFoldedOrNot(6);
  });
});
