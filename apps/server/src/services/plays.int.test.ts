import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, songs } from '../db/schema.js';
import { createTestDatabase, type TestDatabase } from '../test/harness.js';
import { nightDateOf, recordPlays, timeWindowOf } from './plays.js';

describe('timeWindowOf', () => {
  it.each([
    ['2026-06-05T17:59:59Z', null], // 19:59:59 in Berlin (UTC+2)
    ['2026-06-05T18:00:00Z', '20-22'],
    ['2026-06-05T19:59:00Z', '20-22'],
    ['2026-06-05T20:00:00Z', '22-00'],
    ['2026-06-05T21:59:00Z', '22-00'],
    ['2026-06-05T22:00:00Z', '00-02'],
    ['2026-06-06T00:30:00Z', '02-04'],
    ['2026-06-06T02:00:00Z', '04-06'],
    ['2026-06-06T03:59:00Z', '04-06'],
    ['2026-06-06T04:00:00Z', null], // 06:00
  ])('%s in Europe/Berlin is %s', (instant, expected) => {
    expect(timeWindowOf(new Date(instant), 'Europe/Berlin')).toBe(expected);
  });

  it('uses the event time zone, not the server one', () => {
    const instant = new Date('2026-01-10T06:30:00Z'); // 22:30 the evening before in Los Angeles
    expect(timeWindowOf(instant, 'America/Los_Angeles')).toBe('22-00');
    expect(timeWindowOf(instant, 'UTC')).toBeNull();
  });
});

describe('nightDateOf', () => {
  it('counts the small hours to the previous evening', () => {
    expect(nightDateOf(new Date('2026-06-05T20:00:00Z'), 'Europe/Berlin')).toBe('2026-06-05');
    expect(nightDateOf(new Date('2026-06-05T23:30:00Z'), 'Europe/Berlin')).toBe('2026-06-05'); // 01:30 on the 6th
    expect(nightDateOf(new Date('2026-06-06T03:59:00Z'), 'Europe/Berlin')).toBe('2026-06-05'); // 05:59
    expect(nightDateOf(new Date('2026-06-06T04:00:00Z'), 'Europe/Berlin')).toBe('2026-06-06'); // 06:00
    expect(nightDateOf(new Date('2026-03-01T02:00:00Z'), 'UTC')).toBe('2026-02-28');
  });
});

describe('recordPlays', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('places plays in windows and in the social of their night, creating it with its hours', async () => {
    const [event] = await t.db
      .insert(events)
      .values({
        name: 'Summer Swing',
        startDate: '2026-06-05',
        endDate: '2026-06-07',
        timezone: 'Europe/Berlin',
      })
      .returning();
    const [song] = await t.db.insert(songs).values({ title: 'A', artist: 'B', searchKey: 'a b' }).returning();
    const base = { songId: song!.id, eventId: event!.id, source: 'manual' as const };
    const ids = await recordPlays(t.db, [
      { ...base, startedAt: new Date('2026-06-05T19:00:00Z'), endedAt: new Date('2026-06-05T19:04:00Z') }, // 21:00 Fri
      { ...base, startedAt: new Date('2026-06-05T23:30:00Z'), endedAt: new Date('2026-06-05T23:34:30Z') }, // 01:30 Sat
      { ...base, startedAt: new Date('2026-06-06T20:15:00Z') }, // 22:15 Sat
    ]);
    expect(ids).toHaveLength(3);
    const rows = await t.pool.query(
      `select p.time_window, s.social_date::text as date, s.name, s.start_time::text as start, s.end_time::text as "end"
         from plays p join socials s on s.id = p.social_id order by p.started_at`,
    );
    expect(rows.rows).toEqual([
      {
        time_window: '20-22',
        date: '2026-06-05',
        name: 'Friday Night Social',
        start: '21:00:00',
        end: '01:34:30',
      },
      {
        time_window: '00-02',
        date: '2026-06-05',
        name: 'Friday Night Social',
        start: '21:00:00',
        end: '01:34:30',
      },
      {
        time_window: '22-00',
        date: '2026-06-06',
        name: 'Saturday Night Social',
        start: '22:15:00',
        end: '22:15:00',
      },
    ]);
    // A later play of the same night widens the hours of its social.
    await recordPlays(t.db, [{ ...base, startedAt: new Date('2026-06-06T01:00:00Z') }]); // 03:00 Sat
    const friday = await t.pool.query(
      `select end_time::text as "end" from socials where social_date = '2026-06-05'`,
    );
    expect(friday.rows[0].end).toBe('03:00:00');
  });
});
