import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events, plays, socials, songs } from '../db/schema.js';
import { createTestApp } from '../test/harness.js';
import { songSearchKey } from '../text.js';
import { ageCutoffs, localDate, subtractMonths } from './age.js';
import { toSong } from './songs.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  // A song's edit schedules a score recompute; one left by the test before would rewrite scores set here.
  await t.settleJobs();
  await t.deps.pool.query('truncate events, socials, songs, plays, settings restart identity cascade');
});

type SongInsert = typeof songs.$inferInsert;
async function insertSong(fields: Partial<SongInsert> & { title: string; artist: string }) {
  const [row] = await t.deps.db
    .insert(songs)
    .values({ ...fields, searchKey: songSearchKey(fields.title, fields.artist) })
    .returning();
  return row!;
}

async function insertEvent(name: string, isFestival = false) {
  const [row] = await t.deps.db
    .insert(events)
    .values({ name, startDate: '2025-05-01', endDate: '2025-05-04', isFestival, timezone: 'Europe/Berlin' })
    .returning();
  return row!;
}

const get = (url: string) => t.app.inject({ method: 'GET', url });
const put = (id: number | string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: `/api/songs/${id}`, payload: payload as object });
const ids = (body: { data: Array<{ song_id: number }> }) => body.data.map((song) => song.song_id);

/** Day before / after a YYYY-MM-DD date. */
const shiftDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

describe('GET /api/songs/:id', () => {
  it('answers every field of the song with its play count and derived age category', async () => {
    const today = localDate();
    const release = shiftDays(today, -30);
    const song = await insertSong({
      title: 'Halo',
      artist: 'Beyoncé',
      album: 'I Am... Sasha Fierce',
      genre: 'Pop',
      releaseDate: release,
      bpm: 79.96,
      bpmAlt: 159.92,
      musicalKey: 'A major',
      keyConfidence: 0.15,
      energyLevel: 720,
      danceability: 510,
      valence: 330,
      spotifyPopularity: 88,
      durationMs: 261_640,
      analyzedAt: new Date('2025-02-03T04:05:06.789Z'),
      analysisVersion: 'wcs-analysis/1',
      filePath: '/music/halo.mp3',
      filePresent: true,
      overplayScore: 62.5,
    });
    const event = await insertEvent('Party');
    await t.deps.db.insert(plays).values([
      { songId: song.id, eventId: event.id, startedAt: new Date('2025-05-01T20:00:00Z'), source: 'manual' },
      { songId: song.id, eventId: event.id, startedAt: new Date('2025-05-02T20:00:00Z'), source: 'manual' },
    ]);

    const response = await get(`/api/songs/${song.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      song_id: song.id,
      title: 'Halo',
      artist: 'Beyoncé',
      album: 'I Am... Sasha Fierce',
      genre: 'Pop',
      release_date: release,
      age_category: 'new',
      bpm: 80,
      bpm_alt: 159.9,
      key: 'A major',
      key_confidence: 0.15,
      key_uncertain: true,
      energy_level: 720,
      danceability: 510,
      valence: 330,
      spotify_popularity: 88,
      duration_ms: 261_640,
      analyzed_at: '2025-02-03T04:05:06.789Z',
      analysis_version: 'wcs-analysis/1',
      file_present: true,
      file_path: '/music/halo.mp3',
      overplay_score: 62.5,
      play_count: 2,
      isrc: null,
      artwork_url: null,
      preview_url: null,
      sources: {},
    });
  });

  it('answers nulls for a bare song', async () => {
    const song = await insertSong({ title: 'Unknown', artist: 'Nobody' });
    expect((await get(`/api/songs/${song.id}`)).json()).toEqual({
      song_id: song.id,
      title: 'Unknown',
      artist: 'Nobody',
      album: null,
      genre: null,
      release_date: null,
      age_category: null,
      bpm: null,
      bpm_alt: null,
      key: null,
      key_confidence: null,
      key_uncertain: false,
      energy_level: null,
      danceability: null,
      valence: null,
      spotify_popularity: null,
      duration_ms: null,
      analyzed_at: null,
      analysis_version: null,
      file_present: false,
      file_path: null,
      overplay_score: 0,
      play_count: 0,
      isrc: null,
      artwork_url: null,
      preview_url: null,
      sources: {},
    });
  });

  it('answers 404 for an unknown id and 400 for an invalid one', async () => {
    const missing = await get('/api/songs/4242');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Song 4242 was not found' });
    const invalid = await get('/api/songs/abc');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toMatch(/^params\.id: /);
  });
});

describe('toSong', () => {
  it('derives the age category from the given day', async () => {
    const song = await insertSong({ title: 'T', artist: 'A', releaseDate: '2024-12-15' });
    expect(toSong(song, 3, '2025-06-14').age_category).toBe('new');
    expect(toSong(song, 3, '2025-06-15').age_category).toBe('mid');
    expect(toSong(song, 3, '2026-12-15').age_category).toBe('mid');
    expect(toSong(song, 3, '2026-12-16').age_category).toBe('old');
    expect(toSong(song, 3, '2025-06-15').play_count).toBe(3);
  });
});

describe('GET /api/songs/', () => {
  it('orders by artist, then title, then id, and pages with the full total', async () => {
    const c = await insertSong({ title: 'Zebra', artist: 'Adele' });
    const a = await insertSong({ title: 'Hello', artist: 'Adele' });
    const d = await insertSong({ title: 'Valerie', artist: 'Amy Winehouse' });
    const b = await insertSong({ title: 'Hello', artist: 'Adele' });
    const e = await insertSong({ title: 'Alpha', artist: 'Zedd' });

    const all = await get('/api/songs/');
    expect(all.statusCode).toBe(200);
    expect(all.json().total).toBe(5);
    expect(ids(all.json())).toEqual([a.id, b.id, c.id, d.id, e.id]);

    const page = (await get('/api/songs/?skip=2&limit=2')).json();
    expect(page.total).toBe(5);
    expect(ids(page)).toEqual([c.id, d.id]);

    const last = (await get('/api/songs/?skip=4&limit=2')).json();
    expect(ids(last)).toEqual([e.id]);
    expect(last.total).toBe(5);
  });

  it('counts plays per song', async () => {
    const played = await insertSong({ title: 'Played', artist: 'A' });
    const quiet = await insertSong({ title: 'Quiet', artist: 'B' });
    const event = await insertEvent('Night');
    await t.deps.db.insert(plays).values(
      [1, 2, 3].map((n) => ({
        songId: played.id,
        eventId: event.id,
        startedAt: new Date(`2025-05-0${n}T21:00:00Z`),
        source: 'manual',
      })),
    );
    const body = (await get('/api/songs/')).json();
    expect(body.data.map((s: { song_id: number; play_count: number }) => [s.song_id, s.play_count])).toEqual([
      [played.id, 3],
      [quiet.id, 0],
    ]);
  });

  it('filters by genre and by file, with totals of the filtered set', async () => {
    const pop = await insertSong({
      title: 'P1',
      artist: 'A',
      genre: 'Pop',
      filePath: '/m/p1.mp3',
      filePresent: true,
    });
    const pop2 = await insertSong({ title: 'P2', artist: 'B', genre: 'Pop' });
    const blues = await insertSong({
      title: 'B1',
      artist: 'C',
      genre: 'Blues/Jazz',
      filePath: '/m/b1.mp3',
      filePresent: true,
    });
    const hiphop = await insertSong({ title: 'H1', artist: 'D', genre: 'Hip-Hop/R&B' });
    const none = await insertSong({ title: 'N1', artist: 'E' });

    const popOnly = (await get('/api/songs/?genre=Pop')).json();
    expect({ ids: ids(popOnly), total: popOnly.total }).toEqual({ ids: [pop.id, pop2.id], total: 2 });

    const rnb = (await get(`/api/songs/?genre=${encodeURIComponent('Hip-Hop/R&B')}`)).json();
    expect({ ids: ids(rnb), total: rnb.total }).toEqual({ ids: [hiphop.id], total: 1 });

    const withFile = (await get('/api/songs/?has_file=true')).json();
    expect({ ids: ids(withFile), total: withFile.total }).toEqual({ ids: [pop.id, blues.id], total: 2 });

    const withoutFile = (await get('/api/songs/?has_file=false')).json();
    expect({ ids: ids(withoutFile), total: withoutFile.total }).toEqual({
      ids: [pop2.id, hiphop.id, none.id],
      total: 3,
    });

    const popWithFile = (await get('/api/songs/?genre=Pop&has_file=1')).json();
    expect({ ids: ids(popWithFile), total: popWithFile.total }).toEqual({ ids: [pop.id], total: 1 });

    const paged = (await get('/api/songs/?has_file=false&skip=1&limit=1')).json();
    expect({ ids: ids(paged), total: paged.total }).toEqual({ ids: [hiphop.id], total: 3 });

    const acoustic = (await get('/api/songs/?genre=Acoustic')).json();
    expect(acoustic).toEqual({ data: [], total: 0 });
  });

  it('filters by age category in SQL, agreeing with each row at the boundaries', async () => {
    const today = localDate();
    const { newAfter, oldBefore } = ageCutoffs(today);
    const released = {
      today,
      dayAfterSixMonths: shiftDays(newAfter, 1),
      exactlySixMonths: newAfter,
      dayBeforeSixMonths: shiftDays(newAfter, -1),
      dayAfterTwoYears: shiftDays(oldBefore, 1),
      exactlyTwoYears: oldBefore,
      dayBeforeTwoYears: shiftDays(oldBefore, -1),
      longAgo: '1975-06-01',
    };
    const made: Record<string, number> = {};
    // Artist names sort in insertion order, so the expected lists below are in the API's order.
    let n = 0;
    for (const [name, releaseDate] of Object.entries(released)) {
      n += 1;
      made[name] = (await insertSong({ title: name, artist: `Artist ${n}`, releaseDate })).id;
    }
    made.noDate = (await insertSong({ title: 'noDate', artist: 'Artist 9' })).id;

    const category = async (age: string) => {
      const body = (await get(`/api/songs/?age_category=${age}&limit=3`)).json();
      const everything = (await get(`/api/songs/?age_category=${age}&limit=1000`)).json();
      for (const song of everything.data) expect(song.age_category).toBe(age);
      return { firstPage: ids(body), all: ids(everything), total: body.total };
    };

    expect(await category('new')).toEqual({
      firstPage: [made.today, made.dayAfterSixMonths],
      all: [made.today, made.dayAfterSixMonths],
      total: 2,
    });
    const mid = [made.exactlySixMonths, made.dayBeforeSixMonths, made.dayAfterTwoYears, made.exactlyTwoYears];
    expect(await category('mid')).toEqual({ firstPage: mid.slice(0, 3), all: mid, total: 4 });
    expect(await category('old')).toEqual({
      firstPage: [made.dayBeforeTwoYears, made.longAgo],
      all: [made.dayBeforeTwoYears, made.longAgo],
      total: 2,
    });

    const unfiltered = (await get('/api/songs/')).json();
    const byId = new Map(
      unfiltered.data.map((s: { song_id: number; age_category: string | null }) => [
        s.song_id,
        s.age_category,
      ]),
    );
    expect(byId.get(made.noDate)).toBeNull();
    expect(unfiltered.total).toBe(9);
  });

  it('uses the same month arithmetic as PostgreSQL', async () => {
    const days = [
      '2025-08-31',
      '2024-08-31',
      '2024-02-29',
      '2025-03-31',
      '2025-01-01',
      '2025-12-31',
      localDate(),
    ];
    for (const day of days) {
      const result = await t.deps.db.execute<{ six: string; two: string }>(
        sql`select (${day}::date - interval '6 months')::date::text as six, (${day}::date - interval '2 years')::date::text as two`,
      );
      expect({ day, six: subtractMonths(day, 6), two: subtractMonths(day, 24) }).toEqual({
        day,
        six: result.rows[0]!.six,
        two: result.rows[0]!.two,
      });
    }
  });

  it.each([
    ['genre=Rock', /^querystring\.genre: /],
    ['genre=pop', /^querystring\.genre: /],
    ['age_category=ancient', /^querystring\.age_category: /],
    ['has_file=maybe', /^querystring\.has_file: /],
    ['limit=0', /^querystring\.limit: /],
    ['limit=1001', /^querystring\.limit: /],
    ['skip=-1', /^querystring\.skip: /],
  ])('refuses %s with 400', async (query, message) => {
    const response = await get(`/api/songs/?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });
});

describe('GET /api/songs/ with the screen filters', () => {
  it('filters by energy and popularity band, analysis state and text, over the whole library', async () => {
    const analysed = new Date('2026-01-01T00:00:00Z');
    const high = await insertSong({
      title: 'Höch',
      artist: 'A',
      energyLevel: 700,
      spotifyPopularity: 90,
      analyzedAt: analysed,
      filePath: '/m/a.mp3',
      filePresent: true,
    });
    const mid = await insertSong({
      title: 'Middle',
      artist: 'B',
      energyLevel: 699,
      spotifyPopularity: 89,
      filePath: '/m/b.mp3',
      filePresent: true,
    });
    const low = await insertSong({ title: 'Low', artist: 'C', energyLevel: 399, spotifyPopularity: 59 });
    await insertSong({ title: 'Unknown', artist: 'D' });
    const list = async (query: string) => {
      const response = await get(`/api/songs/?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return ids(response.json()).sort((a, b) => a - b);
    };
    expect(await list('energy=high')).toEqual([high.id]);
    expect(await list('energy=mid')).toEqual([mid.id]);
    expect(await list('energy=low')).toEqual([low.id]);
    expect(await list('popularity=hot')).toEqual([high.id]);
    expect(await list('popularity=popular')).toEqual([mid.id]);
    expect(await list('popularity=niche')).toEqual([low.id]);
    expect(await list('analysis=analyzed')).toEqual([high.id]);
    expect(await list('analysis=pending')).toEqual([mid.id]);
    expect(await list('q=hoch')).toEqual([high.id]);
    expect((await get('/api/songs/?energy=loud')).statusCode).toBe(400);
  });
});

describe('GET /api/songs/search', () => {
  it('finds titles and artists ignoring case and accents', async () => {
    const halo = await insertSong({ title: 'Halo', artist: 'Beyoncé' });
    const creme = await insertSong({ title: 'Crème Brûlée', artist: 'Café Society' });
    const other = await insertSong({ title: 'Valerie', artist: 'Amy Winehouse' });
    const search = async (q: string) => {
      const response = await get(`/api/songs/search?q=${encodeURIComponent(q)}`);
      expect(response.statusCode).toBe(200);
      return response.json();
    };

    expect(ids(await search('beyonce'))).toEqual([halo.id]);
    expect(ids(await search('BEYONCÉ'))).toEqual([halo.id]);
    expect(ids(await search('Beyonce\u0301'))).toEqual([halo.id]);
    expect(ids(await search('yonc'))).toEqual([halo.id]);
    expect(ids(await search('HALO'))).toEqual([halo.id]);
    expect(ids(await search('creme brulee'))).toEqual([creme.id]);
    expect(ids(await search('cafe'))).toEqual([creme.id]);
    expect(ids(await search('  winehouse  '))).toEqual([other.id]);
    expect(await search('nothing like this')).toEqual({ data: [], total: 0 });

    const found = await search('beyonce');
    expect(found).toEqual({ data: [(await get(`/api/songs/${halo.id}`)).json()], total: 1 });
  });

  it('treats %, _ and \\ as plain characters', async () => {
    await insertSong({ title: 'Halo', artist: 'Beyoncé' });
    const percent = await insertSong({ title: '100% Pure', artist: 'X' });
    const slash = await insertSong({ title: 'Back\\slash', artist: 'Y' });
    expect(ids((await get('/api/songs/search?q=%25')).json())).toEqual([percent.id]);
    expect((await get('/api/songs/search?q=_')).json()).toEqual({ data: [], total: 0 });
    expect(ids((await get(`/api/songs/search?q=${encodeURIComponent('k\\s')}`)).json())).toEqual([slash.id]);
    expect((await get(`/api/songs/search?q=${encodeURIComponent('\\%')}`)).json()).toEqual({
      data: [],
      total: 0,
    });
  });

  it('limits the results and still counts every match, in artist order', async () => {
    const b = await insertSong({ title: 'Love Song', artist: 'B' });
    const a = await insertSong({ title: 'Lovely', artist: 'A' });
    const c = await insertSong({ title: 'Glove', artist: 'C' });
    const body = (await get('/api/songs/search?q=love&limit=2')).json();
    expect({ ids: ids(body), total: body.total }).toEqual({ ids: [a.id, b.id], total: 3 });
    expect(ids((await get('/api/songs/search?q=love')).json())).toEqual([a.id, b.id, c.id]);
  });

  it.each([
    ['', /^querystring\.q: /],
    ['q=', 'querystring.q: type something to search for'],
    ['q=%20%20', 'querystring.q: type something to search for'],
    ['q=a&limit=0', /^querystring\.limit: /],
    ['q=a&limit=201', /^querystring\.limit: /],
    [`q=${'a'.repeat(201)}`, /^querystring\.q: /],
  ])('refuses "%s" with 400', async (query, message) => {
    const response = await get(`/api/songs/search?${query}`);
    expect(response.statusCode).toBe(400);
    if (typeof message === 'string') expect(response.json().message).toBe(message);
    else expect(response.json().message).toMatch(message);
  });
});

describe('PUT /api/songs/:id', () => {
  it('changes only the given fields', async () => {
    const song = await insertSong({
      title: 'Halo',
      artist: 'Beyoncé',
      genre: 'Pop',
      bpm: 80,
      energyLevel: 500,
    });
    const before = (await get(`/api/songs/${song.id}`)).json();
    const response = await put(song.id, { genre: 'Contemporary', energy_level: 640, key: 'F# minor' });
    expect(response.statusCode).toBe(200);
    // What the DJ set is recorded as the DJ's.
    expect(response.json()).toEqual({
      ...before,
      genre: 'Contemporary',
      energy_level: 640,
      key: 'F# minor',
      sources: { ...before.sources, genre: 'dj', energy_level: 'dj', key: 'dj' },
    });
    expect((await get(`/api/songs/${song.id}`)).json()).toEqual(response.json());
  });

  it("switches to the analyser's other octave and back, as the song modal's button does", async () => {
    const song = await insertSong({ title: 'Slow', artist: 'Blues', bpm: 132, bpmAlt: 66 });
    const switched = await put(song.id, { bpm: 66 });
    expect(switched.json()).toMatchObject({ bpm: 66, bpm_alt: 132, sources: { bpm: 'dj' } });
    const back = await put(song.id, { bpm: 132 });
    expect(back.json()).toMatchObject({ bpm: 132, bpm_alt: 66, sources: { bpm: 'dj' } });
    // A tempo of the DJ's own leaves the analyser's other reading offered; clearing hands it back.
    expect((await put(song.id, { bpm: 100 })).json()).toMatchObject({
      bpm: 100,
      bpm_alt: 66,
      sources: { bpm: 'dj' },
    });
    const cleared = (await put(song.id, { bpm: null })).json();
    expect(cleared.bpm).toBeNull();
    expect(cleared.sources.bpm).toBeUndefined();
  });

  it('rewrites the search key on a new title or artist', async () => {
    const song = await insertSong({ title: 'Halo', artist: 'Beyonce' });
    const renamed = await put(song.id, { title: '  Déjà Vu ' });
    expect(renamed.json()).toMatchObject({ title: 'Déjà Vu', artist: 'Beyonce' });
    const [afterTitle] = await t.deps.db.select({ key: songs.searchKey }).from(songs);
    expect(afterTitle!.key).toBe('deja vu beyonce');

    await put(song.id, { artist: 'Beyoncé Knowles' });
    const [afterArtist] = await t.deps.db.select({ key: songs.searchKey }).from(songs);
    expect(afterArtist!.key).toBe('deja vu beyonce knowles');

    expect(ids((await get('/api/songs/search?q=deja%20vu')).json())).toEqual([song.id]);
    expect(ids((await get('/api/songs/search?q=knowles')).json())).toEqual([song.id]);
    expect((await get('/api/songs/search?q=halo')).json()).toEqual({ data: [], total: 0 });
  });

  it('sets and clears nullable fields, and the age category follows the release date', async () => {
    const song = await insertSong({ title: 'T', artist: 'A', genre: 'Pop', album: 'Album' });
    const dated = await put(song.id, { release_date: '1999-01-01', bpm: 96.44, spotify_popularity: 100 });
    expect(dated.json()).toMatchObject({
      release_date: '1999-01-01',
      age_category: 'old',
      bpm: 96.4,
      spotify_popularity: 100,
    });
    const cleared = await put(song.id, { release_date: null, genre: null, album: null, bpm: null });
    expect(cleared.json()).toMatchObject({
      release_date: null,
      age_category: null,
      genre: null,
      album: null,
      bpm: null,
    });
  });

  it.each([
    [{}, /^body\.?: send at least one field to change$/],
    [{ title: '' }, /^body\.title: /],
    [{ title: '   ' }, /^body\.title: /],
    [{ genre: 'Rock' }, /^body\.genre: /],
    [{ bpm: 10 }, /^body\.bpm: /],
    [{ bpm: 301 }, /^body\.bpm: /],
    [{ energy_level: 1001 }, /^body\.energy_level: /],
    [{ danceability: -1 }, /^body\.danceability: /],
    [{ valence: 'high' }, /^body\.valence: /],
    [{ spotify_popularity: 50.5 }, /^body\.spotify_popularity: /],
    [{ release_date: '2025-13-01' }, /^body\.release_date: /],
  ])('refuses %j with 400', async (body, message) => {
    const song = await insertSong({ title: 'T', artist: 'A' });
    const response = await put(song.id, body);
    expect(response.statusCode).toBe(400);
    if (typeof message === 'string') expect(response.json().message).toBe(message);
    else expect(response.json().message).toMatch(message);
  });

  it('answers 404 for an unknown id', async () => {
    const response = await put(999, { title: 'Ghost' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Song 999 was not found' });
  });
});

async function seedPlays() {
  const song = await insertSong({ title: 'Halo', artist: 'Beyoncé' });
  const other = await insertSong({ title: 'Valerie', artist: 'Amy Winehouse' });
  const festival = await insertEvent('Swing Fling', true);
  const party = await insertEvent('Tuesday Party');
  const [social] = await t.deps.db
    .insert(socials)
    .values({ eventId: festival.id, name: 'Friday Night Social', socialDate: '2025-05-02' })
    .returning();
  const [first, second, third] = await t.deps.db
    .insert(plays)
    .values([
      {
        songId: song.id,
        eventId: festival.id,
        socialId: social!.id,
        startedAt: new Date('2025-05-02T20:30:00Z'),
        endedAt: new Date('2025-05-02T20:34:00Z'),
        timeWindow: '22-00',
        source: 'recording',
        confidence: 0.75,
      },
      { songId: song.id, eventId: party.id, startedAt: new Date('2025-06-10T19:00:00Z'), source: 'manual' },
      { songId: other.id, eventId: party.id, startedAt: new Date('2025-06-10T19:05:00Z'), source: 'import' },
    ])
    .returning();
  return { song, other, festival, party, social: social!, first: first!, second: second!, third: third! };
}

describe('GET /api/songs/:id/plays', () => {
  it('lists the plays of the song, newest first, with event and social', async () => {
    const { song, festival, party, social, first, second } = await seedPlays();
    const response = await get(`/api/songs/${song.id}/plays`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: [
        {
          play_id: second.id,
          song_id: song.id,
          event_id: party.id,
          event_name: 'Tuesday Party',
          event_date: '2025-05-01',
          is_festival: false,
          social_id: null,
          social_name: null,
          started_at: '2025-06-10T19:00:00.000Z',
          ended_at: null,
          time_window: null,
          source: 'manual',
          confidence: null,
          recording_id: null,
        },
        {
          play_id: first.id,
          song_id: song.id,
          event_id: festival.id,
          event_name: 'Swing Fling',
          event_date: '2025-05-01',
          is_festival: true,
          social_id: social.id,
          social_name: 'Friday Night Social',
          started_at: '2025-05-02T20:30:00.000Z',
          ended_at: '2025-05-02T20:34:00.000Z',
          time_window: '22-00',
          source: 'recording',
          confidence: 0.75,
          recording_id: null,
        },
      ],
      total: 2,
    });
  });

  it('pages the plays with skip and limit, total counting them all', async () => {
    const song = await insertSong({ title: 'Evergreen', artist: 'Often' });
    const party = await insertEvent('Weekly Party');
    const startedAt = (day: number) => new Date(Date.UTC(2025, 0, day, 20));
    await t.deps.db.insert(plays).values(
      Array.from({ length: 7 }, (_, i) => ({
        songId: song.id,
        eventId: party.id,
        startedAt: startedAt(i + 1),
        source: 'manual',
      })),
    );
    const page = async (query: string) => {
      const body = (await get(`/api/songs/${song.id}/plays?${query}`)).json();
      return {
        days: body.data.map((play: { started_at: string }) => new Date(play.started_at).getUTCDate()),
        total: body.total,
      };
    };
    expect(await page('limit=3')).toEqual({ days: [7, 6, 5], total: 7 });
    expect(await page('skip=3&limit=3')).toEqual({ days: [4, 3, 2], total: 7 });
    expect(await page('skip=6&limit=3')).toEqual({ days: [1], total: 7 });
    expect(await page('skip=9')).toEqual({ days: [], total: 7 });
    expect((await get(`/api/songs/${song.id}/plays?limit=1001`)).statusCode).toBe(400);
  });

  it('answers an empty list for a song never played', async () => {
    const song = await insertSong({ title: 'Silent', artist: 'Nobody' });
    expect((await get(`/api/songs/${song.id}/plays`)).json()).toEqual({ data: [], total: 0 });
  });

  it('answers 404 for an unknown song', async () => {
    const response = await get('/api/songs/55/plays');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Song 55 was not found' });
  });
});

describe('DELETE /api/songs/:id', () => {
  it('deletes the song and its plays, nothing else', async () => {
    const { song, other, third } = await seedPlays();
    const response = await t.app.inject({ method: 'DELETE', url: `/api/songs/${song.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: `Song ${song.id} was deleted` });

    expect((await get(`/api/songs/${song.id}`)).statusCode).toBe(404);
    expect((await get(`/api/songs/${song.id}/plays`)).statusCode).toBe(404);
    const remaining = await t.deps.db.select({ id: plays.id }).from(plays);
    expect(remaining.map((p) => p.id)).toEqual([third.id]);
    expect(ids((await get('/api/songs/')).json())).toEqual([other.id]);
    expect(await t.deps.db.$count(events)).toBe(2);
  });

  it('answers 404 for an unknown song', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/api/songs/31' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Song 31 was not found' });
  });
});
