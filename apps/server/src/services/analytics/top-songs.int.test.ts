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

describe('GET /api/analytics/top-songs', () => {
  it('ranks songs by plays (ties by title) with distinct events and the last play', async () => {
    const response = await get('/api/analytics/top-songs');
    expect(response.statusCode).toBe(200);
    const s = d.songs;
    expect(response.json()).toEqual({
      data: [
        {
          song_id: s.alpha,
          title: 'Alpha',
          artist: 'Artist One',
          genre: 'Pop',
          play_count: 4,
          event_count: 2,
          last_played_at: '2026-07-11T02:30:00.000Z',
        },
        {
          song_id: s.charlie,
          title: 'Charlie',
          artist: 'Artist Two',
          genre: 'Blues/Jazz',
          play_count: 4,
          event_count: 2,
          last_played_at: '2026-07-11T23:10:00.000Z',
        },
        {
          song_id: s.echo,
          title: 'Echo',
          artist: 'Artist Four',
          genre: null,
          play_count: 3,
          event_count: 2,
          last_played_at: '2026-07-11T21:00:00.000Z',
        },
        {
          song_id: s.bravo,
          title: 'Bravo',
          artist: 'artist one',
          genre: 'Pop',
          play_count: 2,
          event_count: 2,
          last_played_at: '2026-07-12T00:10:00.000Z',
        },
        {
          song_id: s.delta,
          title: 'Delta',
          artist: 'Artist Three',
          genre: 'Contemporary',
          play_count: 2,
          event_count: 2,
          last_played_at: '2026-07-11T20:30:00.000Z',
        },
      ],
      // Foxtrot was never played.
      total: 5,
    });
  });

  it('applies the filter to the counts and to the last play, and the limit after counting', async () => {
    const response = await get(`/api/analytics/top-songs?event_id=${d.events.spring}&limit=3`);
    const body = response.json();
    expect(body.total).toBe(5);
    expect(
      body.data.map(
        (row: { title: string; play_count: number; event_count: number; last_played_at: string }) => [
          row.title,
          row.play_count,
          row.event_count,
          row.last_played_at,
        ],
      ),
    ).toEqual([
      // Alpha's last play overall is in July; within Spring Party it is 22:15 on 14 March.
      ['Alpha', 2, 1, '2026-03-14T22:15:00.000Z'],
      ['Bravo', 1, 1, '2026-03-14T20:40:00.000Z'],
      ['Charlie', 1, 1, '2026-03-14T21:30:00.000Z'],
    ]);
  });

  it('restricts to one social', async () => {
    const response = await get(`/api/analytics/top-songs?social_id=${d.socials.summerSaturday}`);
    expect(
      response.json().data.map((row: { title: string; play_count: number }) => [row.title, row.play_count]),
    ).toEqual([
      ['Charlie', 2],
      ['Bravo', 1],
      ['Delta', 1],
      ['Echo', 1],
    ]);
  });

  it('rejects a limit out of range and an unknown social', async () => {
    expect((await get('/api/analytics/top-songs?limit=0')).statusCode).toBe(400);
    expect((await get('/api/analytics/top-songs?limit=501')).statusCode).toBe(400);
    expect((await get('/api/analytics/top-songs?social_id=31337')).statusCode).toBe(404);
  });
});
