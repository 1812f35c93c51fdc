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

describe('GET /api/analytics/compare', () => {
  it('compares events: window maps of each average and plays per genre, in the order asked', async () => {
    const response = await get(
      `/api/analytics/compare?ids=${d.events.summer},${d.events.spring}&comparison_type=event`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      comparison_type: 'event',
      entities: [
        {
          id: d.events.summer,
          name: 'Summer Festival',
          // 20-22: Alpha, Delta, Echo; 22-00: Charlie twice; 00-02: Echo, Bravo; 02-04: Alpha.
          bpm_progression: { '20-22': 105.3, '22-00': 80, '00-02': 90, '02-04': 100 },
          energy_progression: { '20-22': 599.5, '22-00': 200, '00-02': 500, '02-04': 800 },
          valence_progression: { '20-22': 600, '22-00': 300, '00-02': 400, '02-04': 600 },
          danceability_progression: { '20-22': 700, '22-00': 500, '00-02': 600, '02-04': 700 },
          // Charlie 3 (one at 19:00, outside any window, still a play); Alpha 2 + Bravo 1; Echo 2; Delta 1.
          genre_distribution: { 'Blues/Jazz': 3, Pop: 3, Unknown: 2, Contemporary: 1 },
        },
        {
          id: d.events.spring,
          name: 'Spring Party',
          bpm_progression: { '20-22': 90, '22-00': 105.3, '00-02': null },
          energy_progression: { '20-22': 500, '22-00': 599.5, '00-02': null },
          valence_progression: { '20-22': 433.3, '22-00': 600, '00-02': null },
          danceability_progression: { '20-22': 600, '22-00': 700, '00-02': null },
          genre_distribution: { Pop: 3, 'Blues/Jazz': 1, Contemporary: 1, Unknown: 1 },
        },
      ],
    });
    const [summer] = response.json().entities;
    expect(Object.keys(summer.bpm_progression)).toEqual(['20-22', '22-00', '00-02', '02-04']);
  });

  it('compares socials, ids repeated in the query', async () => {
    const response = await get(
      `/api/analytics/compare?ids=${d.socials.summerFriday}&ids=${d.socials.summerSaturday}&comparison_type=social`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      comparison_type: 'social',
      entities: [
        {
          id: d.socials.summerFriday,
          name: 'Friday Night Social (2026-07-10)',
          bpm_progression: { '20-22': 100, '22-00': 80, '00-02': null, '02-04': 100 },
          energy_progression: { '20-22': 800, '22-00': 200, '00-02': null, '02-04': 800 },
          valence_progression: { '20-22': 600, '22-00': 300, '00-02': null, '02-04': 600 },
          danceability_progression: { '20-22': 700, '22-00': 500, '00-02': null, '02-04': 700 },
          genre_distribution: { Pop: 2, 'Blues/Jazz': 1, Unknown: 1 },
        },
        {
          id: d.socials.summerSaturday,
          name: 'Saturday Night Social (2026-07-11)',
          bpm_progression: { '20-22': 110.5, '22-00': 80, '00-02': 90 },
          energy_progression: { '20-22': 399, '22-00': 200, '00-02': 500 },
          valence_progression: { '20-22': null, '22-00': 300, '00-02': 400 },
          danceability_progression: { '20-22': null, '22-00': 500, '00-02': 600 },
          genre_distribution: { 'Blues/Jazz': 2, Contemporary: 1, Pop: 1, Unknown: 1 },
        },
      ],
    });
  });

  it('defaults to events and counts each id once', async () => {
    const response = await get(
      `/api/analytics/compare?ids=${d.events.spring},${d.events.summer},${d.events.spring}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().entities.map((entity: { id: number }) => entity.id)).toEqual([
      d.events.spring,
      d.events.summer,
    ]);
  });

  it.each([
    ['one id', 'ids=1', /at least 2/],
    ['one id twice', 'ids=1,1', /at least 2/],
    ['six ids', 'ids=1,2,3,4,5,6', /at most 5/],
    ['non-numeric ids', 'ids=a,b', /positive whole numbers/],
    ['a zero id', 'ids=0,1', /positive whole numbers/],
    ['no ids', 'comparison_type=event', /ids/],
    ['another comparison type', 'ids=1,2&comparison_type=venue', /comparison_type/],
  ])('answers 400 for %s', async (_name, query, message) => {
    const response = await get(`/api/analytics/compare?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });

  it('answers 404 naming the first unknown event or social', async () => {
    const events = await get(`/api/analytics/compare?ids=${d.events.spring},4040&comparison_type=event`);
    expect(events.statusCode).toBe(404);
    expect(events.json()).toEqual({ message: 'Event 4040 was not found' });
    const socials = await get(
      `/api/analytics/compare?ids=${d.socials.summerFriday},5050&comparison_type=social`,
    );
    expect(socials.statusCode).toBe(404);
    expect(socials.json()).toEqual({ message: 'Social 5050 was not found' });
  });
});
