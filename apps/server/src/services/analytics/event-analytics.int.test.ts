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

describe('GET /api/analytics/events/:id', () => {
  it('gives the event with its plays, songs, nights, genres, windows and top songs', async () => {
    const response = await get(`/api/analytics/events/${d.events.spring}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.event).toMatchObject({
      event_id: d.events.spring,
      event_name: 'Spring Party',
      start_date: '2026-03-14',
      is_festival: false,
      event_weight: 1, // party_weight of the default settings
    });
    expect(body.total_plays).toBe(6);
    expect(body.unique_songs).toBe(5);
    expect(body.socials).toEqual([
      {
        social_id: d.socials.springSaturday,
        event_id: d.events.spring,
        social_name: 'Saturday Night Social',
        social_date: '2026-03-14',
        day_of_week: 'Saturday',
        start_time: '20:10',
        end_time: '00:30',
        play_count: 6,
      },
    ]);
    expect(body.genre_distribution).toEqual([
      { genre: 'Pop', play_count: 3 },
      { genre: 'Blues/Jazz', play_count: 1 },
      { genre: 'Contemporary', play_count: 1 },
      { genre: 'Unknown', play_count: 1 },
    ]);
    expect(body.time_windows).toEqual([
      {
        time_window: '20-22',
        play_count: 3,
        avg_bpm: 90,
        avg_energy: 500,
        avg_valence: 433.3,
        avg_danceability: 600,
        top_genre: 'Pop',
      },
      // Alpha (Pop) and Delta (Contemporary) once each: the tie goes to Pop, first in the genre list.
      {
        time_window: '22-00',
        play_count: 2,
        avg_bpm: 105.3,
        avg_energy: 599.5,
        avg_valence: 600,
        avg_danceability: 700,
        top_genre: 'Pop',
      },
      {
        time_window: '00-02',
        play_count: 1,
        avg_bpm: null,
        avg_energy: null,
        avg_valence: null,
        avg_danceability: null,
        top_genre: null,
      },
    ]);
    expect(
      body.top_songs.map((row: { title: string; play_count: number }) => [row.title, row.play_count]),
    ).toEqual([
      ['Alpha', 2],
      ['Bravo', 1],
      ['Charlie', 1],
      ['Delta', 1],
      ['Echo', 1],
    ]);
  });

  it('answers 404 for an unknown event and 400 for a malformed id', async () => {
    const missing = await get('/api/analytics/events/8888');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Event 8888 was not found' });
    expect((await get('/api/analytics/events/spring')).statusCode).toBe(400);
  });
});
