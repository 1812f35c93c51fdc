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

describe.each(['/api/analytics/genre-distribution', '/api/analytics/plays-by-genre'])('GET %s', (path) => {
  it('counts plays per genre over all plays, songs without a genre as Unknown, highest first', async () => {
    // Alpha 4 + Bravo 2 = Pop 6; Charlie 4 Blues/Jazz; Echo 3 without genre; Delta 2 Contemporary.
    // Foxtrot (Acoustic) is never played, so Acoustic is absent.
    const response = await get(path);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: [
        { genre: 'Pop', play_count: 6 },
        { genre: 'Blues/Jazz', play_count: 4 },
        { genre: 'Unknown', play_count: 3 },
        { genre: 'Contemporary', play_count: 2 },
      ],
      total: 4,
    });
  });

  it('restricts to one event, ties in genre-name order', async () => {
    // Spring Party: Alpha, Bravo, Charlie, Alpha, Delta, Echo.
    const response = await get(`${path}?event_id=${d.events.spring}`);
    expect(response.json().data).toEqual([
      { genre: 'Pop', play_count: 3 },
      { genre: 'Blues/Jazz', play_count: 1 },
      { genre: 'Contemporary', play_count: 1 },
      { genre: 'Unknown', play_count: 1 },
    ]);
  });

  it('restricts to one social, with or without its event', async () => {
    // Summer Saturday: Delta, Echo, Charlie, Bravo, Charlie (the 19:00 play counts: no window needed).
    const expected = [
      { genre: 'Blues/Jazz', play_count: 2 },
      { genre: 'Contemporary', play_count: 1 },
      { genre: 'Pop', play_count: 1 },
      { genre: 'Unknown', play_count: 1 },
    ];
    expect((await get(`${path}?social_id=${d.socials.summerSaturday}`)).json().data).toEqual(expected);
    const both = await get(`${path}?event_id=${d.events.summer}&social_id=${d.socials.summerSaturday}`);
    expect(both.json().data).toEqual(expected);
  });

  it('answers 404 for an unknown event or social and 400 for a social of another event', async () => {
    const unknownEvent = await get(`${path}?event_id=99999`);
    expect(unknownEvent.statusCode).toBe(404);
    expect(unknownEvent.json().message).toBe('Event 99999 was not found');
    const unknownSocial = await get(`${path}?social_id=99999`);
    expect(unknownSocial.statusCode).toBe(404);
    expect(unknownSocial.json().message).toBe('Social 99999 was not found');
    const mismatch = await get(`${path}?event_id=${d.events.spring}&social_id=${d.socials.summerFriday}`);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toContain(`belongs to event ${d.events.summer}`);
  });

  it('answers 400 for ids that are not positive whole numbers', async () => {
    for (const query of ['event_id=abc', 'event_id=0', 'social_id=-2', 'event_id=1.5']) {
      const response = await get(`${path}?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toMatch(/^querystring\.(event|social)_id: /);
    }
  });
});
