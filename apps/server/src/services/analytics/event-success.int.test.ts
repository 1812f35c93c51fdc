import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../db/schema.js';
import { type AnalyticsDataset, seedAnalyticsDataset } from '../../test/analytics-dataset.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { getEventSuccess } from './event-success.js';

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

describe('GET /api/analytics/event-success/:id', () => {
  it('computes the success metrics of Spring Party', async () => {
    const response = await get(`/api/analytics/event-success/${d.events.spring}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      event_id: d.events.spring,
      event_name: 'Spring Party',
      // 6 plays of 5 songs; 'Artist One' and 'artist one' are one artist, so 4 artists.
      // 100 × (5 + 4) / (2 × 6) = 75.
      variety_score: 75,
      unique_songs: 5,
      unique_artists: 4,
      total_plays: 6,
      energy_distribution: {
        // Energies of the 5 plays with one (Echo has none): 800, 500, 200, 800, 399.
        // 200 (20 %) is in 20-40, 399 (39.9 %) too; 800 (80 %) in 80-100.
        histogram: { '0-20': 0, '20-40': 2, '40-60': 1, '60-80': 0, '80-100': 2 },
        // Mean 2699 / 5 = 539.8 → 54.0 %; deviations 260.2, -39.8, -339.8, 260.2, -140.8:
        // squares sum 272280.8, / 5 = 54456.16, sqrt 233.36 → 23.3 %.
        mean: 54,
        std: 23.3,
        // Bands 2, 1, 2 of 5: H = 2 × 0.4 ln 2.5 + 0.2 ln 5 = 1.054920; / ln 5 = 65.5 %.
        balance_score: 65.5,
      },
      genre_balance: {
        // Pop 3 (Alpha twice, Bravo), Blues/Jazz 1, Contemporary 1; Echo has no genre and is left out.
        // H = 0.6 ln (5/3) + 2 × 0.2 ln 5 = 0.950271; / ln 5 = 59.0 %.
        score: 59,
        genre_count: 3,
        dominant_genre: 'Pop',
        genres: { Pop: 3, 'Blues/Jazz': 1, Contemporary: 1 },
      },
      // Cutoff 2025-09-14 (6 months before 2026-03-14): Alpha (2026-01-10) and Charlie (2025-12-01)
      // are new; Delta has no release date. 100 × 2 / 5 = 40.
      new_song_rate: 40,
      new_song_count: 2,
    });
  });

  it('computes the success metrics of Summer Festival, with a tie for the dominant genre', async () => {
    const response = await get(`/api/analytics/event-success/${d.events.summer}`);
    expect(response.json()).toEqual({
      event_id: d.events.summer,
      event_name: 'Summer Festival',
      // 9 plays, 5 songs, 4 artists: 100 × 9 / 18 = 50.
      variety_score: 50,
      unique_songs: 5,
      unique_artists: 4,
      total_plays: 9,
      energy_distribution: {
        // 800, 200, 800, 399, 200, 500, 200 (Echo twice without energy).
        histogram: { '0-20': 0, '20-40': 4, '40-60': 1, '60-80': 0, '80-100': 2 },
        // 3099 / 7 = 442.71 → 44.3 %; population std 249.92 → 25.0 %.
        mean: 44.3,
        std: 25,
        // Bands 4, 1, 2 of 7: H = (4/7) ln (7/4) + (1/7) ln 7 + (2/7) ln (7/2) = 0.955700; 59.4 %.
        balance_score: 59.4,
      },
      genre_balance: {
        // Pop 3 (Alpha twice, Bravo) ties Blues/Jazz 3 (Charlie thrice): Pop comes first in the genre list.
        // H = 2 × (3/7) ln (7/3) + (1/7) ln 7 = 1.004242; / ln 5 = 62.4 %.
        score: 62.4,
        genre_count: 3,
        dominant_genre: 'Pop',
        genres: { Pop: 3, 'Blues/Jazz': 3, Contemporary: 1 },
      },
      // Cutoff 2026-01-10: Alpha, released exactly 6 months before, is not new; no song is.
      new_song_rate: 0,
      new_song_count: 0,
    });
  });

  it('gives zeros and nulls, never NaN, for an event without plays', async () => {
    const [empty] = await t.deps.db
      .insert(events)
      .values({ name: 'Empty Night', startDate: '2026-10-01', endDate: '2026-10-01', timezone: 'UTC' })
      .returning({ id: events.id });
    const expected = {
      event_id: empty!.id,
      event_name: 'Empty Night',
      variety_score: 0,
      unique_songs: 0,
      unique_artists: 0,
      total_plays: 0,
      energy_distribution: {
        histogram: { '0-20': 0, '20-40': 0, '40-60': 0, '60-80': 0, '80-100': 0 },
        mean: null,
        std: null,
        balance_score: 0,
      },
      genre_balance: { score: 0, genre_count: 0, dominant_genre: null, genres: {} },
      new_song_rate: 0,
      new_song_count: 0,
    };
    expect(await getEventSuccess(t.deps.db, empty!.id)).toEqual(expected);
    expect((await get(`/api/analytics/event-success/${empty!.id}`)).json()).toEqual(expected);
  });

  it('answers 404 for an unknown event', async () => {
    const response = await get('/api/analytics/event-success/9191');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Event 9191 was not found' });
  });
});
