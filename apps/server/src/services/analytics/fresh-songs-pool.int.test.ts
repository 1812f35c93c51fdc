import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsDataset, seedAnalyticsDataset, setReleaseDate } from '../../test/analytics-dataset.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { localDate, subtractMonths } from '../age.js';

let t: TestApp;
let d: AnalyticsDataset;

beforeAll(async () => {
  t = await createTestApp();
  d = await seedAnalyticsDataset(t.deps.db);
  // Age categories are reckoned from today, so these two are dated relative to it: Delta is new
  // (1 month old), Foxtrot mid (exactly 6 months old: the boundary belongs to mid). Echo (2019) is old.
  const today = localDate();
  await setReleaseDate(t.deps.db, d.songs.delta, subtractMonths(today, 1));
  await setReleaseDate(t.deps.db, d.songs.foxtrot, subtractMonths(today, 6));
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url });
type Row = {
  title: string;
  overplay_score: number;
  spotify_popularity: number | null;
  age_category: string | null;
};
const brief = (rows: Row[]) =>
  rows.map((row) => [row.title, row.overplay_score, row.spotify_popularity, row.age_category]);

describe('GET /api/analytics/fresh-songs-pool', () => {
  it('lists songs under 50, lowest score first, then most popular with unknown popularity last', async () => {
    const response = await get('/api/analytics/fresh-songs-pool');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    // Alpha 90, Bravo 80 and Charlie 79.9 are not fresh. Echo and Foxtrot tie at 10: Echo (popularity
    // 90) before Foxtrot (unknown popularity).
    expect(brief(body.data)).toEqual([
      ['Echo', 10, 90, 'old'],
      ['Foxtrot', 10, null, 'mid'],
      ['Delta', 30, 40, 'new'],
    ]);
    expect(body.total).toBe(3);
    expect(body.by_age_category).toEqual({ new: 1, mid: 1, old: 1 });
  });

  it('counts the whole pool, not only the songs returned', async () => {
    const body = (await get('/api/analytics/fresh-songs-pool?limit=1')).json();
    expect(body.data.map((row: Row) => row.title)).toEqual(['Echo']);
    expect(body.total).toBe(3);
    expect(body.by_age_category).toEqual({ new: 1, mid: 1, old: 1 });
  });

  it('filters by age category and genre', async () => {
    const mid = (await get('/api/analytics/fresh-songs-pool?age_category=mid')).json();
    expect(mid.data.map((row: Row) => row.title)).toEqual(['Foxtrot']);
    expect(mid.total).toBe(1);
    expect(mid.by_age_category).toEqual({ new: 0, mid: 1, old: 0 });
    const contemporary = (await get('/api/analytics/fresh-songs-pool?genre=Contemporary')).json();
    expect(contemporary.data.map((row: Row) => row.title)).toEqual(['Delta']);
    expect(contemporary.by_age_category).toEqual({ new: 1, mid: 0, old: 0 });
    const pop = (await get('/api/analytics/fresh-songs-pool?genre=Pop')).json();
    expect(pop).toEqual({ data: [], total: 0, by_age_category: { new: 0, mid: 0, old: 0 } });
  });

  it('counts a song without a release date in the total but in no category', async () => {
    await setReleaseDate(t.deps.db, d.songs.delta, null);
    const body = (await get('/api/analytics/fresh-songs-pool')).json();
    expect(body.total).toBe(3);
    expect(body.by_age_category).toEqual({ new: 0, mid: 1, old: 1 });
    expect(brief(body.data)[2]).toEqual(['Delta', 30, 40, null]);
  });

  it.each(['age_category=ancient', 'genre=Polka', 'limit=0', 'limit=1001'])(
    'answers 400 for %s',
    async (query) => {
      const response = await get(`/api/analytics/fresh-songs-pool?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^querystring\.(age_category|genre|limit): /);
    },
  );
});
