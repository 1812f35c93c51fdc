import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadQueue, events, plays, songs } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import { getOverviewStats } from './overview.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const overview = () => t.app.inject({ method: 'GET', url: '/api/analytics/overview' });

describe('GET /api/analytics/overview', () => {
  it('answers zeros on an empty library', async () => {
    const response = await overview();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      total_songs: 0,
      total_events: 0,
      total_plays: 0,
      pending_downloads: 0,
    });
  });

  it('counts songs, events, plays and only the pending downloads', async () => {
    const db = t.deps.db;
    const songRows = await db
      .insert(songs)
      .values(['a', 'b', 'c', 'd', 'e'].map((title) => ({ title, artist: 'X', searchKey: `${title} x` })))
      .returning();
    const eventRows = await db
      .insert(events)
      .values([
        { name: 'One', startDate: '2025-01-01', endDate: '2025-01-01', timezone: 'UTC' },
        { name: 'Two', startDate: '2025-02-01', endDate: '2025-02-03', timezone: 'UTC', isFestival: true },
      ])
      .returning();
    const [s1, s2, s3, s4, s5] = songRows.map((row) => row.id) as [number, number, number, number, number];
    const [e1, e2] = eventRows.map((row) => row.id) as [number, number];
    await db.insert(plays).values([
      { songId: s1, eventId: e1, startedAt: new Date('2025-01-01T20:00:00Z'), source: 'manual' },
      { songId: s1, eventId: e2, startedAt: new Date('2025-02-01T20:00:00Z'), source: 'manual' },
      { songId: s2, eventId: e2, startedAt: new Date('2025-02-01T20:05:00Z'), source: 'manual' },
    ]);
    await db.insert(downloadQueue).values([
      { songId: s2, status: 'pending', priorityScore: 10 },
      { songId: s3, status: 'pending', priorityScore: 5 },
      { songId: s4, status: 'failed', priorityScore: 4 },
      { songId: s5, status: 'completed', priorityScore: 3 },
    ]);

    const expected = { total_songs: 5, total_events: 2, total_plays: 3, pending_downloads: 2 };
    expect((await overview()).json()).toEqual(expected);
    expect(await getOverviewStats(db)).toEqual(expected);

    // Deleting an event takes its plays with it.
    await t.app.inject({ method: 'DELETE', url: `/api/events/${e2}` });
    expect((await overview()).json()).toEqual({ ...expected, total_events: 1, total_plays: 1 });
  });
});
