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

describe('GET /api/analytics/plays-by-time-window', () => {
  it('counts plays per window over all plays, every window listed in night order', async () => {
    const response = await get('/api/analytics/plays-by-time-window');
    expect(response.statusCode).toBe(200);
    // 14 of the 15 plays have a window; the one at 19:00 has none.
    expect(response.json()).toEqual({
      data: [
        { time_window: '20-22', play_count: 6 },
        { time_window: '22-00', play_count: 4 },
        { time_window: '00-02', play_count: 3 },
        { time_window: '02-04', play_count: 1 },
        { time_window: '04-06', play_count: 0 },
      ],
      total: 5,
    });
  });

  it('restricts to one event or one social', async () => {
    const summer = await get(`/api/analytics/plays-by-time-window?event_id=${d.events.summer}`);
    expect(summer.json().data.map((row: { play_count: number }) => row.play_count)).toEqual([3, 2, 2, 1, 0]);
    const friday = await get(`/api/analytics/plays-by-time-window?social_id=${d.socials.summerFriday}`);
    expect(friday.json().data.map((row: { play_count: number }) => row.play_count)).toEqual([1, 1, 1, 1, 0]);
  });

  it('answers 404 for an unknown event', async () => {
    const response = await get('/api/analytics/plays-by-time-window?event_id=777777');
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Event 777777 was not found');
  });
});
