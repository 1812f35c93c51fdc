import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { InteropResult } from '@wcs/contract';
import { eq, sql } from 'drizzle-orm';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events, importedPlays, playlistSongs, playlists, plays, socials, songs } from '../../db/schema.js';
import { DJ_READERS, DJ_WRITERS, type DjTrack } from '../../providers/dj-software/index.js';
import { multipart } from '../../test/audio.js';
import { synthSong, taggedFlac, writeWav } from '../../test/fakes/songs.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { addFingerprintedSong } from '../../test/library-songs.js';
import { songSearchKey } from '../../text.js';
import { recordPlays } from '../plays.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../providers/dj-software/fixtures');
const BERLIN = 'Europe/Berlin';

let t: TestApp;
/** The only library root of the test app. */
let root: string;

beforeAll(async () => {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-interop-test-')));
  root = path.join(base, 'music');
  await fs.mkdir(root);
  t = await createTestApp({ env: { WCS_LIBRARY_ROOTS: root, WCS_MAX_UPLOAD_MB: '1' } });
});

afterAll(async () => {
  await t?.close();
  if (root) await fs.rm(path.dirname(root), { recursive: true, force: true });
});

/**
 * Every test starts from an empty library (the app's accounts stay), and with no recompute that an
 * import of the test before scheduled: it would rewrite the overplay scores a test sets by hand.
 */
beforeEach(async () => {
  await t.settleJobs();
  await t.deps.pool.query('truncate songs, events, playlists restart identity cascade');
});

type Role = 'admin' | 'dj' | 'viewer';

/** POST a DJ file as an upload, with options; as admin unless another role is named. */
function upload(
  endpoint: 'preview' | 'import',
  file: { bytes: Buffer | string; name: string },
  options: Record<string, unknown> = {},
  role: Role = 'admin',
) {
  const { body, contentType } = multipart([
    { name: 'options', value: JSON.stringify(options) },
    {
      name: 'file',
      value: Buffer.from(file.bytes),
      filename: file.name,
      contentType: 'application/octet-stream',
    },
  ]);
  return t.injectAs(role, {
    method: 'POST',
    url: `/api/interop/${endpoint}`,
    payload: body,
    headers: { 'content-type': contentType },
  });
}

async function uploadOk(
  endpoint: 'preview' | 'import',
  file: { bytes: Buffer | string; name: string },
  options: Record<string, unknown> = {},
): Promise<InteropResult> {
  const response = await upload(endpoint, file, options);
  expect(response.statusCode, response.body).toBe(200);
  return InteropResult.parse(response.json());
}

const fixture = async (name: string) => ({ bytes: await fs.readFile(path.join(FIXTURES, name)), name });

async function addSong(values: Partial<typeof songs.$inferInsert> & { title: string; artist: string }) {
  const [row] = await t.deps.db
    .insert(songs)
    .values({ searchKey: songSearchKey(values.title, values.artist), ...values })
    .returning();
  return row!;
}

async function addEvent(name: string, start: string, end: string, timezone = BERLIN) {
  const [row] = await t.deps.db
    .insert(events)
    .values({ name, startDate: start, endDate: end, timezone })
    .returning();
  return row!;
}

const count = async (table: typeof songs | typeof plays | typeof events | typeof importedPlays) =>
  t.deps.db.$count(table);

/** A rekordbox XML collection of these tracks, written by the product's own writer. */
function rekordbox(tracks: DjTrack[]): { bytes: string; name: string } {
  return { bytes: String(DJ_WRITERS['rekordbox-xml']!.write({ tracks })), name: 'collection.xml' };
}

describe('matching each track to a song', () => {
  it('matches by mapped path (case-blind for Windows paths), by content, by name, and makes the rest new songs', async () => {
    const byPath = await addSong({
      title: 'Unsteady',
      artist: 'X Ambassadors',
      filePath: '/srv/music/WCS/X Ambassadors - Unsteady.mp3',
      filePresent: true,
    });
    const exact = await addSong({
      title: 'Something else entirely',
      artist: 'Tagged Wrong',
      filePath: '/Users/dj/Music/Blues/Jam.wav',
      filePresent: true,
    });
    // A file moved inside the library root: the song still has its old path, the content is the same.
    const movedBytes = Buffer.from(`moved audio ${Math.random()}`);
    const movedFile = path.join(root, 'moved', 'Levitating.mp3');
    await fs.mkdir(path.dirname(movedFile), { recursive: true });
    await fs.writeFile(movedFile, movedBytes);
    const byHash = await addSong({
      title: 'Levitating (tagged differently)',
      artist: 'Someone',
      filePath: '/old/place/Levitating.mp3',
      filePresent: false,
      contentHash: createHash('sha256').update(movedBytes).digest('hex'),
    });
    // The same bytes outside the library root are never read.
    const outsideFile = path.join(path.dirname(root), 'outside.mp3');
    await fs.writeFile(outsideFile, movedBytes);
    const byName = await addSong({ title: 'Señorita', artist: 'Shawn Mendes & Camila Cabello' });
    const original = await addSong({ title: 'Unsteady', artist: 'Other Artist' });

    const result = await uploadOk(
      'import',
      rekordbox([
        { key: '1', title: 'X', artist: 'Y', location: 'c:/MUSIC/wcs/X Ambassadors - Unsteady.mp3' },
        { key: '2', title: 'Z', artist: 'W', location: '/Users/dj/Music/Blues/Jam.wav' },
        { key: '3', title: 'Levitating', artist: 'Dua Lipa', location: 'E:/DJ/moved/Levitating.mp3' },
        {
          key: '4',
          title: 'Senorita (feat. Camila Cabello) [Radio Edit]',
          artist: 'Shawn Mendes',
          location: 'E:/Elsewhere/senorita.m4a',
        },
        { key: '5', title: 'Unsteady (Kygo Remix)', artist: 'Other Artist', location: outsideFile },
        {
          key: '6',
          title: 'Brand New',
          artist: 'Nobody Known',
          location: '/laptop/new.mp3',
          bpm: 96,
          musicalKey: '5A',
        },
      ]),
      {
        path_mappings: [
          { from: 'C:/Music/', to: '/srv/music/' },
          { from: 'E:/DJ', to: root },
        ],
      },
    );
    const matchOf = (key: string) => result.track_matches.find((match) => match.key === key)!;
    expect(matchOf('1')).toMatchObject({ match: 'path', song_id: byPath.id });
    expect(matchOf('2')).toMatchObject({ match: 'path', song_id: exact.id });
    expect(matchOf('3')).toMatchObject({ match: 'content_hash', song_id: byHash.id });
    expect(matchOf('4')).toMatchObject({ match: 'name', song_id: byName.id });
    // A remix is another recording; the file outside the roots was not hashed.
    expect(matchOf('5').match).toBe('new_song');
    expect(matchOf('5').song_id).not.toBe(original.id);
    expect(matchOf('6').match).toBe('new_song');
    expect(result).toMatchObject({
      dry_run: false,
      format: 'rekordbox-xml',
      tracks: 6,
      matched: 4,
      new_songs: 2,
      match_counts: { path: 2, content_hash: 1, name: 1, new_song: 2, unmatched: 0 },
    });
  });

  it('fills an empty BPM or key from the file and never overwrites an analysed one', async () => {
    const empty = await addSong({
      title: 'Unsteady',
      artist: 'X Ambassadors',
      filePath: '/srv/music/unsteady.mp3',
      filePresent: true,
    });
    const analysed = await addSong({
      title: 'Señorita',
      artist: 'Shawn Mendes',
      bpm: 117,
      musicalKey: 'A minor',
      analyzedAt: new Date(),
    });
    const halfDone = await addSong({ title: 'Riptide', artist: 'Vance Joy', bpm: 102 });
    const file = rekordbox([
      {
        key: '1',
        title: 'Unsteady',
        artist: 'X Ambassadors',
        location: '/srv/music/unsteady.mp3',
        bpm: 104.5,
        musicalKey: '8A',
      },
      {
        key: '2',
        title: 'Señorita',
        artist: 'Shawn Mendes',
        location: '/laptop/s.m4a',
        bpm: 120,
        musicalKey: '5A',
      },
      {
        key: '3',
        title: 'Riptide',
        artist: 'Vance Joy',
        location: '/laptop/r.mp3',
        bpm: 50,
        musicalKey: 'C#m',
      },
    ]);
    const preview = await uploadOk('preview', file);
    expect(preview).toMatchObject({ dry_run: true, bpm_filled: 1, key_filled: 2 });
    const [unchanged] = await t.deps.db.select().from(songs).where(eq(songs.id, empty.id));
    expect(unchanged!.bpm).toBeNull();

    const result = await uploadOk('import', file);
    expect(result).toMatchObject({ bpm_filled: 1, key_filled: 2, matched: 3, new_songs: 0 });
    const read = async (id: number) => (await t.deps.db.select().from(songs).where(eq(songs.id, id)))[0]!;
    expect(await read(empty.id)).toMatchObject({ bpm: 104.5, musicalKey: 'A minor' });
    expect(await read(analysed.id)).toMatchObject({ bpm: 117, musicalKey: 'A minor' });
    expect(await read(halfDone.id)).toMatchObject({ bpm: 102, musicalKey: 'C# minor' });
  });

  it('makes unmatched tracks songs without a file, once each, with the file BPM, key and genre', async () => {
    const file = rekordbox([
      {
        key: '1',
        title: 'Blinding Lights',
        artist: 'The Weeknd',
        location: '/laptop/bl.mp3',
        genre: 'R&B',
        bpm: 171,
        musicalKey: 'Fm',
        durationSeconds: 200,
      },
      { key: '2', title: 'Blinding Lights (Radio Edit)', artist: 'The Weeknd', location: '/nowhere/bl.mp3' },
    ]);
    const before = await count(songs);
    const preview = await uploadOk('preview', file);
    expect(preview).toMatchObject({ new_songs: 1, match_counts: { new_song: 2 } });
    expect(await count(songs)).toBe(before);

    const result = await uploadOk('import', file);
    expect(result.new_songs).toBe(1);
    const [song] = await t.deps.db.select().from(songs).where(eq(songs.title, 'Blinding Lights'));
    expect(song).toMatchObject({
      artist: 'The Weeknd',
      filePath: null,
      filePresent: false,
      contentHash: null,
      bpm: 171,
      musicalKey: 'F minor',
      genre: 'Hip-Hop/R&B',
      durationMs: 200_000,
      searchKey: 'blinding lights the weeknd',
    });
    expect(result.track_matches.map((match) => match.song_id)).toEqual([song!.id, song!.id]);
    // Imported again: both tracks now match the song by name.
    const again = await uploadOk('import', file);
    expect(again).toMatchObject({ new_songs: 0, match_counts: { name: 2 } });
  });

  it("with new_songs 'none' leaves unmatched tracks and their plays out", async () => {
    const result = await uploadOk('import', await fixture('rekordbox.xml'), {
      new_songs: 'none',
      time_zone: BERLIN,
    });
    expect(result).toMatchObject({ new_songs: 0, plays: 0, match_counts: { unmatched: 4 } });
    expect(result.plays_skipped.no_song).toBe(4);
    expect(await count(songs)).toBe(0);
    expect(await count(events)).toBe(0);
  });

  it('listens to a reachable file that matched nothing else and finds its song by fingerprint', async () => {
    const rate = 22050;
    // The library's copy: a WAV in the index. The DJ's copy: the same recording as FLAC, elsewhere
    // inside the roots, under a name the library does not know (so path, content and name fail).
    const libraryFile = path.join(root, 'library', 'groove.wav');
    await fs.mkdir(path.dirname(libraryFile), { recursive: true });
    await writeWav(libraryFile, synthSong(611, 75, rate), rate);
    const songId = await addFingerprintedSong(t.deps.db, { file: libraryFile, title: 'Midnight Groove' });
    const djFolder = path.join(root, 'dj-laptop');
    await fs.mkdir(djFolder, { recursive: true });
    await taggedFlac(path.join(djFolder, 'track07.flac'), synthSong(611, 75, rate), rate, {});
    // Another recording (not in the index) and a file that is no audio: both stay new songs.
    await taggedFlac(path.join(djFolder, 'track08.flac'), synthSong(977, 75, rate), rate, {});
    await fs.writeFile(path.join(djFolder, 'track09.mp3'), 'not audio at all');

    const file = rekordbox([
      { key: '7', title: 'Track 07', artist: 'Unknown DJ Edit', location: 'D:/Laptop/track07.flac' },
      { key: '8', title: 'Track 08', artist: 'Unknown DJ Edit', location: 'D:/Laptop/track08.flac' },
      { key: '9', title: 'Track 09', artist: 'Unknown DJ Edit', location: 'D:/Laptop/track09.mp3' },
    ]);
    const options = { path_mappings: [{ from: 'D:/Laptop', to: djFolder }] };
    const preview = await uploadOk('preview', file, options);
    const matchOf = (result: InteropResult, key: string) => result.track_matches.find((m) => m.key === key)!;
    expect(matchOf(preview, '7')).toMatchObject({ match: 'fingerprint', song_id: songId });
    expect(preview.match_counts).toMatchObject({ fingerprint: 1, new_song: 2 });
    expect(preview.warnings).toContain('1 reachable files could not be decoded to be listened to');

    const result = await uploadOk('import', file, options);
    expect(matchOf(result, '7')).toMatchObject({ match: 'fingerprint', song_id: songId });
    expect(matchOf(result, '8').match).toBe('new_song');
    expect(matchOf(result, '9').match).toBe('new_song');
    expect(result).toMatchObject({ matched: 1, new_songs: 2 });
    // The matched song was not duplicated: the library has it once, with its own file.
    const [song] = await t.deps.db.select().from(songs).where(eq(songs.id, songId));
    expect(song).toMatchObject({ title: 'Midnight Groove', filePath: libraryFile });
    expect(await count(songs)).toBe(3);
    // Synthesis, ffmpeg and fingerprinting: seconds each on a loaded machine, not vitest's 30 s.
  }, 120_000);
});

describe('history as plays', () => {
  it('imports a rekordbox XML history spanning two events, with estimated times, windows and socials; twice adds nothing', async () => {
    const friday = await addEvent('Friday Party', '2024-05-03', '2024-05-03');
    const saturday = await addEvent('Saturday Party', '2024-05-04', '2024-05-04');
    const file = await fixture('rekordbox.xml');

    const preview = await uploadOk('preview', file, { time_zone: BERLIN });
    expect(preview).toMatchObject({ dry_run: true, history_sessions: 2, plays: 4, events_created: [] });
    expect(await count(plays)).toBe(0);
    expect(await count(songs)).toBe(0);

    const first = await uploadOk('import', file, { time_zone: BERLIN });
    expect(first).toMatchObject({ plays: 4, new_songs: 4, history_sessions: 2, events_created: [] });
    expect(first.sessions.map((s) => [s.name, s.date, s.event_id, s.plays, s.estimated_times])).toEqual([
      ['HISTORY 2024-05-03', '2024-05-03', friday.id, 3, true],
      ['HISTORY 2024-05-04 (2)', '2024-05-04', saturday.id, 1, true],
    ]);

    const rows = await t.deps.db
      .select({
        eventId: plays.eventId,
        title: songs.title,
        startedAt: plays.startedAt,
        endedAt: plays.endedAt,
        timeWindow: plays.timeWindow,
        source: plays.source,
        social: socials.name,
        socialDate: socials.socialDate,
        estimated: importedPlays.timeEstimated,
        format: importedPlays.format,
      })
      .from(plays)
      .innerJoin(songs, eq(songs.id, plays.songId))
      .innerJoin(socials, eq(socials.id, plays.socialId))
      .innerJoin(importedPlays, eq(importedPlays.playId, plays.id))
      .orderBy(plays.startedAt);
    // 21:00 in Berlin (summer time: 19:00 UTC), then each track's length.
    expect(rows.map((row) => [row.title, row.startedAt.toISOString(), row.timeWindow, row.eventId])).toEqual([
      ['Unsteady', '2024-05-03T19:00:00.000Z', '20-22', friday.id],
      ['Señorita', '2024-05-03T19:03:13.000Z', '20-22', friday.id],
      ['Blues Jam', '2024-05-03T19:06:24.000Z', '20-22', friday.id],
      ["Ain't No Sunshine", '2024-05-04T19:00:00.000Z', '20-22', saturday.id],
    ]);
    expect(rows[0]).toMatchObject({
      source: 'import',
      social: 'Friday Night Social',
      socialDate: '2024-05-03',
      estimated: true,
      format: 'rekordbox-xml',
      endedAt: new Date('2024-05-03T19:03:13Z'),
    });
    expect(rows[3]).toMatchObject({ social: 'Saturday Night Social', socialDate: '2024-05-04' });

    const second = await uploadOk('import', file, { time_zone: BERLIN });
    expect(second).toMatchObject({ plays: 0, new_songs: 0, matched: 4, events_created: [] });
    expect(second.plays_skipped.already_imported).toBe(4);
    expect(second.sessions.map((s) => s.skipped_reason)).toEqual(['imported before', 'imported before']);
    expect(await count(plays)).toBe(4);
    expect(await count(songs)).toBe(4);
    expect(await count(events)).toBe(2);
  });

  it('creates one event per session day when none holds it, named after the session and the program', async () => {
    const file = await fixture('rekordbox.xml');
    const result = await uploadOk('import', file, { time_zone: BERLIN, sessions: [1] });
    expect(result.plays).toBe(1);
    expect(result.events_created.map((event) => event.event_name)).toEqual([
      'HISTORY 2024-05-04 (2) (rekordbox)',
    ]);
    expect(result.sessions.map((s) => [s.selected, s.new_event, s.skipped_reason])).toEqual([
      [false, false, 'not chosen'],
      [true, true, null],
    ]);
    const [event] = await t.deps.db.select().from(events);
    expect(event).toMatchObject({ startDate: '2024-05-04', endDate: '2024-05-04', timezone: BERLIN });

    const skipped = await uploadOk('import', file, {
      time_zone: BERLIN,
      sessions: [0],
      create_events: false,
    });
    expect(skipped).toMatchObject({ plays: 0, events_created: [] });
    expect(skipped.plays_skipped.no_event).toBe(3);
    expect(await count(events)).toBe(1);

    const chosen = await addEvent('Chosen', '2020-01-01', '2020-01-01', 'UTC');
    const into = await uploadOk('import', file, { event_id: chosen.id, sessions: [0], night_start: '22:30' });
    expect(into.plays).toBe(3);
    const first = await t.deps.db
      .select({ startedAt: plays.startedAt, window: plays.timeWindow })
      .from(plays)
      .where(eq(plays.eventId, chosen.id))
      .orderBy(plays.startedAt)
      .limit(1);
    expect(first[0]).toEqual({ startedAt: new Date('2024-05-03T22:30:00Z'), window: '22-00' });
  });

  it('imports a Traktor NML history at its times, leaves out what a recording already holds, and is idempotent', async () => {
    const event = await addEvent('Traktor Night', '2024-05-03', '2024-05-04');
    const unsteady = await addSong({ title: 'Unsteady', artist: 'X Ambassadors' });
    // The room recording heard Unsteady two minutes after Traktor started it.
    await recordPlays(t.deps.db, [
      {
        songId: unsteady.id,
        eventId: event.id,
        startedAt: new Date('2024-05-03T19:04:00Z'),
        source: 'recording',
      },
    ]);
    const file = await fixture('traktor-history_2024y05m03d_21h02m10s.nml');
    const result = await uploadOk('import', file, { time_zone: BERLIN });
    expect(result).toMatchObject({
      format: 'traktor-nml',
      history_sessions: 1,
      plays: 2,
      events_created: [],
    });
    expect(result.plays_skipped.already_held).toBe(1);
    expect(result.sessions[0]).toMatchObject({
      event_id: event.id,
      started_at: '2024-05-03T19:02:10Z',
      estimated_times: false,
      plays: 2,
      skipped: 1,
    });
    const rows = await t.deps.db
      .select({
        startedAt: plays.startedAt,
        endedAt: plays.endedAt,
        window: plays.timeWindow,
        date: socials.socialDate,
      })
      .from(plays)
      .innerJoin(importedPlays, eq(importedPlays.playId, plays.id))
      .innerJoin(socials, eq(socials.id, plays.socialId))
      .orderBy(plays.startedAt);
    // 21:06:40 and, past midnight, 00:03:05 in Berlin: the same night's social.
    expect(rows).toEqual([
      {
        startedAt: new Date('2024-05-03T19:06:40Z'),
        endedAt: new Date('2024-05-03T19:09:51Z'),
        window: '20-22',
        date: '2024-05-03',
      },
      {
        startedAt: new Date('2024-05-03T22:03:05Z'),
        endedAt: new Date('2024-05-03T22:07:04.986Z'),
        window: '00-02',
        date: '2024-05-03',
      },
    ]);
    const [social] = await t.deps.db.select().from(socials).where(eq(socials.eventId, event.id));
    expect(social).toMatchObject({ startTime: '21:04:00', endTime: expect.stringMatching(/^00:07:04/) });

    const again = await uploadOk('import', file, { time_zone: BERLIN });
    expect(again).toMatchObject({ plays: 0, plays_skipped: { already_imported: 2, already_held: 1 } });
    expect(await count(plays)).toBe(3);
  });

  it('schedules a score recompute after an import that added plays', async () => {
    await t.deps.pool.query(`delete from pgboss.job where name = 'scores.recompute'`);
    await uploadOk('import', await fixture('virtualdj-2024-05-03.m3u'), { time_zone: BERLIN });
    const { rows } = await t.deps.pool.query<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = 'scores.recompute'`,
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
  });
});

const SQL = await initSqlJs();

/** An Engine DJ Database2 (schema 3.0.2) m.db or hm.db, built with sql.js as its reader's tests do. */
function engineDb(tables: string, rows: Record<string, Record<string, string | number | null>[]>): Buffer {
  const db = new SQL.Database();
  db.run(`CREATE TABLE Information (id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT,
    schemaVersionMajor INTEGER, schemaVersionMinor INTEGER, schemaVersionPatch INTEGER);
  CREATE TABLE Track (id INTEGER PRIMARY KEY AUTOINCREMENT, length INTEGER, bpm INTEGER, path TEXT,
    filename TEXT, bpmAnalyzed REAL, title TEXT, artist TEXT, album TEXT, genre TEXT, key INTEGER,
    rating INTEGER, dateAdded DATETIME, uri TEXT, originDatabaseUuid TEXT, originTrackId INTEGER);
  ${tables}`);
  db.run(
    'INSERT INTO Information (uuid, schemaVersionMajor, schemaVersionMinor, schemaVersionPatch) VALUES (?, 3, 0, 2)',
    ['a7c2b2d0-1c2e-4c3a-9a55-4b7e2f1d0c11'],
  );
  for (const [table, list] of Object.entries(rows)) {
    for (const row of list) {
      const columns = Object.keys(row);
      db.run(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        Object.values(row),
      );
    }
  }
  const bytes = Buffer.from(db.export());
  db.close();
  return bytes;
}

describe('a folder on the server', () => {
  it('reads an Engine DJ Database2 folder inside the library roots for an admin, and refuses a dj', async () => {
    const folder = path.join(root, 'Engine Library', 'Database2');
    await fs.mkdir(folder, { recursive: true });
    const unsteady = {
      path: '../WCS/Unsteady.mp3',
      filename: 'Unsteady.mp3',
      title: 'Unsteady',
      artist: 'X Ambassadors',
      length: 193,
      bpmAnalyzed: 104.5,
      key: 1,
    };
    const riptide = {
      path: '../WCS/Riptide.mp3',
      filename: 'Riptide.mp3',
      title: 'Riptide',
      artist: 'Vance Joy',
      length: 204,
      bpm: 102,
    };
    await fs.writeFile(
      path.join(folder, 'm.db'),
      engineDb(
        `CREATE TABLE Playlist (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT, parentListId INTEGER, nextListId INTEGER);
         CREATE TABLE PlaylistEntity (id INTEGER PRIMARY KEY AUTOINCREMENT, listId INTEGER, trackId INTEGER, nextEntityId INTEGER);`,
        {
          Track: [
            { id: 1, ...unsteady },
            { id: 2, ...riptide },
          ],
          Playlist: [{ id: 1, title: 'Warm-up', parentListId: 0, nextListId: 0 }],
          PlaylistEntity: [
            { id: 1, listId: 1, trackId: 2, nextEntityId: 2 },
            { id: 2, listId: 1, trackId: 1, nextEntityId: 0 },
          ],
        },
      ),
    );
    // hm.db: its own track ids; a session at 20:30 UTC on 2024-06-07 (22:30 in Berlin).
    await fs.writeFile(
      path.join(folder, 'hm.db'),
      engineDb(
        `CREATE TABLE Historylist (id INTEGER PRIMARY KEY AUTOINCREMENT, sessionId TEXT, title TEXT,
           startTime INTEGER, timezone TEXT, originDriveName TEXT, isDeleted BOOLEAN);
         CREATE TABLE HistorylistEntity (id INTEGER PRIMARY KEY AUTOINCREMENT, listId INTEGER, trackId INTEGER, startTime INTEGER);`,
        {
          Track: [
            { id: 7, ...riptide, originTrackId: 2 },
            { id: 8, ...unsteady, originTrackId: 1 },
          ],
          Historylist: [{ id: 1, title: 'Friday at the Fling', startTime: 1717792200, isDeleted: 0 }],
          HistorylistEntity: [
            { id: 1, listId: 1, trackId: 7, startTime: 1717792200 },
            { id: 2, listId: 1, trackId: 8, startTime: 1717792420 },
          ],
        },
      ),
    );
    // Where Engine DJ's relative paths lead on this server: the library matches by path.
    const riptideSong = await addSong({
      title: 'Riptide (library tags)',
      artist: 'Vance Joy',
      filePath: path.join(root, 'WCS', 'Riptide.mp3'),
      filePresent: true,
    });
    const fling = await addEvent('Swing Fling', '2024-06-07', '2024-06-09');

    const asDj = await t.injectAs('dj', {
      method: 'POST',
      url: '/api/interop/preview',
      payload: { path: folder },
    });
    expect(asDj.statusCode).toBe(403);
    expect(asDj.json().message).toMatch(/admin/);
    expect(await count(plays)).toBe(0);

    const outside = await t.app.inject({
      method: 'POST',
      url: '/api/interop/import',
      payload: { path: path.dirname(root) },
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toMatch(/outside the library roots/);

    const response = await t.app.inject({
      method: 'POST',
      url: '/api/interop/import',
      payload: { path: folder, time_zone: BERLIN },
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = InteropResult.parse(response.json());
    expect(result).toMatchObject({
      format: 'engine-dj',
      files: [
        { name: 'hm.db', format: 'engine-dj' },
        { name: 'm.db', format: 'engine-dj' },
      ],
      tracks: 2,
      playlists: 1,
      history_sessions: 1,
      plays: 2,
      matched: 1,
      new_songs: 1,
      match_counts: { path: 1 },
    });
    expect(result.sessions[0]).toMatchObject({ name: 'Friday at the Fling', event_id: fling.id, plays: 2 });
    const rows = await t.deps.db
      .select({ songId: plays.songId, window: plays.timeWindow })
      .from(plays)
      .where(eq(plays.eventId, fling.id))
      .orderBy(plays.startedAt);
    expect(rows).toEqual([
      { songId: riptideSong.id, window: '22-00' },
      { songId: expect.any(Number), window: '22-00' },
    ]);
    // Engine's BPM and key filled the matched song's empty ones.
    const [riptideNow] = await t.deps.db.select().from(songs).where(eq(songs.id, riptideSong.id));
    expect(riptideNow!.bpm).toBe(102);
  });
});

describe('refusals', () => {
  it('answers 4xx a person can act on', async () => {
    const unknown = await upload('preview', { bytes: 'just some text', name: 'notes.txt' });
    expect(unknown.statusCode).toBe(415);
    expect(unknown.json().message).toMatch(/not a DJ program's file/);

    const malformed = await upload('preview', { bytes: '<DJ_PLAYLISTS><COLLECTION>', name: 'broken.xml' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/could not be read as rekordbox-xml/);

    const big = await upload('preview', { bytes: Buffer.alloc(1024 * 1024 + 10, 'a'), name: 'big.xml' });
    expect(big.statusCode).toBe(413);

    const badOptions = await upload('preview', await fixture('rekordbox.xml'), { night_start: '25:00' });
    expect(badOptions.statusCode).toBe(400);
    expect(badOptions.json().message).toMatch(/options\.night_start/);

    const noSession = await upload('preview', await fixture('rekordbox.xml'), { sessions: [5] });
    expect(noSession.statusCode).toBe(400);
    expect(noSession.json().message).toMatch(/no history session 5/);

    const noEvent = await upload('import', await fixture('rekordbox.xml'), { event_id: 999_999 });
    expect(noEvent.statusCode).toBe(404);

    const empty = await t.app.inject({ method: 'POST', url: '/api/interop/preview' });
    expect(empty.statusCode).toBe(400);

    expect((await upload('preview', await fixture('rekordbox.xml'), {}, 'viewer')).statusCode).toBe(403);
    expect(
      (await upload('import', await fixture('rekordbox.xml'), { time_zone: BERLIN }, 'dj')).statusCode,
    ).toBe(200);
  });
});

describe('export', () => {
  it('writes a generated playlist as rekordbox XML that the reader reads back, paths mapped for the DJ', async () => {
    const a = await addSong({
      title: 'Unsteady',
      artist: 'X Ambassadors',
      filePath: '/srv/music/WCS/Unsteady.mp3',
      filePresent: true,
      bpm: 104.5,
      musicalKey: 'A minor',
      durationMs: 193_000,
      genre: 'Pop',
    });
    const b = await addSong({
      title: 'Señorita',
      artist: 'Shawn Mendes & Camila Cabello',
      filePath: '/srv/music/WCS/Señorita.m4a',
      filePresent: true,
      bpm: 117,
      musicalKey: 'F# minor',
    });
    const fileless = await addSong({ title: 'Wanted', artist: 'Nobody' });
    const [playlist] = await t.deps.db
      .insert(playlists)
      .values({ name: 'New Pop 20-22 High', groupKey: 'new|Pop|20-22|high', songCount: 3 })
      .returning();
    await t.deps.db.insert(playlistSongs).values([
      { playlistId: playlist!.id, position: 0, songId: b.id },
      { playlistId: playlist!.id, position: 1, songId: fileless.id },
      { playlistId: playlist!.id, position: 2, songId: a.id },
    ]);

    const response = await t.injectAs('viewer', {
      method: 'GET',
      url: `/api/interop/export/rekordbox-xml?playlist_id=${playlist!.id}&map=${encodeURIComponent('/srv/music/=C:/Music/')}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/xml/);
    expect(response.headers['content-disposition']).toContain('New Pop 20-22 High.xml');
    const library = DJ_READERS['rekordbox-xml'].read(response.body);
    expect(library.tracks.map((track) => [track.title, track.location, track.bpm, track.musicalKey])).toEqual(
      [
        ['Señorita', 'C:/Music/WCS/Señorita.m4a', 117, 'F#m'],
        ['Unsteady', 'C:/Music/WCS/Unsteady.mp3', 104.5, 'Am'],
      ],
    );
    expect(library.tracks[1]).toMatchObject({ artist: 'X Ambassadors', genre: 'Pop', durationSeconds: 193 });
    expect(library.playlists).toEqual([
      { name: 'New Pop 20-22 High', path: [], trackKeys: [String(b.id), String(a.id)] },
    ]);

    // CSV keeps the song without a file; what it writes imports back, matched by name.
    const csv = await t.app.inject({ method: 'GET', url: '/api/interop/export/csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Wanted');
    const back = await uploadOk('preview', { bytes: csv.body, name: 'library.csv' });
    expect(back).toMatchObject({ format: 'csv', tracks: 3, matched: 3, new_songs: 0 });
    // Compressed as a browser asks, at the fast level of large downloads (static-files.ts
    // DOWNLOAD_COMPRESSION): the same bytes. Gzip's header says its level: 4 is the fastest.
    const packed = async (encoding: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/interop/export/csv',
        headers: { 'accept-encoding': encoding },
      });
    const brotli = await packed('br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe(csv.body);
    const gzip = await packed('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(csv.body);
    expect(gzip.rawPayload[8]).toBe(4);
    // The API's encodings only, as everywhere else.
    expect((await packed('deflate')).headers['content-encoding']).toBeUndefined();

    const missing = await t.app.inject({ method: 'GET', url: '/api/interop/export/m3u8?playlist_id=999999' });
    expect(missing.statusCode).toBe(404);
    const badFormat = await t.app.inject({ method: 'GET', url: '/api/interop/export/mp3' });
    expect(badFormat.statusCode).toBe(400);
    expect(
      (await t.injectAs('anonymous', { method: 'GET', url: '/api/interop/export/csv' })).statusCode,
    ).toBe(401);
    // Nothing the export needed was stored.
    expect(await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(importedPlays)).toEqual([{ n: 0 }]);
  });

  it("writes an event's played songs in the order of their first play, narrowed by the Songs filters", async () => {
    const file = (name: string) => ({ filePath: `/srv/music/${name}.mp3`, filePresent: true });
    const slow = await addSong({
      title: 'Slow Burn',
      artist: 'Kacey',
      genre: 'Contemporary',
      energyLevel: 300,
      ...file('slow'),
    });
    const pop = await addSong({
      title: 'Levitating',
      artist: 'Dua',
      genre: 'Pop',
      energyLevel: 820,
      ...file('lev'),
    });
    const popLow = await addSong({
      title: 'Lovely',
      artist: 'Billie',
      genre: 'Pop',
      energyLevel: 350,
      ...file('lovely'),
    });
    const unplayed = await addSong({
      title: 'Elsewhere',
      artist: 'Other',
      genre: 'Pop',
      energyLevel: 900,
      ...file('else'),
    });
    const night = await addEvent('Friday Social', '2026-05-01', '2026-05-01');
    const other = await addEvent('Other Night', '2026-05-08', '2026-05-08');
    const at = (hhmm: string) => new Date(`2026-05-01T${hhmm}:00Z`);
    await t.deps.db.insert(plays).values([
      { songId: pop.id, eventId: night.id, startedAt: at('19:10'), source: 'manual' },
      { songId: slow.id, eventId: night.id, startedAt: at('19:00'), source: 'manual' },
      { songId: popLow.id, eventId: night.id, startedAt: at('19:20'), source: 'manual' },
      { songId: pop.id, eventId: night.id, startedAt: at('21:00'), source: 'manual' },
      {
        songId: unplayed.id,
        eventId: other.id,
        startedAt: new Date('2026-05-08T20:00:00Z'),
        source: 'manual',
      },
    ]);
    const exported = async (query: string) => {
      const response = await t.injectAs('viewer', {
        method: 'GET',
        url: `/api/interop/export/m3u8?${query}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      const list = DJ_READERS.m3u8.read(response.body);
      return {
        name: response.headers['content-disposition'],
        titles: list.tracks.map((track) => track.title),
      };
    };
    expect(await exported(`event_id=${night.id}`)).toEqual({
      name: expect.stringContaining('Friday Social (played).m3u8'),
      titles: ['Slow Burn', 'Levitating', 'Lovely'],
    });
    expect((await exported(`event_id=${night.id}&genre=Pop`)).titles).toEqual(['Levitating', 'Lovely']);
    expect((await exported(`event_id=${night.id}&genre=Pop&energy=high`)).titles).toEqual(['Levitating']);
    // The library narrowed by the filters, as the Songs screen shows it.
    const library = await exported('genre=Pop&energy=high');
    expect(library.titles.sort()).toEqual(['Elsewhere', 'Levitating']);
    expect(library.name).toContain('WCS library (Pop, high energy).m3u8');
    expect((await exported('q=LOVE')).titles).toEqual(['Lovely']);

    const both = await t.app.inject({
      method: 'GET',
      url: `/api/interop/export/csv?event_id=${night.id}&playlist_id=1`,
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toContain('one list at a time');
    const unknown = await t.app.inject({ method: 'GET', url: '/api/interop/export/csv?event_id=999999' });
    expect(unknown.statusCode).toBe(404);
    const badBand = await t.app.inject({ method: 'GET', url: '/api/interop/export/csv?energy=extreme' });
    expect(badBand.statusCode).toBe(400);
  });
  it('writes the fresh songs pool, least overplayed first, narrowed by genre', async () => {
    const song = (title: string, genre: 'Pop' | 'Blues/Jazz', overplayScore: number, popularity: number) =>
      addSong({
        title,
        artist: 'Artist',
        genre,
        overplayScore,
        spotifyPopularity: popularity,
        filePath: `/srv/music/${title}.mp3`,
        filePresent: true,
      });
    await song('Worn Out', 'Pop', 80, 90);
    await song('Quiet One', 'Pop', 10, 40);
    await song('Rising', 'Pop', 10, 70);
    await song('Bluesy', 'Blues/Jazz', 30, 50);
    await song('At The Bound', 'Pop', 50, 99);
    const exported = async (query: string) => {
      const response = await t.injectAs('viewer', {
        method: 'GET',
        url: `/api/interop/export/m3u8?${query}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      return {
        name: response.headers['content-disposition'],
        titles: DJ_READERS.m3u8.read(response.body).tracks.map((track) => track.title),
      };
    };
    // As GET /analytics/fresh-songs-pool orders it: overplay, then popularity (higher first).
    expect(await exported('fresh_pool=true')).toEqual({
      name: expect.stringContaining('Fresh songs pool.m3u8'),
      titles: ['Rising', 'Quiet One', 'Bluesy'],
    });
    const pool = await t.injectAs('viewer', { method: 'GET', url: '/api/analytics/fresh-songs-pool' });
    expect(pool.json().data.map((entry: { title: string }) => entry.title)).toEqual(
      (await exported('fresh_pool=true')).titles,
    );
    expect((await exported('fresh_pool=true&genre=Pop')).titles).toEqual(['Rising', 'Quiet One']);
    const twoLists = await t.app.inject({
      method: 'GET',
      url: '/api/interop/export/csv?fresh_pool=true&event_id=1',
    });
    expect(twoLists.statusCode).toBe(400);
  });
});
