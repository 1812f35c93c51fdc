import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spotifyPopularityHistory } from '../../db/schema.js';
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

describe('GET /api/analytics/spotify-popularity/:id', () => {
  it('gives the current popularity and the stored history oldest first', async () => {
    await t.deps.db.insert(spotifyPopularityHistory).values([
      { songId: d.songs.alpha, fetchedAt: new Date('2026-10-01T12:00:00Z'), popularity: 75 },
      { songId: d.songs.alpha, fetchedAt: new Date('2026-09-01T12:00:00Z'), popularity: 70 },
      { songId: d.songs.bravo, fetchedAt: new Date('2026-09-15T12:00:00Z'), popularity: 61 },
    ]);
    const response = await get(`/api/analytics/spotify-popularity/${d.songs.alpha}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: {
        current_popularity: 80,
        // The dataset writes the column without saying where the value came from.
        current_source: null,
        // The test server has no Spotify credentials.
        spotify_configured: false,
        history: [
          { fetched_at: '2026-09-01T12:00:00.000Z', popularity: 70, source: 'spotify' },
          { fetched_at: '2026-10-01T12:00:00.000Z', popularity: 75, source: 'spotify' },
        ],
      },
    });
  });

  it('gives null and an empty history when nothing is known', async () => {
    const response = await get(`/api/analytics/spotify-popularity/${d.songs.foxtrot}`);
    expect(response.json()).toEqual({
      data: { current_popularity: null, current_source: null, spotify_configured: false, history: [] },
    });
  });

  it('answers 404 for an unknown song', async () => {
    const response = await get('/api/analytics/spotify-popularity/5150');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Song 5150 was not found' });
  });
});
