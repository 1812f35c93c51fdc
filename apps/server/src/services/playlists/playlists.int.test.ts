import fs from 'node:fs/promises';
import path from 'node:path';
import type { TimeWindow } from '@wcs/contract';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, plays, songs } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import { localDate, subtractMonths } from '../age.js';
import { getPlaylist } from './playlists.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
const ids: Record<string, number> = {};

const JAZZ = 'Mid · Blues/Jazz · 00-02 · Low energy';
const POP = 'New · Pop · 22-00 · High energy';
const UNKNOWN = 'Unknown · Unknown · 20-22 · Mid energy';
const JAZZ_FILE = 'Mid - Blues-Jazz - 00-02 - Low energy.m3u8';
const POP_FILE = 'New - Pop - 22-00 - High energy.m3u8';

/**
 * A crafted library (overplay thresholds 90 for new songs, 70 for the rest):
 * - Mid Blues/Jazz, low energy, played most in 00-02: At Last, Blue Moon (also once in 22-00),
 *   Fever (once in 00-02 and once in 04-06: the tie goes to the earlier 00-02), Cry Me a River,
 *   Überweg; Summertime was never played, and its (86 BPM, 320 energy) is nearest to the 00-02
 *   average (85.7, 278): distance 4.2, against 9.2 to 20-22 (88, 410), 30.1 to 04-06 (102, 575)
 *   and 60.5 to 22-00 (121.8, 807.7).
 *   Left out: No File (no file), Not Analysed (no analysis), Worn Out (score 70 >= 70).
 * - New Pop, high energy, 22-00: Pop 1-5 (Pop 5 at score 89, under the new threshold of 90);
 *   Pop 6 at score 95 is left out.
 * - No release date or genre, mid energy, 20-22: Mystery 1-5; Mystery 6 at score 75 is left
 *   out, as a song of unknown age is treated as old (threshold 70).
 * - Old Acoustic, low energy, 20-22: Folk 1-4, one short of a playlist.
 */
beforeAll(async () => {
  t = await createTestApp();
  const db = t.deps.db;
  const today = localDate();
  const newDate = subtractMonths(today, 1);
  const midDate = subtractMonths(today, 12);
  const oldDate = subtractMonths(today, 60);
  const analysed = new Date('2026-01-01T00:00:00Z');
  const song = (
    title: string,
    artist: string,
    fields: Partial<typeof songs.$inferInsert>,
  ): typeof songs.$inferInsert => ({
    title,
    artist,
    searchKey: `${title} ${artist}`.toLowerCase(),
    filePresent: true,
    filePath: `/music/${title.toLowerCase()}.mp3`,
    analyzedAt: analysed,
    durationMs: 200_000,
    ...fields,
  });
  const jazz = (title: string, artist: string, bpm: number | null, energy: number, fields = {}) =>
    song(title, artist, { genre: 'Blues/Jazz', releaseDate: midDate, bpm, energyLevel: energy, ...fields });
  const pop = (n: number, fields = {}) =>
    song(`Pop ${n}`, 'Pop Star', {
      genre: 'Pop',
      releaseDate: newDate,
      bpm: 118 + 2 * n,
      energyLevel: 780 + 20 * n,
      ...fields,
    });
  const mystery = (n: number, fields = {}) =>
    song(`Mystery ${n}`, 'Anonymous', { bpm: 100, energyLevel: 500, ...fields });
  const folk = (n: number) =>
    song(`Folk ${n}`, 'Folk Duo', {
      genre: 'Acoustic',
      releaseDate: oldDate,
      bpm: 70,
      energyLevel: 150 + 50 * n,
    });
  const rows = await db
    .insert(songs)
    .values([
      jazz('At Last', 'Etta James', 80, 250, { durationMs: 179_500, filePath: '/music/jazz/at last.flac' }),
      jazz('Blue Moon', 'Ella', 84, 300, { durationMs: 185_400, filePath: '/music/jazz/blue moon.mp3' }),
      jazz('Fever', 'Peggy Lee', 84, 350, { durationMs: null, filePath: '/music/jazz/fever.mp3' }),
      jazz('Cry Me a River', 'Julie London', 90, 200, { filePath: '/music/jazz/cry me a river.mp3' }),
      jazz('Summertime', 'Nina Simone', 86, 320, {
        durationMs: 240_000,
        filePath: '/music/jazz/summertime.mp3',
      }),
      jazz('Überweg', 'Zoë', 88, 380, { durationMs: 210_000, filePath: '/music/jazz/überweg.mp3' }),
      jazz('No File', 'Nobody', 82, 300, { filePresent: false, filePath: null }),
      jazz('Not Analysed', 'Nobody', null, 300, { analyzedAt: null }),
      jazz('Worn Out', 'Everybody', 85, 300, { overplayScore: 70 }),
      pop(1),
      pop(2),
      pop(3),
      pop(4),
      pop(5, { overplayScore: 89 }),
      pop(6, { overplayScore: 95 }),
      mystery(1),
      mystery(2),
      mystery(3),
      mystery(4),
      mystery(5),
      mystery(6, { overplayScore: 75 }),
      folk(1),
      folk(2),
      folk(3),
      folk(4),
    ])
    .returning();
  for (const row of rows) ids[row.title] = row.id;
  const [event] = await db
    .insert(events)
    .values({ name: 'Weekly', startDate: '2026-01-01', endDate: '2026-01-01', timezone: 'UTC' })
    .returning();
  const playRows: Array<typeof plays.$inferInsert> = [];
  const played = (title: string, window: TimeWindow, count = 1) => {
    for (let i = 0; i < count; i += 1) {
      playRows.push({
        songId: ids[title]!,
        eventId: event!.id,
        startedAt: new Date('2026-01-01T23:00:00Z'),
        timeWindow: window,
        source: 'manual',
      });
    }
  };
  played('Blue Moon', '00-02', 2);
  played('Blue Moon', '22-00');
  played('At Last', '00-02');
  played('Fever', '00-02');
  played('Fever', '04-06');
  played('Pop 1', '04-06');
  played('Cry Me a River', '00-02', 3);
  played('Überweg', '00-02');
  played('No File', '00-02');
  played('Worn Out', '00-02');
  for (let n = 1; n <= 6; n += 1) played(`Pop ${n}`, '22-00', 2);
  for (let n = 1; n <= 6; n += 1) played(`Mystery ${n}`, '20-22');
  for (let n = 1; n <= 4; n += 1) played(`Folk ${n}`, '20-22');
  await db.insert(plays).values(playRows);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url });
const post = (url: string) => t.app.inject({ method: 'POST', url });
const fileIn = (name: string) => path.join(t.deps.config.playlistsDir, name);
const exists = (name: string) =>
  fs.access(fileIn(name)).then(
    () => true,
    () => false,
  );

interface PlaylistJson {
  playlist_id: number;
  playlist_name: string;
  song_count: number;
  is_active: boolean;
  songs?: Array<{ title: string }>;
}
const playlistsBy = async (query = '') => {
  const body = (await get(`/api/playlists${query}`)).json() as { data: PlaylistJson[]; total: number };
  return new Map(body.data.map((playlist) => [playlist.playlist_name, playlist]));
};

const JAZZ_M3U8 =
  '#EXTM3U\n' +
  '#EXTINF:180,Etta James - At Last\n' +
  '/music/jazz/at last.flac\n' +
  '#EXTINF:185,Ella - Blue Moon\n' +
  '/music/jazz/blue moon.mp3\n' +
  '#EXTINF:-1,Peggy Lee - Fever\n' +
  '/music/jazz/fever.mp3\n' +
  '#EXTINF:240,Nina Simone - Summertime\n' +
  '/music/jazz/summertime.mp3\n' +
  '#EXTINF:210,Zoë - Überweg\n' +
  '/music/jazz/überweg.mp3\n' +
  '#EXTINF:200,Julie London - Cry Me a River\n' +
  '/music/jazz/cry me a river.mp3\n';

describe('POST /api/playlists/regenerate', () => {
  it('makes one playlist per group of at least 5 eligible songs', async () => {
    const response = await post('/api/playlists/regenerate');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: '3 active playlists (3 new, 0 updated, 0 deactivated)',
      active: 3,
      created: 3,
      updated: 0,
      deactivated: 0,
    });
    const list = (await get('/api/playlists')).json();
    expect(list.total).toBe(3);
    expect(list.data.map((playlist: PlaylistJson) => [playlist.playlist_name, playlist.song_count])).toEqual([
      [JAZZ, 6],
      [POP, 5],
      [UNKNOWN, 5],
    ]);
    expect(list.data[0]).toMatchObject({
      age_category: 'mid',
      genre: 'Blues/Jazz',
      time_window: '00-02',
      energy_level: 'low',
      // 179.5 + 185.4 + 0 (unknown) + 200 + 240 + 210 = 1014.9 s.
      total_duration_seconds: 1015,
      is_active: true,
      m3u8_url: `/api/playlists/${list.data[0].playlist_id}/m3u8`,
    });
    expect(list.data[2]).toMatchObject({
      age_category: null,
      genre: null,
      time_window: '20-22',
      energy_level: 'mid',
    });
  });

  it('orders the songs by BPM, then title', async () => {
    const jazz = (await playlistsBy()).get(JAZZ)!;
    const detail = (await get(`/api/playlists/${jazz.playlist_id}`)).json() as PlaylistJson;
    expect(detail.songs!.map((song) => song.title)).toEqual([
      'At Last',
      'Blue Moon',
      'Fever',
      'Summertime',
      'Überweg',
      'Cry Me a River',
    ]);
    const pop = (await playlistsBy()).get(POP)!;
    const popDetail = (await get(`/api/playlists/${pop.playlist_id}`)).json() as PlaylistJson;
    expect(popDetail.songs!.map((song) => song.title)).toEqual(['Pop 1', 'Pop 2', 'Pop 3', 'Pop 4', 'Pop 5']);
  });

  it('writes each playlist as an extended M3U8 file, byte for byte, and serves it', async () => {
    const expected = Buffer.from(JAZZ_M3U8, 'utf8');
    expect((await fs.readFile(fileIn(JAZZ_FILE))).equals(expected)).toBe(true);
    expect((await fs.readdir(t.deps.config.playlistsDir)).sort()).toEqual([
      JAZZ_FILE,
      POP_FILE,
      'Unknown - Unknown - 20-22 - Mid energy.m3u8',
    ]);
    const jazz = (await playlistsBy()).get(JAZZ)!;
    const response = await get(`/api/playlists/${jazz.playlist_id}/m3u8`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('audio/x-mpegurl; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${JAZZ_FILE}"; filename*=UTF-8''${encodeURIComponent(JAZZ_FILE)}`,
    );
    expect(response.rawPayload.equals(expected)).toBe(true);
  });

  it('keeps the same playlists on a second run', async () => {
    const before = await playlistsBy();
    const response = (await post('/api/playlists/regenerate')).json();
    expect(response).toMatchObject({ active: 3, created: 0, updated: 3, deactivated: 0 });
    const after = await playlistsBy();
    for (const [name, playlist] of before) expect(after.get(name)!.playlist_id).toBe(playlist.playlist_id);
  });

  it('turns a vanished group inactive and removes its file', async () => {
    const db = t.deps.db;
    // Two jazz songs lose their files: 4 are left, one short.
    await db
      .update(songs)
      .set({ filePresent: false })
      .where(inArray(songs.id, [ids['At Last']!, ids.Überweg!]));
    const response = (await post('/api/playlists/regenerate')).json();
    expect(response).toMatchObject({ active: 2, created: 0, updated: 2, deactivated: 1 });
    expect(await exists(JAZZ_FILE)).toBe(false);
    expect((await playlistsBy()).has(JAZZ)).toBe(false);
    const inactive = (await playlistsBy('?is_active=false')).get(JAZZ)!;
    expect(inactive).toMatchObject({ is_active: false, song_count: 0 });
    const detail = (await get(`/api/playlists/${inactive.playlist_id}`)).json();
    expect(detail.songs).toEqual([]);

    const download = await get(`/api/playlists/${inactive.playlist_id}/m3u8`);
    expect(download.statusCode).toBe(404);
    expect(download.json().message).toBe(
      `Playlist ${inactive.playlist_id} ("${JAZZ}") is inactive: its group has fewer than 5 songs now, so it has no file`,
    );
  });
});

describe('POST /api/playlists/:id/regenerate', () => {
  it('brings a group back once it qualifies again, with its file', async () => {
    const jazz = (await playlistsBy('?is_active=false')).get(JAZZ)!;
    const stillShort = (await post(`/api/playlists/${jazz.playlist_id}/regenerate`)).json();
    expect(stillShort).toMatchObject({ is_active: false, songs: [] });

    await t.deps.db
      .update(songs)
      .set({ filePresent: true })
      .where(inArray(songs.id, [ids['At Last']!, ids.Überweg!]));
    const response = await post(`/api/playlists/${jazz.playlist_id}/regenerate`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ playlist_id: jazz.playlist_id, is_active: true, song_count: 6 });
    expect(response.json().songs).toHaveLength(6);
    expect((await fs.readFile(fileIn(JAZZ_FILE), 'utf8')) === JAZZ_M3U8).toBe(true);
  });

  it('answers is_active false when the group no longer qualifies, and removes the file', async () => {
    // Pop 5 reaches the new-song threshold: 4 pop songs are left.
    await t.deps.db.update(songs).set({ overplayScore: 90 }).where(eq(songs.id, ids['Pop 5']!));
    const pop = (await playlistsBy()).get(POP)!;
    const response = await post(`/api/playlists/${pop.playlist_id}/regenerate`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ playlist_name: POP, is_active: false, song_count: 0, songs: [] });
    expect(await exists(POP_FILE)).toBe(false);
  });

  it('answers 404 for an unknown playlist and 400 for a bad id', async () => {
    const unknown = await post('/api/playlists/999999/regenerate');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Playlist 999999 was not found');
    expect((await post('/api/playlists/x/regenerate')).statusCode).toBe(400);
  });
});

describe('reading playlists', () => {
  it("pages a playlist's songs in playlist order, and the playlist carries only its first songs", async () => {
    const jazz = (await playlistsBy()).get(JAZZ)!;
    const order = ['At Last', 'Blue Moon', 'Fever', 'Summertime', 'Überweg', 'Cry Me a River'];
    const page = (await get(`/api/playlists/${jazz.playlist_id}/songs?skip=2&limit=3`)).json();
    expect(page.total).toBe(6);
    expect(page.data.map((song: { title: string }) => song.title)).toEqual(order.slice(2, 5));
    const rest = (await get(`/api/playlists/${jazz.playlist_id}/songs?skip=5`)).json();
    expect(rest.data.map((song: { title: string }) => song.title)).toEqual(order.slice(5));
    const first = await getPlaylist(t.deps.db, jazz.playlist_id, 4);
    expect(first.song_count).toBe(6);
    expect(first.songs.map((song) => song.title)).toEqual(order.slice(0, 4));
    expect((await get('/api/playlists/999999/songs')).statusCode).toBe(404);
    expect((await get(`/api/playlists/${jazz.playlist_id}/songs?limit=0`)).statusCode).toBe(400);
  });

  it('answers 404 and 400 for unknown ids and bad filters', async () => {
    expect((await get('/api/playlists/999999')).statusCode).toBe(404);
    expect((await get('/api/playlists/0')).statusCode).toBe(400);
    const badFilter = await get('/api/playlists?is_active=maybe');
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().message).toMatch(/^querystring\.is_active/);
    const noFile = await get('/api/playlists/999999/m3u8');
    expect(noFile.statusCode).toBe(404);
    expect(noFile.json().message).toBe('Playlist 999999 was not found');
  });

  it('answers 404 with the way out when the file went missing from the folder', async () => {
    const jazz = (await playlistsBy()).get(JAZZ)!;
    await fs.rm(fileIn(JAZZ_FILE));
    const response = await get(`/api/playlists/${jazz.playlist_id}/m3u8`);
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(
      `The file of playlist ${jazz.playlist_id} (${JAZZ_FILE}) is missing from the playlists folder; regenerate the playlists to write it again`,
    );
  });
});

describe('the playlists.regenerate job', () => {
  it('regenerates every playlist and writes the missing file again', async () => {
    await t.deps.jobs.send('playlists.regenerate', { reason: 'test' });
    const deadline = Date.now() + 15_000;
    while (!(await exists(JAZZ_FILE)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await fs.readFile(fileIn(JAZZ_FILE), 'utf8')).toBe(JAZZ_M3U8);
    // The pop group is still one short, so it stays inactive without a file.
    expect((await playlistsBy('?is_active=false')).has(POP)).toBe(true);
    expect(await exists(POP_FILE)).toBe(false);
  });
});
