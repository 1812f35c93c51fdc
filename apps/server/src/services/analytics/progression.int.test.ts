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

const PATHS = [
  '/api/analytics/bpm-progression',
  '/api/analytics/energy-progression',
  '/api/analytics/valence-progression',
  '/api/analytics/danceability-progression',
];

describe.each(PATHS)('GET %s', (path) => {
  it('averages over all plays per window, each play counted, missing values left out', async () => {
    const response = await get(path);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: [
        // Alpha, Bravo, Charlie, Alpha, Delta, Echo. BPM (100+90+80+100+110.5)/5 = 96.1 (Echo has none);
        // energy (800+500+200+800+399)/5 = 539.8; valence (600+400+300+600)/4 = 475;
        // danceability (700+600+500+700)/4 = 625 (Delta and Echo have neither).
        {
          time_window: '20-22',
          play_count: 6,
          avg_bpm: 96.1,
          avg_energy: 539.8,
          avg_valence: 475,
          avg_danceability: 625,
        },
        // Alpha, Delta, Charlie, Charlie. BPM 370.5/4 = 92.625; energy 1599/4 = 399.75;
        // valence 1200/3 = 400; danceability 1700/3 = 566.67.
        {
          time_window: '22-00',
          play_count: 4,
          avg_bpm: 92.6,
          avg_energy: 399.8,
          avg_valence: 400,
          avg_danceability: 566.7,
        },
        // Echo, Echo, Bravo: only Bravo has values.
        {
          time_window: '00-02',
          play_count: 3,
          avg_bpm: 90,
          avg_energy: 500,
          avg_valence: 400,
          avg_danceability: 600,
        },
        {
          time_window: '02-04',
          play_count: 1,
          avg_bpm: 100,
          avg_energy: 800,
          avg_valence: 600,
          avg_danceability: 700,
        },
        // 04-06 has no plays: absent. The 19:00 play has no window: not counted.
      ],
      total: 4,
    });
  });

  it('restricts to one event; a window whose songs have no values gives nulls', async () => {
    const response = await get(`${path}?event_id=${d.events.spring}`);
    expect(response.json().data).toEqual([
      // Alpha, Bravo, Charlie: valence 1300/3 = 433.33.
      {
        time_window: '20-22',
        play_count: 3,
        avg_bpm: 90,
        avg_energy: 500,
        avg_valence: 433.3,
        avg_danceability: 600,
      },
      // Alpha, Delta: BPM 210.5/2 = 105.25, energy 1199/2 = 599.5.
      {
        time_window: '22-00',
        play_count: 2,
        avg_bpm: 105.3,
        avg_energy: 599.5,
        avg_valence: 600,
        avg_danceability: 700,
      },
      // Echo only.
      {
        time_window: '00-02',
        play_count: 1,
        avg_bpm: null,
        avg_energy: null,
        avg_valence: null,
        avg_danceability: null,
      },
    ]);
  });

  it('restricts to one social', async () => {
    const response = await get(`${path}?social_id=${d.socials.summerSaturday}`);
    expect(response.json().data).toEqual([
      // Delta, Echo.
      {
        time_window: '20-22',
        play_count: 2,
        avg_bpm: 110.5,
        avg_energy: 399,
        avg_valence: null,
        avg_danceability: null,
      },
      {
        time_window: '22-00',
        play_count: 1,
        avg_bpm: 80,
        avg_energy: 200,
        avg_valence: 300,
        avg_danceability: 500,
      },
      {
        time_window: '00-02',
        play_count: 1,
        avg_bpm: 90,
        avg_energy: 500,
        avg_valence: 400,
        avg_danceability: 600,
      },
    ]);
  });

  it('answers 404 for an unknown event or social', async () => {
    expect((await get(`${path}?event_id=424242`)).statusCode).toBe(404);
    const response = await get(`${path}?social_id=424242`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Social 424242 was not found' });
  });
});

it('gives an empty list for an event without plays', async () => {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/events/',
    payload: { event_name: 'Empty Night', start_date: '2026-10-01', end_date: '2026-10-01' },
  });
  const response = await get(`/api/analytics/bpm-progression?event_id=${created.json().event_id}`);
  expect(response.json()).toEqual({ data: [], total: 0 });
});
