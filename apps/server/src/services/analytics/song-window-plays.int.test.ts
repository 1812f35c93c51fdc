import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events, plays, recordings, songs, songWindowPlays } from '../../db/schema.js';
import { createTestDatabase, type TestDatabase } from '../../test/harness.js';
import { songSearchKey } from '../../text.js';
import { type NewPlay, recordPlays } from '../plays.js';

/**
 * The triggers of migration 0003 keep song_window_plays equal to a GROUP BY over plays. Every
 * test changes plays one way and then compares the two, row for row; `expectSummaryExact` also
 * asserts the expected number of plays, so a test whose change did nothing fails too.
 */

let t: TestDatabase;
let songIds: number[];
let eventIds: number[];

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

beforeEach(async () => {
  await t.pool.query('truncate plays, socials, recordings, events, songs restart identity cascade');
  songIds = (
    await t.db
      .insert(songs)
      .values(
        ['One', 'Two', 'Three', 'Four'].map((title) => ({
          title,
          artist: 'Artist',
          searchKey: songSearchKey(title, 'Artist'),
        })),
      )
      .returning({ id: songs.id })
  ).map((row) => row.id);
  eventIds = (
    await t.db
      .insert(events)
      .values([
        { name: 'Party', startDate: '2026-03-14', endDate: '2026-03-15', timezone: 'UTC' },
        {
          name: 'Festival',
          startDate: '2026-07-10',
          endDate: '2026-07-12',
          timezone: 'UTC',
          isFestival: true,
        },
      ])
      .returning({ id: events.id })
  ).map((row) => row.id);
});

type Key = { song_id: number; time_window: string; play_count: number };

async function summary(): Promise<Key[]> {
  const { rows } = await t.pool.query<Key>(
    'select song_id, time_window, play_count from song_window_plays order by 1, 2',
  );
  return rows;
}

async function countedFromPlays(): Promise<Key[]> {
  const { rows } = await t.pool.query<Key>(`
    select song_id, coalesce(time_window, '') as time_window, count(*)::int as play_count
    from plays group by 1, 2 order by 1, 2`);
  return rows;
}

/** The summary equals the GROUP BY over plays, and holds `totalPlays` plays in all. */
async function expectSummaryExact(totalPlays: number): Promise<void> {
  const expected = await countedFromPlays();
  expect(await summary()).toEqual(expected);
  expect(expected.reduce((sum, row) => sum + row.play_count, 0)).toBe(totalPlays);
}

/** A play of song `song` (index) at UTC `at`; the events are in UTC, so the window is the hour. */
const play = (song: number, at: string, extra: Partial<NewPlay> = {}): NewPlay => ({
  songId: songIds[song]!,
  eventId: eventIds[0]!,
  startedAt: new Date(`${at}Z`),
  source: 'manual',
  ...extra,
});

describe('song_window_plays', () => {
  it('is empty when there are no plays', async () => {
    expect(await summary()).toEqual([]);
  });

  it('counts a single play, and a second play of the same song and window adds to its row', async () => {
    await recordPlays(t.db, [play(0, '2026-03-14T20:10:00')]);
    expect(await summary()).toEqual([{ song_id: songIds[0], time_window: '20-22', play_count: 1 }]);
    await recordPlays(t.db, [play(0, '2026-03-14T21:50:00')]);
    expect(await summary()).toEqual([{ song_id: songIds[0], time_window: '20-22', play_count: 2 }]);
    await expectSummaryExact(2);
  });

  it('counts multi-row inserts, repeated keys within one statement and plays outside the windows', async () => {
    // Song 0: twice in 20-22 within one INSERT, once at 19:00 (no window: ''); song 1: 22-00 and 04-06.
    await recordPlays(t.db, [
      play(0, '2026-03-14T20:10:00'),
      play(0, '2026-03-14T21:10:00'),
      play(0, '2026-03-14T19:00:00'),
      play(1, '2026-03-14T22:30:00'),
      play(1, '2026-03-15T05:59:00'),
    ]);
    expect(await summary()).toEqual([
      { song_id: songIds[0], time_window: '', play_count: 1 },
      { song_id: songIds[0], time_window: '20-22', play_count: 2 },
      { song_id: songIds[1], time_window: '04-06', play_count: 1 },
      { song_id: songIds[1], time_window: '22-00', play_count: 1 },
    ]);
    await expectSummaryExact(5);
  });

  it('stays exact across several INSERT statements of one recordPlays call', async () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      play(
        i % 4,
        `2026-03-14T${String(18 + (i % 6)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00`,
      ),
    );
    // Batches of 7 rows: 29 statements, most keys touched by many of them.
    await recordPlays(t.db, many, 7);
    await expectSummaryExact(200);
  });

  it('moves a play when its time window or song changes, and drops a key that reaches 0', async () => {
    const [a, b, c] = await recordPlays(t.db, [
      play(0, '2026-03-14T20:10:00'),
      play(0, '2026-03-14T20:20:00'),
      play(1, '2026-03-14T22:10:00'),
    ]);
    await t.db.update(plays).set({ timeWindow: '00-02' }).where(eq(plays.id, a!));
    expect(await summary()).toEqual([
      { song_id: songIds[0], time_window: '00-02', play_count: 1 },
      { song_id: songIds[0], time_window: '20-22', play_count: 1 },
      { song_id: songIds[1], time_window: '22-00', play_count: 1 },
    ]);
    // Song 1's only play moves to song 2: song 1 has no row left, not a row with 0.
    await t.db.update(plays).set({ songId: songIds[2]! }).where(eq(plays.id, c!));
    expect(await summary()).toEqual([
      { song_id: songIds[0], time_window: '00-02', play_count: 1 },
      { song_id: songIds[0], time_window: '20-22', play_count: 1 },
      { song_id: songIds[2], time_window: '22-00', play_count: 1 },
    ]);
    // Song and window at once, and to no window.
    await t.db.update(plays).set({ songId: songIds[3]!, timeWindow: null }).where(eq(plays.id, b!));
    expect(await summary()).toEqual([
      { song_id: songIds[0], time_window: '00-02', play_count: 1 },
      { song_id: songIds[2], time_window: '22-00', play_count: 1 },
      { song_id: songIds[3], time_window: '', play_count: 1 },
    ]);
    await expectSummaryExact(3);
  });

  it('handles a multi-row update that swaps plays between keys, and ignores updates of other columns', async () => {
    await recordPlays(t.db, [
      play(0, '2026-03-14T20:10:00'),
      play(0, '2026-03-14T20:20:00'),
      play(1, '2026-03-14T20:30:00'),
      play(2, '2026-03-14T23:30:00'),
    ]);
    // Songs 0 and 1 trade places in one statement: 20-22 of song 0 goes 2 -> 1, song 1 goes 1 -> 2.
    await t.pool.query(
      `update plays set song_id = case song_id when $1::int then $2::int else $1::int end
       where song_id in ($1, $2)`,
      [songIds[0], songIds[1]],
    );
    expect(await summary()).toEqual([
      { song_id: songIds[0], time_window: '20-22', play_count: 1 },
      { song_id: songIds[1], time_window: '20-22', play_count: 2 },
      { song_id: songIds[2], time_window: '22-00', play_count: 1 },
    ]);
    const before = await summary();
    await t.db.update(plays).set({ confidence: 0.5, socialId: null });
    expect(await summary()).toEqual(before);
    await expectSummaryExact(4);
  });

  it('subtracts deleted plays, one or several per statement', async () => {
    const ids = await recordPlays(t.db, [
      play(0, '2026-03-14T20:10:00'),
      play(0, '2026-03-14T20:20:00'),
      play(0, '2026-03-14T19:00:00'),
      play(1, '2026-03-14T22:10:00'),
      play(1, '2026-03-14T22:20:00'),
    ]);
    await t.db.delete(plays).where(eq(plays.id, ids[0]!));
    expect(await summary()).toEqual([
      { song_id: songIds[0], time_window: '', play_count: 1 },
      { song_id: songIds[0], time_window: '20-22', play_count: 1 },
      { song_id: songIds[1], time_window: '22-00', play_count: 2 },
    ]);
    await t.db.delete(plays).where(inArray(plays.id, [ids[1]!, ids[2]!, ids[3]!]));
    expect(await summary()).toEqual([{ song_id: songIds[1], time_window: '22-00', play_count: 1 }]);
    await expectSummaryExact(1);
  });

  it('follows the cascades of deleting a song, an event and a recording', async () => {
    const [recording] = await t.db
      .insert(recordings)
      .values({ sessionId: 'session-1', filename: 'night.webm', source: 'browser', recordedAt: new Date() })
      .returning({ id: recordings.id });
    await recordPlays(t.db, [
      play(0, '2026-03-14T20:10:00'),
      play(1, '2026-03-14T20:20:00'),
      play(1, '2026-03-14T22:20:00', { recordingId: recording!.id, source: 'recording' }),
      play(2, '2026-03-14T22:40:00', { recordingId: recording!.id, source: 'recording' }),
      play(2, '2026-07-10T21:00:00', { eventId: eventIds[1]! }),
      play(3, '2026-07-10T23:00:00', { eventId: eventIds[1]! }),
    ]);
    await expectSummaryExact(6);

    // Song 0 goes, with its play and its summary row (both cascade from songs).
    await t.db.delete(songs).where(eq(songs.id, songIds[0]!));
    await expectSummaryExact(5);
    // The recording's two plays go; song 1 keeps its other play.
    await t.db.delete(recordings).where(eq(recordings.id, recording!.id));
    await expectSummaryExact(3);
    expect(await summary()).toEqual([
      { song_id: songIds[1], time_window: '20-22', play_count: 1 },
      { song_id: songIds[2], time_window: '20-22', play_count: 1 },
      { song_id: songIds[3], time_window: '22-00', play_count: 1 },
    ]);
    // The festival's plays go.
    await t.db.delete(events).where(eq(events.id, eventIds[1]!));
    expect(await summary()).toEqual([{ song_id: songIds[1], time_window: '20-22', play_count: 1 }]);
    await expectSummaryExact(1);
  });

  it('is emptied by TRUNCATE of plays, alone or cascading from songs', async () => {
    await recordPlays(t.db, [play(0, '2026-03-14T20:10:00'), play(1, '2026-03-14T22:10:00')]);
    // cascade: imported_plays refers to plays (DJ-software imports), as an operator's truncate must.
    await t.pool.query('truncate plays cascade');
    expect(await summary()).toEqual([]);
    await recordPlays(t.db, [play(0, '2026-03-14T20:10:00')]);
    await t.pool.query('truncate songs cascade');
    expect(await summary()).toEqual([]);
    expect(await t.db.$count(songWindowPlays)).toBe(0);
  });

  it('stays exact under concurrent transactions inserting, moving and deleting plays of the same songs', async () => {
    await recordPlays(t.db, [play(0, '2026-03-14T20:10:00')]);
    // Each worker writes in its own transaction on its own connection, touching the songs in a
    // different order; the triggers' key order keeps them from deadlocking.
    const worker = async (w: number) => {
      const client = await t.pool.connect();
      try {
        for (let round = 0; round < 5; round += 1) {
          await client.query('begin');
          const order = w % 2 === 0 ? [0, 1, 2, 3] : [3, 2, 1, 0];
          const { rows } = await client.query<{ id: number }>(
            `insert into plays (song_id, event_id, started_at, time_window, source)
             select s, $2, now(), w, 'manual' from unnest($1::int[], $3::text[]) as t(s, w) returning id`,
            [order.map((i) => songIds[i]), eventIds[0], ['20-22', '22-00', null, '20-22']],
          );
          await client.query('update plays set time_window = $2 where id = $1', [rows[0]!.id, '02-04']);
          await client.query('delete from plays where id = $1', [rows[1]!.id]);
          await client.query('commit');
        }
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    };
    await Promise.all([0, 1, 2, 3].map(worker));
    // 1 + 4 workers × 5 rounds × (4 inserted - 1 deleted).
    await expectSummaryExact(61);
  });

  it('is backfilled by its migration from the plays stored before it', async () => {
    // Back to the state before the migration: no triggers, an empty summary, plays already there.
    await t.pool.query(`drop function song_window_plays_after_insert, song_window_plays_after_delete,
      song_window_plays_after_update, song_window_plays_after_truncate, song_window_plays_apply cascade`);
    await recordPlays(t.db, [
      play(0, '2026-03-14T20:10:00'),
      play(0, '2026-03-14T19:10:00'),
      play(2, '2026-03-14T23:10:00'),
      play(2, '2026-03-14T23:50:00'),
    ]);
    await t.pool.query('delete from song_window_plays');
    expect(await summary()).toEqual([]);

    // Then the migration file itself, statement by statement in one transaction, as the migrator does.
    const dir = fileURLToPath(new URL('../../db/migrations/', import.meta.url));
    const file = (await fs.readdir(dir)).find((name) => name.endsWith('_song_window_plays_triggers.sql'));
    const statements = (await fs.readFile(path.join(dir, file!), 'utf8')).split('--> statement-breakpoint');
    const client = await t.pool.connect();
    try {
      await client.query('begin');
      for (const statement of statements) await client.query(statement);
      await client.query('commit');
    } finally {
      client.release();
    }
    expect(await summary()).toEqual([
      { song_id: songIds[0], time_window: '', play_count: 1 },
      { song_id: songIds[0], time_window: '20-22', play_count: 1 },
      { song_id: songIds[2], time_window: '22-00', play_count: 2 },
    ]);
    // And the triggers it created are live again.
    await recordPlays(t.db, [play(3, '2026-03-14T20:10:00')]);
    await expectSummaryExact(5);
  });
});
