import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../db/schema.js';
import { type AnalyticsDataset, seedAnalyticsDataset } from '../../test/analytics-dataset.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { recordPlays } from '../plays.js';

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

describe('GET /api/analytics/overplay-trend/:id', () => {
  it('gives monthly plays from the first to the last month, empty months at 0', async () => {
    const response = await get(`/api/analytics/overplay-trend/${d.songs.alpha}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      song_id: d.songs.alpha,
      title: 'Alpha',
      artist: 'Artist One',
      current_overplay_score: 90,
      total_plays: 4,
      // Twice at Spring Party in March, twice at Summer Festival in July.
      trend: [
        { month: '2026-03', plays: 2 },
        { month: '2026-04', plays: 0 },
        { month: '2026-05', plays: 0 },
        { month: '2026-06', plays: 0 },
        { month: '2026-07', plays: 2 },
      ],
    });
  });

  it("counts a play after midnight to its night's month, in the event's time zone", async () => {
    const [berlin] = await t.deps.db
      .insert(events)
      .values({
        name: 'Berlin Nights',
        startDate: '2026-05-31',
        endDate: '2026-07-02',
        timezone: 'Europe/Berlin',
      })
      .returning({ id: events.id });
    await recordPlays(t.deps.db, [
      // 00:30 on 1 June in Berlin: the night of 31 May.
      {
        songId: d.songs.foxtrot,
        eventId: berlin!.id,
        startedAt: new Date('2026-05-31T22:30:00Z'),
        source: 'manual',
      },
      // 21:00 on 2 July in Berlin.
      {
        songId: d.songs.foxtrot,
        eventId: berlin!.id,
        startedAt: new Date('2026-07-02T19:00:00Z'),
        source: 'manual',
      },
    ]);
    const response = await get(`/api/analytics/overplay-trend/${d.songs.foxtrot}`);
    expect(response.json()).toMatchObject({
      total_plays: 2,
      trend: [
        { month: '2026-05', plays: 1 },
        { month: '2026-06', plays: 0 },
        { month: '2026-07', plays: 1 },
      ],
    });
  });

  it('answers 404 for an unknown song', async () => {
    const response = await get('/api/analytics/overplay-trend/6060');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Song 6060 was not found' });
  });
});
