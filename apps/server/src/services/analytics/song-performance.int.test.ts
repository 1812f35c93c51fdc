import { SONG_TIMELINE_LIMIT } from '@wcs/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plays, songs } from '../../db/schema.js';
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

describe('GET /api/analytics/song-performance/:id', () => {
  it('gives plays, events, the monthly trend and the timeline newest first', async () => {
    const response = await get(`/api/analytics/song-performance/${d.songs.echo}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      song_id: d.songs.echo,
      title: 'Echo',
      artist: 'Artist Four',
      age_category: 'old', // released 2019-01-01
      overplay_score: 10,
      spotify_popularity: 90,
      total_plays: 3,
      total_events: 2,
      // 00:30 on 15 March belongs to the night of the 14th: March.
      monthly_trend: [
        { month: '2026-03', plays: 1 },
        { month: '2026-04', plays: 0 },
        { month: '2026-05', plays: 0 },
        { month: '2026-06', plays: 0 },
        { month: '2026-07', plays: 2 },
      ],
      timeline: [
        {
          event_name: 'Summer Festival',
          event_date: '2026-07-10',
          played_at: '2026-07-11T21:00:00.000Z',
          time_window: '20-22',
          is_festival: true,
        },
        {
          event_name: 'Summer Festival',
          event_date: '2026-07-10',
          played_at: '2026-07-11T01:00:00.000Z',
          time_window: '00-02',
          is_festival: true,
        },
        {
          event_name: 'Spring Party',
          event_date: '2026-03-14',
          played_at: '2026-03-15T00:30:00.000Z',
          time_window: '00-02',
          is_festival: false,
        },
      ],
    });
  });

  it('keeps a play outside the windows in the timeline with no window', async () => {
    const response = await get(`/api/analytics/song-performance/${d.songs.charlie}`);
    const timeline = response.json().timeline as Array<{ played_at: string; time_window: string | null }>;
    expect(timeline.map((play) => [play.played_at, play.time_window])).toEqual([
      ['2026-07-11T23:10:00.000Z', '22-00'],
      ['2026-07-11T19:00:00.000Z', null],
      ['2026-07-10T22:30:00.000Z', '22-00'],
      ['2026-03-14T21:30:00.000Z', '20-22'],
    ]);
  });

  it('gives zeros and empty lists for a song never played', async () => {
    const response = await get(`/api/analytics/song-performance/${d.songs.foxtrot}`);
    expect(response.json()).toMatchObject({
      total_plays: 0,
      total_events: 0,
      monthly_trend: [],
      timeline: [],
    });
  });

  it('carries the newest SONG_TIMELINE_LIMIT plays and counts them all', async () => {
    const [song] = await t.deps.db
      .insert(songs)
      .values({ title: 'Anthem', artist: 'Everywhere', searchKey: 'anthem everywhere' })
      .returning();
    const count = SONG_TIMELINE_LIMIT + 5;
    const at = (i: number) => new Date(Date.UTC(2026, 6, 10, 20) + i * 60_000);
    await t.deps.db.insert(plays).values(
      Array.from({ length: count }, (_, i) => ({
        songId: song!.id,
        eventId: d.events.summer,
        startedAt: at(i),
        source: 'manual',
      })),
    );
    const body = (await get(`/api/analytics/song-performance/${song!.id}`)).json();
    expect(body.total_plays).toBe(count);
    expect(body.total_events).toBe(1);
    expect(body.timeline).toHaveLength(SONG_TIMELINE_LIMIT);
    expect(body.timeline[0].played_at).toBe(at(count - 1).toISOString());
    expect(body.timeline.at(-1).played_at).toBe(at(5).toISOString());
  });

  it('answers 404 for an unknown song', async () => {
    const response = await get('/api/analytics/song-performance/7070');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Song 7070 was not found' });
  });
});
