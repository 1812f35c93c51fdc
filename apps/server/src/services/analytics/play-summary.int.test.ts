import { eq, inArray } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events, plays, songs } from '../../db/schema.js';
import { createTestDatabase, type TestDatabase } from '../../test/harness.js';
import { songSearchKey } from '../../text.js';
import { type NewPlay, recordPlays, timeWindowOf } from '../plays.js';
import { fillMonthGaps, monthlyPlays } from './monthly-plays.js';
import { foldPlaySummary, type SummaryGroup, summaryGroups } from './play-summary.js';
import { topSongRows } from './top-songs.js';

/**
 * The play summary (migration 0014, play-summary.ts) must answer exactly what a GROUP BY over
 * plays and songs answers, whether or not the dirty songs have been folded, after any change of
 * plays or of the songs' genre and features; and writers of plays and songs must never deadlock
 * on it. Every check compares with a recomputation from plays, and also asserts the expected
 * number of plays, so a change that did nothing fails.
 */

let t: TestDatabase;
let songIds: number[];
let eventId: number;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

beforeEach(async () => {
  await t.pool.query('truncate plays, socials, recordings, events, songs restart identity cascade');
  await foldPlaySummary(t.pool);
  const rows = [
    { title: 'Alpha', genre: 'Pop', bpm: 100, energyLevel: 500, valence: 600, danceability: 700 },
    { title: 'Bravo', genre: 'Pop', bpm: 90.5, energyLevel: 400, valence: null, danceability: 300 },
    { title: 'Charlie', genre: 'Blues/Jazz', bpm: null, energyLevel: 300, valence: 300, danceability: null },
    { title: 'Delta', genre: null, bpm: 120.25, energyLevel: null, valence: 100, danceability: 900 },
  ];
  songIds = (
    await t.db
      .insert(songs)
      .values(
        rows.map((row) => ({ ...row, artist: 'Artist', searchKey: songSearchKey(row.title, 'Artist') })),
      )
      .returning({ id: songs.id })
  ).map((row) => row.id);
  [{ id: eventId }] = (await t.db
    .insert(events)
    .values({ name: 'Party', startDate: '2026-03-14', endDate: '2026-03-15', timezone: 'UTC' })
    .returning({ id: events.id })) as [{ id: number }];
});

/** A play of song `song` (index) at UTC `at`; the event is in UTC, so the window is the hour. */
const play = (song: number, at: string): NewPlay => ({
  songId: songIds[song]!,
  eventId,
  startedAt: new Date(`${at}Z`),
  source: 'manual',
});

type Group = Omit<SummaryGroup, 'bpm_sum'> & { bpm_sum: number };

/** The groups recomputed from every play, as the plain queries would. */
async function groupsFromPlays(): Promise<Group[]> {
  const { rows } = await t.pool.query<Group>(`
    select coalesce(p.time_window, '') as time_window, s.genre, count(*)::int as plays,
      coalesce(sum(s.bpm::float8), 0) as bpm_sum, count(s.bpm)::int as bpm_n,
      coalesce(sum(s.energy_level), 0)::float8 as energy_sum, count(s.energy_level)::int as energy_n,
      coalesce(sum(s.valence), 0)::float8 as valence_sum, count(s.valence)::int as valence_n,
      coalesce(sum(s.danceability), 0)::float8 as danceability_sum, count(s.danceability)::int as danceability_n
    from plays p join songs s on s.id = p.song_id
    group by 1, 2`);
  return rows;
}

const byKey = (a: Group, b: Group) =>
  `${a.time_window}|${a.genre}`.localeCompare(`${b.time_window}|${b.genre}`);

function normalised(rows: Group[]) {
  return [...rows].sort(byKey).map((row) => ({ ...row, bpm_sum: Math.round(row.bpm_sum * 1000) / 1000 }));
}

/**
 * The summary (folded part plus pending change) equals the recomputation, holding `totalPlays`
 * plays; so do Top Songs' counts and its number of songs played.
 */
async function expectExact(totalPlays: number): Promise<void> {
  const expected = await groupsFromPlays();
  expect(normalised((await summaryGroups(t.db)) as Group[])).toEqual(normalised(expected));
  expect(expected.reduce((sum, row) => sum + row.plays, 0)).toBe(totalPlays);

  const perSong = await topSongsFromPlays();
  const top = await topSongRows(t.db, undefined, 3);
  expect(
    top.data.map((row) => ({
      song_id: row.song_id,
      play_count: row.play_count,
      event_count: row.event_count,
      last_played_at: row.last_played_at,
    })),
  ).toEqual(perSong.slice(0, 3));
  expect(top.total).toBe(perSong.length);

  // Each song's plays per month (overplay trend, song performance), gaps filled as fillMonthGaps does.
  const { rows: months } = await t.pool.query<{ song_id: number; month: string; plays: number }>(`
    select p.song_id, to_char((p.started_at at time zone e.timezone) - interval '6 hours', 'YYYY-MM') as month,
      count(*)::int as plays
    from plays p join events e on e.id = p.event_id group by 1, 2`);
  for (const songId of songIds) {
    expect(await monthlyPlays(t.db, songId)).toEqual(
      fillMonthGaps(
        months.filter((row) => row.song_id === songId).map(({ month, plays }) => ({ month, plays })),
      ),
    );
  }
  expect(months.reduce((sum, row) => sum + row.plays, 0)).toBe(totalPlays);
}

type TopSongCounts = { song_id: number; play_count: number; event_count: number; last_played_at: string };

/** Top Songs' counts per song recomputed from every play, in Top Songs' order. */
async function topSongsFromPlays(): Promise<TopSongCounts[]> {
  const { rows } = await t.pool.query<TopSongCounts>(`
    select p.song_id, count(*)::int as play_count, count(distinct p.event_id)::int as event_count,
      to_char(max(p.started_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_played_at
    from plays p join songs s on s.id = p.song_id
    group by p.song_id, s.title order by 2 desc, s.title, 1`);
  return rows;
}

/** Checks before the fold (pending change read live), folds, and checks the folded summary. */
async function expectExactFoldedOrNot(totalPlays: number): Promise<void> {
  await expectExact(totalPlays);
  await foldPlaySummary(t.pool);
  const { rows } = await t.pool.query<{ n: number }>('select count(*)::int as n from play_summary_dirty');
  expect(rows[0]!.n).toBe(0);
  await expectExact(totalPlays);
  // The folded rows themselves hold each song's plays, distinct events and last play (migration
  // 0022), not only the answers built on them.
  const { rows: folded } = await t.pool.query<TopSongCounts>(`
    select s.song_id, s.play_count, s.event_count,
      to_char(s.last_played_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_played_at
    from play_summary_songs s order by s.play_count desc, s.title, s.song_id`);
  expect(folded).toEqual(await topSongsFromPlays());
}

async function someNight(): Promise<number[]> {
  return recordPlays(t.db, [
    play(0, '2026-03-14T20:10:00'),
    play(0, '2026-03-14T21:10:00'),
    play(1, '2026-03-14T20:30:00'),
    play(2, '2026-03-14T22:30:00'),
    play(2, '2026-03-14T19:00:00'),
    play(3, '2026-03-15T01:00:00'),
    play(3, '2026-03-15T01:30:00'),
    play(3, '2026-03-15T05:59:00'),
  ]);
}

describe('play summary', () => {
  it('is empty without plays, and exact after inserts, folded or not', async () => {
    await expectExactFoldedOrNot(0);
    await someNight();
    await expectExactFoldedOrNot(8);
    await recordPlays(t.db, [play(1, '2026-03-14T20:40:00'), play(2, '2026-03-14T20:50:00')]);
    await expectExactFoldedOrNot(10);
  });

  it("follows a song's genre, BPM and features when they change after its plays were folded", async () => {
    await someNight();
    await foldPlaySummary(t.pool);
    await t.db.update(songs).set({ genre: 'Blues/Jazz', bpm: 130 }).where(eq(songs.id, songIds[0]!));
    await t.db.update(songs).set({ energyLevel: null, valence: 900 }).where(eq(songs.id, songIds[1]!));
    await t.db.update(songs).set({ genre: 'Contemporary' }).where(eq(songs.id, songIds[3]!));
    await expectExactFoldedOrNot(8);
    // A title change reorders Top Songs' ties: Charlie, renamed 'Aardvark', now comes before Alpha
    // among the songs with 2 plays.
    await t.db.update(songs).set({ title: 'Aardvark' }).where(eq(songs.id, songIds[2]!));
    await expectExactFoldedOrNot(8);
  });

  it('takes away deleted plays, moved plays and deleted songs', async () => {
    const ids = await someNight();
    await foldPlaySummary(t.pool);
    await t.db.delete(plays).where(inArray(plays.id, [ids[0]!, ids[5]!]));
    await expectExactFoldedOrNot(6);
    await t.db.update(plays).set({ songId: songIds[1]!, timeWindow: '04-06' }).where(eq(plays.id, ids[1]!));
    await expectExactFoldedOrNot(6);
    await t.db.delete(songs).where(eq(songs.id, songIds[3]!));
    await expectExactFoldedOrNot(4);
    await t.pool.query('truncate plays cascade');
    await expectExactFoldedOrNot(0);
  });

  it('follows plays moved to another event or start time, and deleted events', async () => {
    const ids = await someNight();
    const [{ id: otherEventId }] = (await t.db
      .insert(events)
      .values({ name: 'Other', startDate: '2026-03-14', endDate: '2026-03-15', timezone: 'UTC' })
      .returning({ id: events.id })) as [{ id: number }];
    await foldPlaySummary(t.pool);
    // Alpha's two plays now lie in two events; Delta's last play is later.
    await t.db.update(plays).set({ eventId: otherEventId }).where(eq(plays.id, ids[0]!));
    await expectExactFoldedOrNot(8);
    expect((await topSongRows(t.db, undefined, 1)).data[0]).toMatchObject({ title: 'Delta', event_count: 1 });
    await t.db
      .update(plays)
      .set({ startedAt: new Date('2026-03-15T05:59:30Z') })
      .where(eq(plays.id, ids[7]!));
    await expectExactFoldedOrNot(8);
    expect((await topSongRows(t.db, undefined, 1)).data[0]).toMatchObject({
      last_played_at: '2026-03-15T05:59:30.000Z',
    });
    await t.db
      .update(plays)
      .set({ eventId: otherEventId })
      .where(inArray(plays.id, [ids[2]!, ids[3]!]));
    await expectExactFoldedOrNot(8);
    await t.db.delete(events).where(eq(events.id, otherEventId));
    await expectExactFoldedOrNot(5);
  });

  it("follows a play's month across months and an event's time zone change", async () => {
    // 03:00 UTC on 1 April is the night of 31 March in UTC, and noon on 1 April in Tokyo.
    await someNight();
    await recordPlays(t.db, [play(0, '2026-04-01T03:00:00'), play(0, '2026-05-02T22:00:00')]);
    await expectExactFoldedOrNot(10);
    expect(await monthlyPlays(t.db, songIds[0]!)).toEqual([
      { month: '2026-03', plays: 3 },
      { month: '2026-04', plays: 0 },
      { month: '2026-05', plays: 1 },
    ]);
    await t.db.update(events).set({ timezone: 'Asia/Tokyo' }).where(eq(events.id, eventId));
    await expectExactFoldedOrNot(10);
    expect((await monthlyPlays(t.db, songIds[0]!)).map((row) => row.plays)).toEqual([2, 1, 1]);
  });

  it('stays exact when a song changes in the same transaction as new plays of it', async () => {
    await someNight();
    await foldPlaySummary(t.pool);
    await t.db.transaction(async (tx) => {
      await tx.update(songs).set({ genre: 'Acoustic' }).where(eq(songs.id, songIds[0]!));
      await recordPlays(tx as unknown as typeof t.db, [play(0, '2026-03-14T23:00:00')]);
      await tx.update(songs).set({ bpm: 111 }).where(eq(songs.id, songIds[0]!));
    });
    await expectExactFoldedOrNot(9);
  });
});

describe('play summary under concurrent writers (real PostgreSQL)', () => {
  async function begin(): Promise<pg.PoolClient> {
    const client = await t.pool.connect();
    await client.query('begin');
    return client;
  }
  const insertPlay = (client: pg.PoolClient, song: number, at: string) =>
    client.query(
      `insert into plays (song_id, event_id, started_at, time_window, source) values ($1, $2, $3, $4, 'manual')`,
      [songIds[song], eventId, `${at}Z`, timeWindowOf(new Date(`${at}Z`), 'UTC')],
    );

  it('recognition (plays, then a song) and analysis (the song, then plays) do not deadlock; a fold runs meanwhile', async () => {
    await someNight();
    await foldPlaySummary(t.pool);
    const recognition = await begin();
    const analysis = await begin();
    try {
      // Recognition stores plays of songs 0 and 1; analysis updates song 0, then stores a play of 1.
      await insertPlay(recognition, 0, '2026-03-14T20:15:00');
      await insertPlay(recognition, 1, '2026-03-14T20:16:00');
      await analysis.query('update songs set bpm = 99, genre = $2 where id = $1', [songIds[0], 'Acoustic']);
      await insertPlay(analysis, 1, '2026-03-14T22:15:00');
      // Neither waits on the summary: a fold (another connection) completes while both are open,
      // and takes in only what was committed (nothing of theirs).
      await foldPlaySummary(t.pool);
      await expectExact(8);
      // Recognition now updates song 0, which analysis holds: it waits for analysis's commit only.
      const recognitionUpdate = recognition.query('update songs set valence = 250 where id = $1', [
        songIds[0],
      ]);
      await analysis.query('commit');
      await recognitionUpdate;
      await recognition.query('commit');
    } finally {
      recognition.release();
      analysis.release();
    }
    await expectExactFoldedOrNot(11);
  });

  it('recognitions, analyses, deletions and folds interleaved: no deadlock, the summary exact at the end', async () => {
    await someNight();
    // As the app writes: a recognition stores plays in one statement, then updates a song; an
    // analysis updates one song; a clean-up deletes plays; folds run among them.
    const inTransaction = async (work: (client: pg.PoolClient) => Promise<unknown>) => {
      const client = await begin();
      try {
        await work(client);
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    };
    const recognitions = async (seed: number) => {
      for (let round = 0; round < 12; round += 1) {
        await inTransaction(async (client) => {
          const hour = String(20 + ((seed + round) % 4)).padStart(2, '0');
          await client.query(
            `insert into plays (song_id, event_id, started_at, time_window, source)
             select s, $2, $3::timestamptz, $4, 'recording' from unnest($1::int[]) as s`,
            [
              [songIds[(seed + round) % 4], songIds[(seed + round + 1) % 4]],
              eventId,
              `2026-03-14T${hour}:0${seed}:00Z`,
              timeWindowOf(new Date(`2026-03-14T${hour}:0${seed}:00Z`), 'UTC'),
            ],
          );
          await client.query('update songs set valence = $2 where id = $1', [
            songIds[(seed + round) % 4],
            round * 10,
          ]);
        });
        if (round % 3 === seed % 3) await foldPlaySummary(t.pool);
      }
    };
    const analyses = async (seed: number) => {
      for (let round = 0; round < 12; round += 1) {
        await inTransaction((client) =>
          client.query('update songs set bpm = $2, genre = $3 where id = $1', [
            songIds[(seed * 3 + round) % 4],
            80 + round + seed,
            round % 2 === 0 ? 'Pop' : 'Hip-Hop/R&B',
          ]),
        );
      }
    };
    const deletions = async () => {
      for (let round = 0; round < 6; round += 1) {
        await t.pool.query('delete from plays where id = (select min(id) from plays where song_id = $1)', [
          songIds[round % 4],
        ]);
        await foldPlaySummary(t.pool);
      }
    };
    // A deadlock (40P01) or any other failure rejects.
    await Promise.all([recognitions(1), recognitions(2), analyses(1), analyses(2), deletions()]);
    const { rows } = await t.pool.query<{ n: number }>('select count(*)::int as n from plays');
    expect(rows[0]!.n).toBeGreaterThan(8);
    await expectExactFoldedOrNot(rows[0]!.n);
  });
});
