import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events, plays, recordings, socials, songs } from '../db/schema.js';
import { createTestApp } from '../test/harness.js';
import { serverTimeZone, weekdayOf } from './events.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.deps.pool.query(
    'truncate events, socials, songs, plays, recordings, settings restart identity cascade',
  );
});

const post = (payload: object) => t.app.inject({ method: 'POST', url: '/api/events/', payload });
const put = (id: number | string, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/api/events/${id}`, payload });
const get = (url: string) => t.app.inject({ method: 'GET', url });

const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function createEvent(fields: Record<string, unknown> = {}) {
  const response = await post({
    event_name: 'Swing Night',
    start_date: '2025-03-07',
    end_date: '2025-03-07',
    ...fields,
  });
  expect(response.statusCode).toBe(201);
  return response.json();
}

describe('POST /api/events/', () => {
  it('creates a festival with every field and answers 201 with the event', async () => {
    const response = await post({
      event_name: '  Swingin\u2019 Into Spring  ',
      start_date: '2025-03-20',
      end_date: '2025-03-23',
      location: 'Atlanta, GA',
      is_festival: true,
      timezone: 'America/New_York',
      country_code: 'US',
    });
    expect(response.statusCode).toBe(201);
    const event = response.json();
    expect(event).toEqual({
      event_id: 1,
      event_name: 'Swingin\u2019 Into Spring',
      start_date: '2025-03-20',
      end_date: '2025-03-23',
      location: 'Atlanta, GA',
      is_festival: true,
      event_weight: 12,
      weight_override: null,
      timezone: 'America/New_York',
      country_code: 'US',
      created_at: expect.stringMatching(isoTimestamp),
    });
    const [row] = await t.deps.db.select().from(events);
    expect(row).toMatchObject({
      name: 'Swingin\u2019 Into Spring',
      isFestival: true,
      timezone: 'America/New_York',
    });
    expect(row!.createdAt.toISOString()).toBe(event.created_at);
  });

  it('defaults to a party in the server time zone, weighted by party_weight', async () => {
    const event = await createEvent();
    expect(event).toEqual({
      event_id: 1,
      event_name: 'Swing Night',
      start_date: '2025-03-07',
      end_date: '2025-03-07',
      location: null,
      is_festival: false,
      event_weight: 1,
      weight_override: null,
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      country_code: null,
      created_at: expect.stringMatching(isoTimestamp),
    });
    expect(serverTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('uses the weight override as the effective weight', async () => {
    const event = await createEvent({ is_festival: true, weight_override: 7.5 });
    expect(event).toMatchObject({ event_weight: 7.5, weight_override: 7.5, is_festival: true });
  });

  it('stores a blank location as none', async () => {
    const event = await createEvent({ location: '   ' });
    expect(event.location).toBeNull();
  });

  describe('refuses invalid bodies with 400 naming the field', () => {
    const valid = { event_name: 'A', start_date: '2025-01-01', end_date: '2025-01-02' };
    const cases: Array<[name: string, body: Record<string, unknown>, message: string | RegExp]> = [
      ['missing event_name', { start_date: '2025-01-01', end_date: '2025-01-02' }, /^body\.event_name: /],
      ['blank event_name', { ...valid, event_name: '   ' }, 'body.event_name: must not be empty'],
      [
        'end before start',
        { ...valid, end_date: '2024-12-31' },
        'body.end_date: end_date must not be before start_date',
      ],
      ['impossible date', { ...valid, start_date: '2025-02-30' }, /^body\.start_date: /],
      ['date with time', { ...valid, start_date: '2025-01-01T20:00:00Z' }, /^body\.start_date: /],
      ['missing end_date', { event_name: 'A', start_date: '2025-01-01' }, /^body\.end_date: /],
      [
        'unknown time zone',
        { ...valid, timezone: 'Mars/Olympus_Mons' },
        'body.timezone: must be an IANA time zone such as Europe/Berlin',
      ],
      ['weight override too low', { ...valid, weight_override: 0 }, /^body\.weight_override: /],
      ['weight override too high', { ...valid, weight_override: 101 }, /^body\.weight_override: /],
      [
        'lower-case country code',
        { ...valid, country_code: 'de' },
        'body.country_code: must be a two-letter ISO country code',
      ],
      ['is_festival as text', { ...valid, is_festival: 'yes' }, /^body\.is_festival: /],
      ['name too long', { ...valid, event_name: 'x'.repeat(201) }, /^body\.event_name: /],
    ];
    it.each(cases)('%s', async (_name, body, message) => {
      const response = await post(body);
      expect(response.statusCode).toBe(400);
      const actual = response.json().message;
      if (typeof message === 'string') expect(actual).toBe(message);
      else expect(actual).toMatch(message);
      expect(await t.deps.db.$count(events)).toBe(0);
    });
  });
});

describe('GET /api/events/', () => {
  it('lists newest start date first with the total, paged by skip and limit', async () => {
    await createEvent({ event_name: 'Old', start_date: '2023-05-01', end_date: '2023-05-03' });
    await createEvent({
      event_name: 'Newest',
      start_date: '2025-09-01',
      end_date: '2025-09-01',
      is_festival: true,
    });
    await createEvent({ event_name: 'Middle', start_date: '2024-07-10', end_date: '2024-07-12' });
    await createEvent({ event_name: 'Middle too', start_date: '2024-07-10', end_date: '2024-07-10' });

    const all = await get('/api/events/');
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.total).toBe(4);
    // Same start date: the later created first.
    expect(body.data.map((e: { event_name: string }) => e.event_name)).toEqual([
      'Newest',
      'Middle too',
      'Middle',
      'Old',
    ]);
    expect(body.data[0]).toMatchObject({ event_id: 2, is_festival: true, event_weight: 12 });

    const page = await get('/api/events/?skip=1&limit=2');
    expect(page.json()).toEqual({ data: [body.data[1], body.data[2]], total: 4 });

    const beyond = await get('/api/events/?skip=10&limit=5');
    expect(beyond.json()).toEqual({ data: [], total: 4 });
  });

  it('answers an empty list with total 0', async () => {
    expect((await get('/api/events/')).json()).toEqual({ data: [], total: 0 });
  });

  it.each([
    ['limit=0', /^querystring\.limit: /],
    ['limit=1001', /^querystring\.limit: /],
    ['skip=-1', /^querystring\.skip: /],
    ['skip=abc', /^querystring\.skip: /],
    ['limit=2.5', /^querystring\.limit: /],
  ])('refuses %s with 400', async (query, message) => {
    const response = await get(`/api/events/?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });
});

describe('GET /api/events/:id', () => {
  it('answers the event', async () => {
    const created = await createEvent({ location: 'Paris', country_code: 'FR', timezone: 'Europe/Paris' });
    const response = await get(`/api/events/${created.event_id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(created);
  });

  it('answers 404 for an unknown id', async () => {
    const response = await get('/api/events/999');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Event 999 was not found' });
  });

  it.each(['abc', '0', '-3', '1.5'])('answers 400 for the id %s', async (id) => {
    const response = await get(`/api/events/${id}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^params\.id: /);
  });

  it('follows the current settings for the effective weight', async () => {
    const festival = await createEvent({ is_festival: true });
    const party = await createEvent({ is_festival: false });
    const own = await createEvent({ is_festival: true, weight_override: 3 });
    const settings = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      payload: { festival_weight: 20, party_weight: 2 },
    });
    expect(settings.statusCode).toBe(200);
    expect((await get(`/api/events/${festival.event_id}`)).json()).toMatchObject({
      event_weight: 20,
      weight_override: null,
    });
    expect((await get(`/api/events/${party.event_id}`)).json()).toMatchObject({
      event_weight: 2,
      weight_override: null,
    });
    expect((await get(`/api/events/${own.event_id}`)).json()).toMatchObject({
      event_weight: 3,
      weight_override: 3,
    });
  });
});

describe('PUT /api/events/:id', () => {
  it('changes only the given fields', async () => {
    const created = await createEvent({ location: 'Berlin', country_code: 'DE', timezone: 'Europe/Berlin' });
    const response = await put(created.event_id, { location: 'Hamburg', is_festival: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...created, location: 'Hamburg', is_festival: true, event_weight: 12 });
    expect((await get(`/api/events/${created.event_id}`)).json()).toEqual(response.json());
  });

  it('sets and clears the weight override', async () => {
    const created = await createEvent();
    const set = await put(created.event_id, { weight_override: 42 });
    expect(set.json()).toMatchObject({ weight_override: 42, event_weight: 42 });
    const cleared = await put(created.event_id, {
      weight_override: null,
      location: null,
      country_code: null,
    });
    expect(cleared.json()).toMatchObject({
      weight_override: null,
      event_weight: 1,
      location: null,
      country_code: null,
    });
  });

  it('renames, moves the dates and the time zone', async () => {
    const created = await createEvent();
    const response = await put(created.event_id, {
      event_name: 'Renamed',
      start_date: '2026-01-01',
      end_date: '2026-01-04',
      timezone: 'Asia/Tokyo',
    });
    expect(response.json()).toEqual({
      ...created,
      event_name: 'Renamed',
      start_date: '2026-01-01',
      end_date: '2026-01-04',
      timezone: 'Asia/Tokyo',
    });
  });

  it('answers the event unchanged for an empty body', async () => {
    const created = await createEvent();
    const response = await put(created.event_id, {});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(created);
  });

  it('refuses an end date before the stored start date', async () => {
    const created = await createEvent({ start_date: '2025-03-07', end_date: '2025-03-09' });
    const response = await put(created.event_id, { end_date: '2025-03-06' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'end_date must not be before start_date (2025-03-06 is before 2025-03-07)',
    });
    expect((await get(`/api/events/${created.event_id}`)).json()).toEqual(created);
  });

  it('refuses a start date after the stored end date', async () => {
    const created = await createEvent({ start_date: '2025-03-07', end_date: '2025-03-09' });
    const response = await put(created.event_id, { start_date: '2025-03-10' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'end_date must not be before start_date (2025-03-09 is before 2025-03-10)',
    });
  });

  it('accepts moving both dates past the old ones', async () => {
    const created = await createEvent({ start_date: '2025-03-07', end_date: '2025-03-09' });
    const response = await put(created.event_id, { start_date: '2025-04-01', end_date: '2025-04-02' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ start_date: '2025-04-01', end_date: '2025-04-02' });
  });

  it('refuses end before start within the body itself', async () => {
    const created = await createEvent();
    const response = await put(created.event_id, { start_date: '2025-05-02', end_date: '2025-05-01' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('body.end_date: end_date must not be before start_date');
  });

  it.each([
    [{ event_name: '' }, 'body.event_name: must not be empty'],
    [{ timezone: 'Nowhere' }, 'body.timezone: must be an IANA time zone such as Europe/Berlin'],
    [{ weight_override: 500 }, /^body\.weight_override: /],
    [{ start_date: 'tomorrow' }, /^body\.start_date: /],
  ])('refuses %j with 400', async (body, message) => {
    const created = await createEvent();
    const response = await put(created.event_id, body);
    expect(response.statusCode).toBe(400);
    if (typeof message === 'string') expect(response.json().message).toBe(message);
    else expect(response.json().message).toMatch(message);
  });

  it('answers 404 for an unknown id', async () => {
    const response = await put(77, { event_name: 'Ghost' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Event 77 was not found' });
  });
});

async function seedNight() {
  const event = await createEvent({
    event_name: 'Boogie by the Bay',
    start_date: '2025-11-06',
    end_date: '2025-11-09',
  });
  const db = t.deps.db;
  const [saturday, friday, sunday] = await db
    .insert(socials)
    .values([
      {
        eventId: event.event_id,
        name: 'Saturday Night Social',
        socialDate: '2025-11-08',
        startTime: '21:30:00',
        endTime: '04:15:00',
      },
      {
        eventId: event.event_id,
        name: 'Friday Night Social',
        socialDate: '2025-11-07',
        startTime: '20:00:00',
        endTime: '03:00:00',
      },
      {
        eventId: event.event_id,
        name: 'Sunday Night Social',
        socialDate: '2025-11-09',
        startTime: null,
        endTime: null,
      },
    ])
    .returning();
  const [halo, valerie] = await db
    .insert(songs)
    .values([
      { title: 'Halo', artist: 'Beyoncé', searchKey: 'halo beyonce' },
      { title: 'Valerie', artist: 'Amy Winehouse', searchKey: 'valerie amy winehouse' },
    ])
    .returning();
  const [recording] = await db
    .insert(recordings)
    .values({
      sessionId: 's1',
      filename: 'night.webm',
      source: 'device',
      eventId: event.event_id,
      recordedAt: new Date(),
    })
    .returning();
  const at = (iso: string) => new Date(iso);
  await db.insert(plays).values([
    {
      songId: halo!.id,
      eventId: event.event_id,
      socialId: friday!.id,
      startedAt: at('2025-11-08T02:00:00Z'),
      source: 'manual',
    },
    {
      songId: valerie!.id,
      eventId: event.event_id,
      socialId: friday!.id,
      startedAt: at('2025-11-08T02:04:00Z'),
      source: 'manual',
    },
    {
      songId: halo!.id,
      eventId: event.event_id,
      socialId: saturday!.id,
      startedAt: at('2025-11-09T03:00:00Z'),
      source: 'manual',
    },
    {
      songId: valerie!.id,
      eventId: event.event_id,
      socialId: null,
      startedAt: at('2025-11-09T04:00:00Z'),
      source: 'manual',
    },
  ]);
  return {
    event,
    friday: friday!,
    saturday: saturday!,
    sunday: sunday!,
    halo: halo!,
    valerie: valerie!,
    recording: recording!,
  };
}

describe('GET /api/events/:id/socials', () => {
  it('lists the nights in date order with weekday, HH:MM times and play counts', async () => {
    const { event, friday, saturday, sunday } = await seedNight();
    const response = await get(`/api/events/${event.event_id}/socials`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: [
        {
          social_id: friday.id,
          event_id: event.event_id,
          social_name: 'Friday Night Social',
          social_date: '2025-11-07',
          day_of_week: 'Friday',
          start_time: '20:00',
          end_time: '03:00',
          play_count: 2,
        },
        {
          social_id: saturday.id,
          event_id: event.event_id,
          social_name: 'Saturday Night Social',
          social_date: '2025-11-08',
          day_of_week: 'Saturday',
          start_time: '21:30',
          end_time: '04:15',
          play_count: 1,
        },
        {
          social_id: sunday.id,
          event_id: event.event_id,
          social_name: 'Sunday Night Social',
          social_date: '2025-11-09',
          day_of_week: 'Sunday',
          start_time: null,
          end_time: null,
          play_count: 0,
        },
      ],
      total: 3,
    });
  });

  it('answers an empty list for an event without socials', async () => {
    const event = await createEvent();
    expect((await get(`/api/events/${event.event_id}/socials`)).json()).toEqual({ data: [], total: 0 });
  });

  it('answers 404 for an unknown event', async () => {
    const response = await get('/api/events/31/socials');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Event 31 was not found' });
  });

  it('names weekdays from the date alone', () => {
    expect(weekdayOf('2025-11-07')).toBe('Friday');
    expect(weekdayOf('2024-02-29')).toBe('Thursday');
    expect(weekdayOf('2000-01-02')).toBe('Sunday');
  });
});

describe('DELETE /api/events/:id', () => {
  it('deletes the event with its socials and plays; songs stay, recordings lose the link', async () => {
    const { event, halo, valerie, recording } = await seedNight();
    const other = await createEvent({ event_name: 'Other' });
    await t.deps.db.insert(plays).values({
      songId: halo.id,
      eventId: other.event_id,
      startedAt: new Date('2025-03-07T21:00:00Z'),
      source: 'manual',
    });

    const response = await t.app.inject({ method: 'DELETE', url: `/api/events/${event.event_id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: `Event ${event.event_id} was deleted` });

    expect((await get(`/api/events/${event.event_id}`)).statusCode).toBe(404);
    expect(await t.deps.db.$count(socials)).toBe(0);
    const remainingPlays = await t.deps.db.select().from(plays);
    expect(remainingPlays.map((p) => [p.songId, p.eventId])).toEqual([[halo.id, other.event_id]]);
    expect((await t.deps.db.select({ id: songs.id }).from(songs)).map((s) => s.id).sort()).toEqual(
      [halo.id, valerie.id].sort(),
    );
    const [keptRecording] = await t.deps.db.select().from(recordings);
    expect(keptRecording).toMatchObject({ id: recording.id, eventId: null });
    expect((await get('/api/events/')).json()).toMatchObject({ total: 1, data: [{ event_name: 'Other' }] });
  });

  it('answers 404 for an unknown or already deleted event', async () => {
    const event = await createEvent();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/events/${event.event_id}` })).statusCode).toBe(
      200,
    );
    const again = await t.app.inject({ method: 'DELETE', url: `/api/events/${event.event_id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: `Event ${event.event_id} was not found` });
  });

  it('answers 400 for an invalid id', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/api/events/x' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^params\.id: /);
  });
});
