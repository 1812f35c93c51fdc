import type { DjExportFormat } from '@wcs/contract';
import { parse } from 'csv-parse/sync';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, playlistSongs, playlists, plays as playsTable, songs } from '../../db/schema.js';
import { createTestDatabase, type TestDatabase } from '../../test/harness.js';
import { foldPlaySummary } from '../analytics/play-summary.js';
import { type NewPlay, recordPlays } from '../plays.js';
import { type ExportSelection, exportSongs, streamSongs } from './export.js';

/**
 * The CSV export written while it is read (streamSongs) must be the very bytes of the CSV
 * built in one piece (exportSongs), for the whole library, a filter, a playlist, an event and the
 * fresh songs pool, over more songs than one batch of its cursor; its play counts (from the play
 * summary for songs folded and unchanged since) must be those counted from the plays, before and
 * after a fold; and it must give its connection back whether the file was read to the end or
 * abandoned half way.
 */

let t: TestDatabase;
const SONGS = 2_345;
/** Rows of one batch of the export's cursor (export.ts BATCH_ROWS). */
const BATCH = 1000;
const FORMATS: DjExportFormat[] = [
  'csv',
  'rekordbox-xml',
  'traktor-nml',
  'm3u8',
  'virtualdj-m3u',
  'serato-crate',
];
let songIds: number[] = [];
let eventId = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  const genres = ['Pop', 'Blues/Jazz', null, 'Acoustic'] as const;
  const rows = Array.from({ length: SONGS }, (_, i) => ({
    // Titles and artists that tie and need quoting, so the order and the cells are both tested.
    title: i % 7 === 0 ? `Song, "${i % 50}"` : `Song ${i % 300}`,
    artist: `Artist ${i % 40}`,
    searchKey: `song ${i}`,
    genre: genres[i % 4],
    bpm: i % 5 === 0 ? null : 80 + (i % 60) + 0.25,
    musicalKey: i % 3 === 0 ? 'F# minor' : null,
    durationMs: i % 6 === 0 ? null : 180_000 + i,
    releaseDate: i % 2 === 0 ? '2026-10-01' : '2010-01-01',
    overplayScore: i % 100,
    ...(i % 3 === 1 ? { filePresent: true, filePath: `/music/${i}.mp3` } : {}),
  }));
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += 500) {
    const inserted = await t.db
      .insert(songs)
      .values(rows.slice(start, start + 500))
      .returning({ id: songs.id });
    ids.push(...inserted.map((row) => row.id));
  }
  songIds = ids;
  const [event] = await t.db
    .insert(events)
    .values({ name: 'Night, "one"', startDate: '2026-03-14', endDate: '2026-03-15', timezone: 'UTC' })
    .returning({ id: events.id });
  eventId = event!.id;
  const plays: NewPlay[] = ids
    .filter((_, i) => i % 11 === 0)
    .flatMap((songId, k) =>
      Array.from({ length: 1 + (k % 3) }, (_, n) => ({
        songId,
        eventId: event!.id,
        startedAt: new Date(Date.UTC(2026, 2, 14, 20, (k * 3 + n) % 60, k % 60)),
        source: 'manual' as const,
      })),
    );
  await recordPlays(t.db, plays);
  const [playlist] = await t.db
    .insert(playlists)
    .values({ name: 'Warm-up', groupKey: 'warm-up' })
    .returning({ id: playlists.id });
  await t.db.insert(playlistSongs).values(
    [ids[30]!, ids[4]!, ids[1999]!, ids[4]!, ids[7]!].map((songId, position) => ({
      playlistId: playlist!.id,
      position,
      songId,
    })),
  );
  selections.push(
    { playlistId: playlist!.id },
    { playlistId: playlist!.id, filter: { has_file: true } },
    { eventId: event!.id },
    { eventId: event!.id, filter: { genre: 'Pop' } },
  );
});
afterAll(async () => {
  await t?.drop();
});

const selections: ExportSelection[] = [
  {},
  { filter: { genre: 'Pop' } },
  { filter: { age_category: 'old', has_file: true } },
  { filter: { q: 'zzz-nothing' } },
  { freshPool: true },
  { mappings: [{ from: '/music', to: 'D:\\Music' }] },
];

async function read(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

const idle = () => t.pool.totalCount === t.pool.idleCount;

describe('CSV export written while it is read', () => {
  it('is byte for byte the file built in one piece, for every kind of list and format', async () => {
    for (const format of FORMATS) {
      for (const selection of selections) {
        const whole = await exportSongs(t.db, format, selection);
        const streamed = await streamSongs(t, format, selection);
        expect(streamed.fileName).toBe(whole.fileName);
        expect(streamed.contentType).toBe(whole.contentType);
        const bytes = await read(streamed.stream);
        expect(bytes.equals(Buffer.from(whole.content)), `${format} ${JSON.stringify(selection)}`).toBe(true);
        expect(idle()).toBe(true);
      }
    }
    // The whole library in XML: every song with a file, read over several batches of the cursor
    // (every song is a row), and the active playlist.
    expect(SONGS).toBeGreaterThan(2 * BATCH);
    const xml = (await read((await streamSongs(t, 'rekordbox-xml', {})).stream)).toString('utf8');
    expect(xml).toContain('Name="Warm-up"');
    const withFile = (
      await t.pool.query<{ n: number }>('select count(*)::int as n from songs where file_present')
    ).rows[0]!.n;
    expect(xml.match(/<TRACK TrackID=/g)?.length).toBe(withFile);
    expect(xml).toContain(`<COLLECTION Entries="${withFile}">`);
    // The whole library spans several batches and every song is in it.
    const library = (await read((await streamSongs(t, 'csv', {})).stream)).toString('utf8');
    expect(library.split('\r\n').length).toBe(SONGS + 2);
  });

  it("counts each song's plays as the plays do, folded or changed since the fold", async () => {
    const playCounts = async (selection: ExportSelection) => {
      const text = (await read((await streamSongs(t, 'csv', selection)).stream)).toString('utf8');
      const [header, ...rows] = parse(text) as string[][];
      const column = header!.indexOf('Play Count');
      return rows.map((row) => Number(row[column]));
    };
    /** Play counts from the plays, in the library's order and in the event's order. */
    const recomputed = async () => {
      const { rows } = await t.pool.query<{ library: number[]; event: number[] }>(
        `select
          (select array_agg((select count(*) from plays p where p.song_id = s.id)::int
             order by s.artist, s.title, s.id) from songs s) as library,
          (select array_agg((select count(*) from plays p where p.song_id = e.song_id)::int
             order by e.first_play, e.song_id)
           from (select song_id, min(started_at) as first_play from plays where event_id = $1 group by song_id) e) as event`,
        [eventId],
      );
      return rows[0]!;
    };
    const expectExact = async () => {
      const expected = await recomputed();
      expect(await playCounts({})).toEqual(expected.library);
      expect(await playCounts({ eventId })).toEqual(expected.event);
    };
    await foldPlaySummary(t.pool);
    await expectExact();
    const played = songIds.filter((_, i) => i % 11 === 0);
    // Changed since the fold: more plays of one song (at another event, so the event's list stays),
    // a first play of a song never played, every play of another deleted, a genre changed.
    const [other] = await t.db
      .insert(events)
      .values({ name: 'Later', startDate: '2026-04-01', endDate: '2026-04-01', timezone: 'UTC' })
      .returning({ id: events.id });
    const at = (minute: number) => new Date(Date.UTC(2026, 3, 1, 21, minute));
    await recordPlays(t.db, [
      ...[0, 1, 2].map((minute) => ({
        songId: played[3]!,
        eventId: other!.id,
        startedAt: at(minute),
        source: 'manual' as const,
      })),
      { songId: songIds[1]!, eventId: other!.id, startedAt: at(9), source: 'manual' as const },
    ]);
    await t.db.delete(playsTable).where(eq(playsTable.songId, played[5]!));
    await t.db
      .update(songs)
      .set({ genre: 'Acoustic' })
      .where(inArray(songs.id, [played[7]!, played[8]!]));
    const [{ count } = { count: 0 }] = (
      await t.pool.query<{ count: number }>(
        'select count(distinct song_id)::int as count from play_summary_dirty',
      )
    ).rows;
    expect(count).toBe(5);
    await expectExact();
    await foldPlaySummary(t.pool);
    await expectExact();
  });

  it('gives its connection back when the download is abandoned', async () => {
    const streamed = await streamSongs(t, 'csv', {});
    const iterator = streamed.stream[Symbol.asyncIterator]();
    await iterator.next();
    expect(idle()).toBe(false);
    streamed.stream.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(idle()).toBe(true);
    // Gone before the first read (the generator never started): given back all the same.
    const unread = await streamSongs(t, 'csv', {});
    expect(idle()).toBe(false);
    unread.stream.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(idle()).toBe(true);
    // The next export works on the same pool.
    expect(
      (await read((await streamSongs(t, 'csv', { filter: { genre: 'Pop' } })).stream)).length,
    ).toBeGreaterThan(0);
  });

  it('answers an unknown playlist before anything is sent, holding no connection', async () => {
    await expect(streamSongs(t, 'csv', { playlistId: 999_999 })).rejects.toThrow(/Playlist/);
    expect(idle()).toBe(true);
  });

  it("keeps an XML file's count, tracks and playlists to the library as it was when the download began", async () => {
    const [playlist] = await t.db
      .select({ id: playlists.id })
      .from(playlists)
      .where(eq(playlists.name, 'Warm-up'));
    for (const format of ['rekordbox-xml', 'traktor-nml'] as const) {
      const before = Buffer.from((await exportSongs(t.db, format, {})).content);
      const streamed = await streamSongs(t, format, {});
      const iterator = streamed.stream[Symbol.asyncIterator]();
      const chunks: Buffer[] = [Buffer.from((await iterator.next()).value as Buffer)];
      // Meanwhile: a song with a file added to the active playlist (its tail is read after the
      // collection), and one of the playlist's songs taken out of it.
      const [added] = await t.db
        .insert(songs)
        .values({
          title: `Added meanwhile ${format}`,
          artist: 'Aa first',
          searchKey: 'added',
          filePresent: true,
          filePath: `/music/added-${format}.mp3`,
        })
        .returning({ id: songs.id });
      await t.db.insert(playlistSongs).values({ playlistId: playlist!.id, position: 10, songId: added!.id });
      await t.db.delete(playlistSongs).where(eq(playlistSongs.position, 0));
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        chunks.push(Buffer.from(next.value as Buffer));
      }
      expect(Buffer.concat(chunks).toString(), format).toBe(before.toString());
      expect(idle()).toBe(true);
      const after = (await read((await streamSongs(t, format, {})).stream)).toString('utf8');
      expect(after).toContain(`added-${format}.mp3`);
      // Put back, for the next format and the tests after.
      await t.db.delete(playlistSongs).where(eq(playlistSongs.songId, added!.id));
      await t.db.delete(songs).where(eq(songs.id, added!.id));
      await t.db
        .insert(playlistSongs)
        .values({ playlistId: playlist!.id, position: 0, songId: songIds[30]! });
    }
  });

  // Last: it changes the library.
  it('is the library as it was when the download began, whatever changes while it is sent', async () => {
    const before = Buffer.from((await exportSongs(t.db, 'csv', {})).content);
    const streamed = await streamSongs(t, 'csv', {});
    const iterator = streamed.stream[Symbol.asyncIterator]();
    const chunks: Buffer[] = [Buffer.from((await iterator.next()).value as Buffer)];
    // Meanwhile, past the rows read so far: a song added at the end of the library's order, the
    // first song moved there (it would be in the file twice), the last song renamed and played.
    const [first, last] = (
      await t.pool.query<{ id: number }>(
        `(select id from songs order by artist, title, id limit 1)
         union all (select id from songs order by artist desc, title desc, id desc limit 1)`,
      )
    ).rows.map((row) => row.id);
    await t.db.insert(songs).values({ title: 'Added meanwhile', artist: 'Zz last', searchKey: 'added' });
    await t.db.update(songs).set({ artist: 'Zz moved' }).where(eq(songs.id, first!));
    await t.db.update(songs).set({ title: 'Renamed meanwhile' }).where(eq(songs.id, last!));
    await recordPlays(t.db, [
      { songId: last!, eventId, startedAt: new Date(Date.UTC(2026, 2, 15, 1)), source: 'manual' as const },
    ]);
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      chunks.push(Buffer.from(next.value as Buffer));
    }
    expect(Buffer.concat(chunks).equals(before)).toBe(true);
    expect(idle()).toBe(true);
    // The next download has them.
    const after = (await read((await streamSongs(t, 'csv', {})).stream)).toString('utf8');
    expect(after).toContain('Added meanwhile');
    expect(after).toContain('Renamed meanwhile');
    expect(after.split('\r\n').length).toBe(SONGS + 3);
  });
});
