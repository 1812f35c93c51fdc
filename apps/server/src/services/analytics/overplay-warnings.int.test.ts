import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsDataset, seedAnalyticsDataset } from '../../test/analytics-dataset.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let d: AnalyticsDataset;

beforeAll(async () => {
  t = await createTestApp();
  d = await seedAnalyticsDataset(t.deps.db);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url });
type Row = { song_id: number; title: string; overplay_score: number; severity: string; play_count: number };
const brief = (rows: Row[]) => rows.map((row) => [row.title, row.overplay_score, row.severity]);

describe('GET /api/analytics/overplay-warnings', () => {
  it('lists songs at or above the default threshold of 70, highest first, with their severity', async () => {
    const response = await get('/api/analytics/overplay-warnings');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(brief(body.data)).toEqual([
      ['Alpha', 90, 'critical'],
      ['Bravo', 80, 'high'],
      ['Charlie', 79.9, 'warning'],
    ]);
    expect(body.total).toBe(3);
    // Full songs, with their play counts.
    expect(body.data[0]).toMatchObject({
      song_id: d.songs.alpha,
      artist: 'Artist One',
      genre: 'Pop',
      play_count: 4,
    });
  });

  it('includes a song exactly at the threshold and counts all matches beyond the limit', async () => {
    const atEighty = await get('/api/analytics/overplay-warnings?threshold=80');
    expect(brief(atEighty.json().data)).toEqual([
      ['Alpha', 90, 'critical'],
      ['Bravo', 80, 'high'],
    ]);
    const limited = await get('/api/analytics/overplay-warnings?threshold=10&limit=2');
    expect(limited.json().data.map((row: Row) => row.title)).toEqual(['Alpha', 'Bravo']);
    // Alpha, Bravo, Charlie, Delta (30), and Echo and Foxtrot (10, exactly the threshold).
    expect(limited.json().total).toBe(6);
  });

  it('is empty when no song reaches the threshold', async () => {
    expect((await get('/api/analytics/overplay-warnings?threshold=95')).json()).toEqual({
      data: [],
      total: 0,
    });
  });

  it.each(['threshold=101', 'threshold=-1', 'threshold=high', 'limit=0', 'limit=501'])(
    'answers 400 for %s',
    async (query) => {
      const response = await get(`/api/analytics/overplay-warnings?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^querystring\.(threshold|limit): /);
    },
  );
});
