import { DOWNLOAD_PREVIEW_TOP } from '@wcs/contract';
import { eq, inArray } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { downloadQueue, events, songs } from '../db/schema.js';
import { createTestDatabase, type TestDatabase } from '../test/harness.js';
import { foldPlaySummary } from './analytics/play-summary.js';
import { countDownloadCandidates, findDownloadCandidates, getDownloadStats } from './downloads.js';
import { type NewPlay, recordPlays } from './plays.js';

/**
 * Download stats' "played but no file" and the download preview's candidates read the play
 * summary (migration 0021): they must answer exactly what the queries over every song and its
 * plays answer (findDownloadCandidates, and the count recomputed here), whether or not the dirty
 * songs were folded, after plays come and go, files come and go, priorities change and songs are
 * deleted, and while other transactions are open. Each check also asserts the expected figures,
 * so a change that did nothing fails.
 */

let t: TestDatabase;
let ids: number[];
let eventId: number;
const RULES = { minimum_plays_to_download: 3, download_priority_threshold: 20 };

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

beforeEach(async () => {
  await t.pool.query(
    'truncate plays, socials, recordings, events, songs, download_queue restart identity cascade',
  );
  await foldPlaySummary(t.pool);
  // Songs 0-5 without a file (priorities as the scores job would have stored them), 6 with one.
  const rows = [40, 25, 25, 5, 90, 60, 0].map((priority, i) => ({
    title: `Song ${i}`,
    artist: 'Artist',
    searchKey: `song ${i}`,
    downloadPriority: priority,
    ...(i === 6 ? { filePresent: true, filePath: '/music/6.mp3' } : {}),
  }));
  ids = (await t.db.insert(songs).values(rows).returning({ id: songs.id })).map((row) => row.id);
  [{ id: eventId }] = (await t.db
    .insert(events)
    .values({ name: 'Festival', startDate: '2026-03-14', endDate: '2026-03-15', timezone: 'UTC' })
    .returning({ id: events.id })) as [{ id: number }];
  // Plays: song 0 ×3, 1 ×4, 2 ×3, 3 ×5, 4 ×2, 6 ×3; song 5 none.
  const counts = [3, 4, 3, 5, 2, 0, 3];
  await recordPlays(
    t.db,
    counts.flatMap((n, song) => Array.from({ length: n }, (_, k) => play(song, 20 + k))),
  );
});

const play = (song: number, hour: number): NewPlay => ({
  songId: ids[song]!,
  eventId,
  startedAt: new Date(`2026-03-14T${String(hour % 24).padStart(2, '0')}:30:00Z`),
  source: 'manual',
});

async function playedButNoFileRecomputed(): Promise<number> {
  const { rows } = await t.pool.query<{ n: number }>(
    `select count(*)::int as n from songs s
     where not s.file_present and exists (select 1 from plays p where p.song_id = s.id)`,
  );
  return rows[0]!.n;
}

/** Both answers equal the recomputation; `expected` is the recomputation's own figures. */
async function expectExact(expected: { playedNoFile: number; candidates: number[] }): Promise<void> {
  expect(await playedButNoFileRecomputed()).toBe(expected.playedNoFile);
  expect((await getDownloadStats(t.db)).songs.played_but_no_file).toBe(expected.playedNoFile);
  const all = await findDownloadCandidates(t.db, RULES);
  expect(all.map((candidate) => ids.indexOf(candidate.songId))).toEqual(expected.candidates);
  const counted = await countDownloadCandidates(t.db, RULES, DOWNLOAD_PREVIEW_TOP);
  expect(counted.total).toBe(all.length);
  expect(counted.top).toEqual(all.slice(0, DOWNLOAD_PREVIEW_TOP));
  // A shorter top keeps the same order and total.
  const two = await countDownloadCandidates(t.db, RULES, 2);
  expect(two).toEqual({ total: all.length, top: all.slice(0, 2) });
}

async function expectExactFoldedOrNot(expected: { playedNoFile: number; candidates: number[] }) {
  await expectExact(expected);
  await foldPlaySummary(t.pool);
  const { rows } = await t.pool.query<{ n: number }>('select count(*)::int as n from play_summary_dirty');
  expect(rows[0]!.n).toBe(0);
  await expectExact(expected);
}

const setPriority = (song: number, priority: number) =>
  t.db.update(songs).set({ downloadPriority: priority }).where(eq(songs.id, ids[song]!));

describe('download stats and preview from the play summary', () => {
  it('match the queries over every song, folded or not', async () => {
    // Candidates: 0 (40, 3 plays), 1 and 2 (25, tie by id); not 3 (priority 5), 4 (2 plays), 5 (no
    // plays), 6 (a file). Played without a file: 0-4.
    await expectExactFoldedOrNot({ playedNoFile: 5, candidates: [0, 1, 2] });
  });

  it('follow plays that come and go', async () => {
    await foldPlaySummary(t.pool);
    await recordPlays(t.db, [play(4, 1), play(5, 2), play(5, 3), play(5, 4)]);
    await expectExactFoldedOrNot({ playedNoFile: 6, candidates: [4, 5, 0, 1, 2] });
    await t.pool.query('delete from plays where song_id = $1', [ids[0]]);
    await t.pool.query('delete from plays where id = (select min(id) from plays where song_id = $1)', [
      ids[1],
    ]);
    await expectExactFoldedOrNot({ playedNoFile: 5, candidates: [4, 5, 1, 2] });
    await t.pool.query('truncate plays cascade');
    await expectExactFoldedOrNot({ playedNoFile: 0, candidates: [] });
  });

  it('follow files and priorities that change after the fold, and deleted songs', async () => {
    await foldPlaySummary(t.pool);
    await t.db
      .update(songs)
      .set({ filePresent: true, filePath: '/music/0.mp3' })
      .where(eq(songs.id, ids[0]!));
    await t.db.update(songs).set({ filePresent: false }).where(eq(songs.id, ids[6]!));
    await setPriority(6, 30);
    await expectExactFoldedOrNot({ playedNoFile: 5, candidates: [6, 1, 2] });
    await setPriority(2, 19.999);
    await setPriority(3, 50);
    await setPriority(1, 26);
    await expectExactFoldedOrNot({ playedNoFile: 5, candidates: [3, 6, 1] });
    await t.db.delete(songs).where(inArray(songs.id, [ids[3]!, ids[4]!]));
    await expectExactFoldedOrNot({ playedNoFile: 3, candidates: [6, 1] });
  });

  it('leave out songs completed in the queue', async () => {
    await t.db.insert(downloadQueue).values([
      { songId: ids[0]!, priorityScore: 40, status: 'completed' },
      { songId: ids[1]!, priorityScore: 25, status: 'failed' },
    ]);
    await expectExactFoldedOrNot({ playedNoFile: 5, candidates: [1, 2] });
  });
});

describe('download stats and preview with other transactions open (real PostgreSQL)', () => {
  it('see only what was committed, whether a fold ran meanwhile or not', async () => {
    await foldPlaySummary(t.pool);
    const scores: pg.PoolClient = await t.pool.connect();
    const recognition: pg.PoolClient = await t.pool.connect();
    try {
      await scores.query('begin');
      await recognition.query('begin');
      await scores.query('update songs set download_priority = 80 where id = $1', [ids[3]]);
      await recognition.query(
        `insert into plays (song_id, event_id, started_at, source) values ($1, $2, now(), 'manual')`,
        [ids[4], eventId],
      );
      await foldPlaySummary(t.pool);
      await expectExact({ playedNoFile: 5, candidates: [0, 1, 2] });
      await scores.query('commit');
      await expectExact({ playedNoFile: 5, candidates: [3, 0, 1, 2] });
      await foldPlaySummary(t.pool);
      await recognition.query('commit');
      await expectExactFoldedOrNot({ playedNoFile: 5, candidates: [4, 3, 0, 1, 2] });
    } finally {
      await scores.query('rollback').catch(() => undefined);
      await recognition.query('rollback').catch(() => undefined);
      scores.release();
      recognition.release();
    }
  });
});
