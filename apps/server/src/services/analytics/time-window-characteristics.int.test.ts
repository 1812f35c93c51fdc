import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAnalyticsDataset } from '../../test/analytics-dataset.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/analytics/time-window-characteristics', () => {
  it('is empty without plays', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/analytics/time-window-characteristics' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: [], total: 0 });
  });

  it('gives plays, the four averages and the top genre per window over all plays', async () => {
    await seedAnalyticsDataset(t.deps.db);
    const response = await t.app.inject({ method: 'GET', url: '/api/analytics/time-window-characteristics' });
    expect(response.json()).toEqual({
      data: [
        // Pop: Alpha, Bravo, Alpha (3) against one each of Blues/Jazz, Contemporary, none.
        {
          time_window: '20-22',
          play_count: 6,
          avg_bpm: 96.1,
          avg_energy: 539.8,
          avg_valence: 475,
          avg_danceability: 625,
          top_genre: 'Pop',
        },
        // Charlie twice (Blues/Jazz) against Alpha (Pop) and Delta (Contemporary).
        {
          time_window: '22-00',
          play_count: 4,
          avg_bpm: 92.6,
          avg_energy: 399.8,
          avg_valence: 400,
          avg_danceability: 566.7,
          top_genre: 'Blues/Jazz',
        },
        // Echo twice has no genre: the top genre is Bravo's Pop, never 'Unknown'.
        {
          time_window: '00-02',
          play_count: 3,
          avg_bpm: 90,
          avg_energy: 500,
          avg_valence: 400,
          avg_danceability: 600,
          top_genre: 'Pop',
        },
        {
          time_window: '02-04',
          play_count: 1,
          avg_bpm: 100,
          avg_energy: 800,
          avg_valence: 600,
          avg_danceability: 700,
          top_genre: 'Pop',
        },
      ],
      total: 4,
    });
  });
});
