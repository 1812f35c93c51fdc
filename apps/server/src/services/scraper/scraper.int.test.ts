import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { events, plays, scrapedEvents, scrapeRuns, songs } from '../../db/schema.js';
import { scheduleScrapeEvents } from '../../jobs/scrape-events.js';
import { createTestApp } from '../../test/harness.js';
import { sourceKeyOf } from './scrape.js';

const fixture = readFileSync(
  path.join(import.meta.dirname, '../../providers/fixtures/wsdc-calendar.html'),
  'utf8',
);
/** The calendar a week later: Mooseland moved by a day, Westie Harbor got its dates. */
const fixtureLater = fixture
  .replace('Sep 24 - 28, 2026', 'Sep 25 - 28, 2026')
  .replace('TBA 2027', 'Aug 5 - 8, 2027');

let server: http.Server;
let base: string;
let t: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const pages: Record<string, string> = {
      '/events/': fixture,
      '/events-later/': fixtureLater,
      '/moved/': '<html><body><div class="events-grid">New layout</div></body></html>',
    };
    const page = pages[request.url ?? ''];
    if (page !== undefined) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(page);
    } else if (request.url === '/broken/') {
      response.writeHead(500, 'Internal Server Error');
      response.end('database down');
    } else if (request.url === '/slow/') {
      // Never in time: the answer would come after the test (the connections are closed first).
      setTimeout(() => response.end(fixture), 120_000).unref();
    } else {
      response.writeHead(404, 'Not Found');
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await createTestApp({
    // This file scrapes more often in a minute than the rate limit of expensive calls allows a client.
    // A timeout far above a local answer (a loaded machine may take seconds for node's first
    // fetch); the timeout's own tests use an app with 1 s.
    env: {
      WCS_SCRAPER_URL: `${base}/events/`,
      WCS_SCRAPER_TIMEOUT_SECONDS: '60',
      WCS_RATE_LIMIT_PER_MINUTE: '1000',
    },
  });
});
afterAll(async () => {
  await t?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  await t.deps.pool.query(
    'truncate scraped_events, scrape_runs, events, songs, plays, settings restart identity cascade',
  );
});

const get = (url: string) => t.app.inject({ method: 'GET', url });
const post = (url: string, payload?: object) => t.app.inject({ method: 'POST', url, payload });

async function scrape(url?: string) {
  const response = await post('/api/scraper/scrape-events', url ? { url } : {});
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function list(query = '') {
  const response = await get(`/api/scraper/events${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { events: Array<Record<string, unknown>>; total: number };
}

async function idOf(name: string, startDate?: string) {
  const rows = await t.deps.db.select().from(scrapedEvents).where(eq(scrapedEvents.name, name));
  const row = startDate ? rows.find((r) => r.startDate === startDate) : rows[0];
  if (!row) throw new Error(`no scraped event ${name}`);
  return row.id;
}

async function createProductEvent(
  values: Partial<typeof events.$inferInsert> & { name: string; startDate: string },
) {
  const [row] = await t.deps.db
    .insert(events)
    .values({ endDate: values.startDate, timezone: 'UTC', ...values })
    .returning();
  return row!;
}

const review = (payload: object) => post('/api/scraper/events/review', payload);
const create = (payload: object) => post('/api/scraper/events/create', payload);

describe('POST /api/scraper/scrape-events', () => {
  it('stores every distinct calendar row once and logs the run', async () => {
    const result = await scrape();
    expect(result).toEqual({
      source_url: `${base}/events/`,
      scraped_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      rows_found: 32,
      inserted: 30,
      updated: 0,
      duplicate_rows: 2,
      unparsed_dates: 1,
      unknown_countries: 2,
    });
    expect(await t.deps.db.$count(scrapedEvents)).toBe(30);
    const runs = await t.deps.db.select().from(scrapeRuns);
    expect(runs).toEqual([
      expect.objectContaining({
        sourceUrl: `${base}/events/`,
        rowsFound: 32,
        inserted: 30,
        updated: 0,
        unparsedDates: 1,
        error: null,
      }),
    ]);
    expect(runs[0]!.finishedAt!.toISOString()).toBe(result.scraped_at);
    // A repeated row is stored as its first listing: Waterloo is listed with CAN, then USA.
    const [waterloo] = await t.deps.db
      .select()
      .from(scrapedEvents)
      .where(eq(scrapedEvents.name, 'Waterloo Ontario Open West Coast Swing Championships'));
    expect(waterloo).toMatchObject({
      countryCode: 'CA',
      continent: 'North America',
      startDate: '2027-02-04',
    });
  });

  it('stores the raw date text beside the parsed dates, and a row without a link by its name', async () => {
    await scrape();
    const [harbor] = await t.deps.db
      .select()
      .from(scrapedEvents)
      .where(eq(scrapedEvents.name, 'Westie Harbor'));
    expect(harbor).toMatchObject({
      sourceKey: 'link:westieharbor.com#2027',
      dateText: 'TBA 2027',
      startDate: null,
      endDate: null,
      countryCode: 'SE',
      isReviewed: false,
    });
    const [mexico] = await t.deps.db
      .select()
      .from(scrapedEvents)
      .where(eq(scrapedEvents.name, 'Swing Camp México'));
    expect(mexico).toMatchObject({ sourceKey: 'name:swing camp mexico|mar 12 - 14, 2027', url: null });
    // Two editions under one link stay two events.
    const atlanta = await t.deps.db
      .select()
      .from(scrapedEvents)
      .where(eq(scrapedEvents.name, 'Atlanta Swing Classic'));
    expect(atlanta.map((row) => row.sourceKey).sort()).toEqual([
      'link:atlantaswingclassic.com#2026',
      'link:atlantaswingclassic.com#2027',
    ]);
  });

  it('updates on a second scrape instead of duplicating, keeping reviews', async () => {
    await scrape();
    const budafest = await idOf('Budafest');
    expect(
      (await review({ scraped_event_id: budafest, action: 'rejected', notes: 'not WCS' })).statusCode,
    ).toBe(200);
    const mooseland = await idOf('Mooseland Swing 2026');
    await createProductEvent({ name: 'Mooseland', startDate: '2026-09-24', countryCode: 'SE' });
    await post(`/api/scraper/events/${mooseland}/detect-duplicates`);

    const second = await scrape(`${base}/events-later/`);
    expect(second).toMatchObject({
      rows_found: 32,
      inserted: 0,
      updated: 30,
      duplicate_rows: 2,
      unparsed_dates: 0,
    });
    expect(await t.deps.db.$count(scrapedEvents)).toBe(30);
    const after = await t.deps.db.select().from(scrapedEvents);
    expect(after.find((row) => row.id === budafest)).toMatchObject({
      isReviewed: true,
      reviewedAction: 'rejected',
      reviewedNotes: 'not WCS',
    });
    // Moved by a day: new dates, and the duplicates found for the old ones are cleared.
    expect(after.find((row) => row.id === mooseland)).toMatchObject({
      startDate: '2026-09-25',
      potentialDuplicates: [],
      duplicatesCheckedAt: null,
    });
    expect(after.find((row) => row.name === 'Westie Harbor')).toMatchObject({
      dateText: 'Aug 5 - 8, 2027',
      startDate: '2027-08-05',
      endDate: '2027-08-08',
    });
    expect(await t.deps.db.$count(scrapeRuns)).toBe(2);
  });

  it('answers 502 with the status when the configured calendar answers 500, and stores no event', async () => {
    const broken = await createTestApp({ env: { WCS_SCRAPER_URL: `${base}/broken/` } });
    try {
      const response = await broken.app.inject({ method: 'POST', url: '/api/scraper/scrape-events' });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toEqual({
        message: `The events calendar at ${base}/broken/ answered HTTP 500 Internal Server Error; nothing was stored. Try again later, or check WCS_SCRAPER_URL.`,
      });
      expect(await broken.deps.db.$count(scrapedEvents)).toBe(0);
      const [run] = await broken.deps.db.select().from(scrapeRuns);
      expect(run).toMatchObject({ inserted: 0, updated: 0, error: response.json().message });
      const stats = await broken.app.inject({ method: 'GET', url: '/api/scraper/stats' });
      expect(stats.json().last_scraped_at).toBeNull();
    } finally {
      await broken.close();
    }
  });

  it('answers 504 when the configured calendar does not answer in time (WCS_SCRAPER_TIMEOUT_SECONDS)', async () => {
    const slow = await createTestApp({
      env: { WCS_SCRAPER_URL: `${base}/slow/`, WCS_SCRAPER_TIMEOUT_SECONDS: '1' },
    });
    try {
      // The calendar never answers in time: without the timeout this request would wait past the test's.
      const response = await slow.app.inject({ method: 'POST', url: '/api/scraper/scrape-events' });
      expect(response.statusCode).toBe(504);
      expect(response.json().message).toBe(
        `The events calendar at ${base}/slow/ did not answer within 1 s; nothing was stored. Try again later, or raise WCS_SCRAPER_TIMEOUT_SECONDS.`,
      );
      expect(await slow.deps.db.$count(scrapedEvents)).toBe(0);
      // An address the caller names: 422, as for the other failures below.
      const named = await slow.app.inject({
        method: 'POST',
        url: '/api/scraper/scrape-events',
        payload: { url: `${base}/slow/` },
      });
      expect(named.statusCode).toBe(422);
      expect(named.json().message).toMatch(
        /did not answer within 1 s; nothing was stored.*check the address$/,
      );
      expect(await slow.deps.db.$count(scrapedEvents)).toBe(0);
    } finally {
      await slow.close();
    }
  });

  it.each([
    ['answers 500', 'broken', /answered HTTP 500/],
    ['has no events table', 'moved', /has no events table .* layout may have changed/],
  ])(
    'answers 422 when a calendar address the caller names %s, and stores no event',
    async (_what, page, reason) => {
      const response = await post('/api/scraper/scrape-events', { url: `${base}/${page}/` });
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toMatch(reason);
      expect(response.json().message).toMatch(/check the address$/);
      expect(await t.deps.db.$count(scrapedEvents)).toBe(0);
    },
  );

  it.each(['file:///etc/passwd', 'data:text/html,<table></table>'])(
    'answers 400 for %s: only http and https addresses are read',
    async (url) => {
      const response = await post('/api/scraper/scrape-events', { url });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        field: 'body.url',
        message: expect.stringMatching(/http or https/),
      });
    },
  );

  it('answers 400 for an address that is no URL', async () => {
    const response = await post('/api/scraper/scrape-events', { url: 'worldsdc events' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/url/);
  });
});

describe('GET /api/scraper/events', () => {
  beforeEach(async () => {
    await scrape();
  });

  it('lists soonest first, unparsed dates last, 20 to a page', async () => {
    const first = await list();
    expect(first.total).toBe(30);
    expect(first.events).toHaveLength(20);
    expect(first.events.slice(0, 3).map((e) => e.event_name)).toEqual([
      'Floorplay Swing Vacation',
      'Budafest',
      'Austin Rocks',
    ]);
    const second = await list('?skip=20&limit=20');
    expect(second.total).toBe(30);
    expect(second.events.map((e) => e.event_name)).toEqual([
      'The Open Swing Dance Championships',
      'The After Party aka TAP',
      'Floorplay Swing Vacation',
      'Waterloo Ontario Open West Coast Swing Championships',
      'Paris Swing Classic',
      'New York Flow Festival',
      'Swing Camp México',
      'Atlanta Swing Classic',
      'Euro Dance Festival',
      'Westie Harbor',
    ]);
  });

  it('answers every field of a scraped event', async () => {
    const { events: page } = await list('?country_code=ZA');
    expect(page).toEqual([
      {
        id: expect.any(Number),
        event_name: 'Cape Town Swing Festival',
        url: 'https://www.capetownswing.co.za/',
        date_text: 'Jun 4 - 7, 2026',
        start_date: '2026-06-04',
        end_date: '2026-06-07',
        location: 'Cape Town, Western Cape, South Africa',
        country_code: 'ZA',
        continent: 'Africa',
        is_reviewed: false,
        reviewed_action: null,
        reviewed_notes: null,
        reviewed_at: null,
        linked_event_id: null,
        has_songs: false,
        potential_duplicates: [],
        scraped_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
    ]);
  });

  it('filters by year of the start date, country (any case) and continent (any case)', async () => {
    expect((await list('?year=2025')).total).toBe(1);
    expect((await list('?year=2026')).total).toBe(22);
    expect((await list('?year=2027')).total).toBe(5);
    expect((await list('?year=2028')).events.map((e) => e.start_date)).toEqual(['2028-02-29']);
    const sweden = await list('?country_code=se');
    expect(sweden.events.map((e) => e.event_name)).toEqual([
      'Mooseland Swing 2026',
      'Scandinavian Open WCS "SNOW"',
      'Westie Harbor',
    ]);
    expect((await list('?continent=europe')).total).toBe(10);
    // Waterloo (CA), Swing Camp México (MX), Atlanta 2027 (US); New York Flow has no country.
    expect((await list('?continent=North%20America&year=2027')).total).toBe(3);
    expect((await list('?country_code=US&year=2026&limit=5')).events).toHaveLength(5);
    expect((await list('?country_code=US&year=2026&limit=5')).total).toBe(7);
  });

  it('filters by review state, duplicates and songs', async () => {
    const paris = await createProductEvent({
      name: 'Paris Swing Classic',
      startDate: '2026-02-27',
      countryCode: 'FR',
    });
    const parisId = await idOf('Paris Swing Classic', '2026-02-26');
    await post(`/api/scraper/events/${parisId}/detect-duplicates`);
    const budafest = await idOf('Budafest');
    const created = (await create({ scraped_event_id: budafest })).json();
    const [song] = await t.deps.db
      .insert(songs)
      .values({ title: 'Cranes in the Sky', artist: 'Solange', searchKey: 'cranes in the sky solange' })
      .returning();
    await t.deps.db.insert(plays).values({
      songId: song!.id,
      eventId: created.event.event_id,
      startedAt: new Date('2026-01-23T21:00:00Z'),
      source: 'manual',
    });
    const tokyo = await idOf('Tokyo Westie Day');
    await review({ scraped_event_id: tokyo, action: 'merged', merge_with_event_id: paris.id });

    expect((await list('?is_reviewed=true')).events.map((e) => e.event_name)).toEqual([
      'Budafest',
      'Tokyo Westie Day',
    ]);
    expect((await list('?is_reviewed=false')).total).toBe(28);
    const withDuplicates = await list('?has_duplicates=true');
    expect(withDuplicates.events.map((e) => e.id)).toEqual([parisId]);
    expect((await list('?has_duplicates=false')).total).toBe(29);
    const withSongs = await list('?has_songs=true');
    expect(withSongs.events.map((e) => [e.event_name, e.has_songs])).toEqual([['Budafest', true]]);
    // Tokyo is linked too, but its event has no plays.
    expect((await list('?has_songs=false')).total).toBe(29);
    expect((await list('?has_songs=false&is_reviewed=true')).events.map((e) => e.event_name)).toEqual([
      'Tokyo Westie Day',
    ]);
  });

  it('answers 400 for a filter that is not one', async () => {
    const response = await get('/api/scraper/events?has_songs=maybe');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/has_songs/);
  });
});

describe('GET /api/scraper/filter-options', () => {
  it('counts the continents and countries present and lists the years', async () => {
    await scrape();
    const response = await get('/api/scraper/filter-options');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      years: [2025, 2026, 2027, 2028],
      continents: [
        { name: 'Africa', count: 1 },
        { name: 'Asia', count: 2 },
        { name: 'Europe', count: 10 },
        { name: 'North America', count: 12 },
        { name: 'Oceania', count: 2 },
        { name: 'South America', count: 1 },
      ],
      countries: [
        { code: 'AU', count: 1 },
        { code: 'BE', count: 1 },
        { code: 'BG', count: 1 },
        { code: 'BR', count: 1 },
        { code: 'CA', count: 2 },
        { code: 'DE', count: 2 },
        { code: 'FR', count: 2 },
        { code: 'HU', count: 1 },
        { code: 'JP', count: 1 },
        { code: 'KR', count: 1 },
        { code: 'MX', count: 1 },
        { code: 'NZ', count: 1 },
        { code: 'SE', count: 3 },
        { code: 'US', count: 9 },
        { code: 'ZA', count: 1 },
      ],
    });
  });

  it('is empty before the first scrape', async () => {
    expect((await get('/api/scraper/filter-options')).json()).toEqual({
      years: [],
      continents: [],
      countries: [],
    });
  });
});

describe('duplicate detection', () => {
  beforeEach(async () => {
    await scrape();
  });

  it('finds and stores the potential duplicates of one scraped event', async () => {
    const weekend = await createProductEvent({
      name: 'Mooseland WCS Weekend',
      startDate: '2026-10-04',
      countryCode: 'SE',
    });
    const exact = await createProductEvent({
      name: 'Mooseland Swing',
      startDate: '2026-09-24',
      countryCode: null,
    });
    await createProductEvent({ name: 'Mooseland Swing', startDate: '2026-09-24', countryCode: 'NO' });
    await createProductEvent({ name: 'Mooseland Swing', startDate: '2026-10-25', countryCode: 'SE' });
    await createProductEvent({ name: 'Budafest', startDate: '2026-09-24', countryCode: 'SE' });
    const id = await idOf('Mooseland Swing 2026');

    const response = await post(`/api/scraper/events/${id}/detect-duplicates`);
    expect(response.statusCode).toBe(200);
    const expected = [
      {
        event_id: exact.id,
        event_name: 'Mooseland Swing',
        overall_score: 1,
        name_similarity: 1,
        date_difference_days: 0,
      },
      // {mooseland} vs {mooseland, weekend}: 2/3; 10 days: 0.7 × 2/3 + 0.3 × 20/30 = 0.6667.
      {
        event_id: weekend.id,
        event_name: 'Mooseland WCS Weekend',
        overall_score: 0.6667,
        name_similarity: 0.6667,
        date_difference_days: 10,
      },
    ];
    expect(response.json()).toEqual({ scraped_event_id: id, potential_duplicates: expected });
    const [stored] = (await list('?has_duplicates=true')).events;
    expect(stored).toMatchObject({ id, potential_duplicates: expected });
  });

  it('answers 409 for an unparsed date and 404 for an unknown id', async () => {
    const harbor = await idOf('Westie Harbor');
    const unparsed = await post(`/api/scraper/events/${harbor}/detect-duplicates`);
    expect(unparsed.statusCode).toBe(409);
    expect(unparsed.json().message).toBe(
      `Scraped event ${harbor} has no parsed start date (its date reads "TBA 2027"); it cannot be compared or reviewed until the calendar gives a date.`,
    );
    const unknown = await post('/api/scraper/events/9999/detect-duplicates');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Scraped event 9999 was not found');
  });

  it('batch: unreviewed events with parsed dates, never checked first, up to the limit', async () => {
    await createProductEvent({ name: 'Atlanta Swing Classic', startDate: '2026-10-02', countryCode: 'US' });
    await createProductEvent({ name: 'Atlanta Open', startDate: '2026-10-06', countryCode: 'US' });
    await createProductEvent({ name: 'Swingside', startDate: '2026-10-23', countryCode: null });
    await review({ scraped_event_id: await idOf('Budafest'), action: 'rejected' });

    const first = await post('/api/scraper/events/batch-detect-duplicates?limit=10');
    expect(first.statusCode).toBe(200);
    // The ten soonest unreviewed (Budafest is reviewed, Westie Harbor has no date): none is near.
    expect(first.json()).toEqual({ processed: 10, total_duplicates_found: 0, events_with_duplicates: 0 });

    const rest = await post('/api/scraper/events/batch-detect-duplicates?limit=18');
    // The 18 never checked come before the 10 just checked. Atlanta 2026 pairs with both Atlanta
    // events (1 day: 0.99; 'Atlanta Open' 5 days: 0.35 + 0.25 = 0.6), Swingside with one.
    expect(rest.json()).toEqual({ processed: 18, total_duplicates_found: 3, events_with_duplicates: 2 });
    const atlanta = (await list('?has_duplicates=true')).events.find((e) => e.start_date === '2026-10-01');
    expect(atlanta?.potential_duplicates).toEqual([
      expect.objectContaining({
        event_name: 'Atlanta Swing Classic',
        overall_score: 0.99,
        date_difference_days: 1,
      }),
      expect.objectContaining({ event_name: 'Atlanta Open', overall_score: 0.6, name_similarity: 0.5 }),
    ]);
    // Default limit 100: all 28 unreviewed events with dates.
    const again = await post('/api/scraper/events/batch-detect-duplicates');
    expect(again.json()).toEqual({ processed: 28, total_duplicates_found: 3, events_with_duplicates: 2 });
  });
});

describe('POST /api/scraper/events/create', () => {
  beforeEach(async () => {
    await scrape();
  });

  it('creates a festival from the scraped event with its country and time zone, and links it', async () => {
    const id = await idOf('Budafest');
    const response = await create({ scraped_event_id: id, notes: 'confirmed with the organiser' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.event).toEqual({
      event_id: expect.any(Number),
      event_name: 'Budafest',
      start_date: '2026-01-22',
      end_date: '2026-01-25',
      location: 'Budapest, Hungary',
      is_festival: true,
      event_weight: 12,
      weight_override: null,
      timezone: 'Europe/Budapest',
      country_code: 'HU',
      created_at: expect.any(String),
    });
    expect(body.scraped_event).toMatchObject({
      id,
      is_reviewed: true,
      reviewed_action: 'created',
      reviewed_notes: 'confirmed with the organiser',
      reviewed_at: expect.any(String),
      linked_event_id: body.event.event_id,
    });
  });

  it('uses the overrides that are sent, and makes a one-day event a party', async () => {
    const id = await idOf('Bavarian Open Jack & Jill Day');
    const response = await create({
      scraped_event_id: id,
      override_name: 'Bavarian Open J&J Day',
      override_location: 'Munich, Germany',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().event).toMatchObject({
      event_name: 'Bavarian Open J&J Day',
      location: 'Munich, Germany',
      start_date: '2026-03-07',
      end_date: '2026-03-07',
      is_festival: false,
      event_weight: 1,
      timezone: 'Europe/Berlin',
      country_code: 'DE',
    });
    expect(response.json().scraped_event.reviewed_notes).toBeNull();
  });

  it('takes the time zone of the city in the location, and the server’s without a country', async () => {
    const open = (
      await create({ scraped_event_id: await idOf('The Open Swing Dance Championships') })
    ).json();
    expect(open.event).toMatchObject({ timezone: 'America/Los_Angeles', country_code: 'US' });
    const moscow = (await create({ scraped_event_id: await idOf('Moscow Westie Fest') })).json();
    expect(moscow.event).toMatchObject({
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      country_code: null,
    });
  });

  it('answers 409 for a reviewed or unparsed event, 404 for an unknown one, 400 for a bad override', async () => {
    const id = await idOf('Budafest');
    expect((await create({ scraped_event_id: id })).statusCode).toBe(201);
    const again = await create({ scraped_event_id: id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(
      new RegExp(`^Scraped event ${id} was already reviewed \\(created on \\d{4}-\\d{2}-\\d{2}\\)`),
    );
    expect((await create({ scraped_event_id: await idOf('Westie Harbor') })).statusCode).toBe(409);
    expect((await create({ scraped_event_id: 9999 })).statusCode).toBe(404);
    const blank = await create({ scraped_event_id: await idOf('Austin Rocks'), override_name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(await t.deps.db.$count(events)).toBe(1);
  });
});

describe('POST /api/scraper/events/review', () => {
  beforeEach(async () => {
    await scrape();
  });

  it('approves and rejects with notes', async () => {
    const approved = await review({
      scraped_event_id: await idOf('Korea Westival'),
      action: 'approved',
      notes: 'ok',
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().scraped_event).toMatchObject({
      is_reviewed: true,
      reviewed_action: 'approved',
      reviewed_notes: 'ok',
      linked_event_id: null,
    });
    const rejected = await review({ scraped_event_id: await idOf('Austin Rocks'), action: 'rejected' });
    expect(rejected.json().scraped_event).toMatchObject({
      reviewed_action: 'rejected',
      reviewed_notes: null,
    });
    expect(await t.deps.db.$count(events)).toBe(0);
  });

  it('merges into an existing event, links it and fills the country and location it lacked', async () => {
    const target = await createProductEvent({ name: 'Swingside', startDate: '2026-10-22' });
    const id = await idOf('Swingside Invitational');
    const response = await review({
      scraped_event_id: id,
      action: 'merged',
      merge_with_event_id: target.id,
      notes: 'same event',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().scraped_event).toMatchObject({
      reviewed_action: 'merged',
      linked_event_id: target.id,
      reviewed_notes: 'same event',
    });
    const [merged] = await t.deps.db.select().from(events).where(eq(events.id, target.id));
    expect(merged).toMatchObject({
      name: 'Swingside',
      countryCode: 'BE',
      location: 'Liège, Liège, Belgique',
    });
  });

  it('answers 400 to merge without a target and 404 for an unknown target, changing nothing', async () => {
    const id = await idOf('Swingside Invitational');
    const missing = await review({ scraped_event_id: id, action: 'merged' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/merge_with_event_id is required to merge/);
    const unknown = await review({ scraped_event_id: id, action: 'merged', merge_with_event_id: 777 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Event 777 was not found');
    const [row] = await t.deps.db.select().from(scrapedEvents).where(eq(scrapedEvents.id, id));
    expect(row).toMatchObject({ isReviewed: false, reviewedAction: null });
  });

  it('answers 409 to a second review and to an event without a parsed date', async () => {
    const id = await idOf('Korea Westival');
    expect((await review({ scraped_event_id: id, action: 'approved' })).statusCode).toBe(200);
    const again = await review({ scraped_event_id: id, action: 'rejected' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already reviewed \(approved on/);
    const harbor = await review({ scraped_event_id: await idOf('Westie Harbor'), action: 'approved' });
    expect(harbor.statusCode).toBe(409);
    expect(harbor.json().message).toMatch(/has no parsed start date/);
    expect((await review({ scraped_event_id: 4242, action: 'approved' })).statusCode).toBe(404);
    expect((await review({ scraped_event_id: id, action: 'created' })).statusCode).toBe(400);
  });
});

describe('GET /api/scraper/stats', () => {
  it('counts the queue by state and action, and the last successful scrape', async () => {
    expect((await get('/api/scraper/stats')).json()).toEqual({
      total: 0,
      reviewed: 0,
      unreviewed: 0,
      with_duplicates: 0,
      unparsed_dates: 0,
      by_action: { approved: 0, rejected: 0, merged: 0, created: 0 },
      last_scraped_at: null,
    });
    const { scraped_at } = await scrape();
    const target = await createProductEvent({
      name: 'Korea Westival',
      startDate: '2026-03-20',
      countryCode: 'KR',
    });
    await post(`/api/scraper/events/${await idOf('Korea Westival')}/detect-duplicates`);
    await review({ scraped_event_id: await idOf('Austin Rocks'), action: 'approved' });
    await review({ scraped_event_id: await idOf('Budafest'), action: 'rejected' });
    await review({ scraped_event_id: await idOf('Tokyo Westie Day'), action: 'rejected' });
    await review({
      scraped_event_id: await idOf('Korea Westival'),
      action: 'merged',
      merge_with_event_id: target.id,
    });
    await create({ scraped_event_id: await idOf('Rio Westie Festival') });
    // A failed scrape afterwards does not move last_scraped_at.
    await post('/api/scraper/scrape-events', { url: `${base}/broken/` });

    expect((await get('/api/scraper/stats')).json()).toEqual({
      total: 30,
      reviewed: 5,
      unreviewed: 25,
      with_duplicates: 1,
      unparsed_dates: 1,
      by_action: { approved: 1, rejected: 2, merged: 1, created: 1 },
      last_scraped_at: scraped_at,
    });
  });
});

describe('the scrape job and its schedule', () => {
  it('reads WCS_SCRAPER_URL, WCS_SCRAPER_SCHEDULE and WCS_SCRAPER_TIMEOUT_SECONDS', () => {
    const defaults = loadConfig({});
    expect([defaults.scraperUrl, defaults.scraperSchedule, defaults.scraperTimeoutMs]).toEqual([
      'https://www.worldsdc.com/events/',
      '0 4 * * 1',
      30_000,
    ]);
    expect(loadConfig({ WCS_SCRAPER_SCHEDULE: 'OFF' }).scraperSchedule).toBeNull();
    expect(() => loadConfig({ WCS_SCRAPER_URL: 'ftp://example.org/' })).toThrow(
      'WCS_SCRAPER_URL must be an http or https address, got "ftp://example.org/"',
    );
    expect(() => loadConfig({ WCS_SCRAPER_TIMEOUT_SECONDS: '0' })).toThrow(
      'WCS_SCRAPER_TIMEOUT_SECONDS must be an integer from 1 to 600, got "0"',
    );
  });

  it('scrapes when a scraper.scrape job runs', async () => {
    await t.deps.jobs.send('scraper.scrape', { url: `${base}/events/` });
    const deadline = Date.now() + 15_000;
    while ((await t.deps.db.$count(scrapeRuns)) === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await t.deps.db.$count(scrapedEvents)).toBe(30);
  });

  it('puts the scrape on the weekly cron schedule, replaces it, and removes it when off', async () => {
    const schedule = async () =>
      (await t.deps.pool.query("select cron, timezone from pgboss.schedule where name = 'scraper.scrape'"))
        .rows;
    // Test apps start with the schedule off (no real scrape from a test); the default is weekly.
    expect(await schedule()).toEqual([]);
    expect(loadConfig({}).scraperSchedule).toBe('0 4 * * 1');
    await scheduleScrapeEvents({ ...t.deps, config: { ...t.deps.config, scraperSchedule: '0 4 * * 1' } });
    expect(await schedule()).toEqual([
      { cron: '0 4 * * 1', timezone: Intl.DateTimeFormat().resolvedOptions().timeZone },
    ]);
    await scheduleScrapeEvents({ ...t.deps, config: { ...t.deps.config, scraperSchedule: '30 5 * * 0' } });
    expect((await schedule()).map((row) => row.cron)).toEqual(['30 5 * * 0']);
    await scheduleScrapeEvents({ ...t.deps, config: { ...t.deps.config, scraperSchedule: null } });
    expect(await schedule()).toEqual([]);
    await expect(
      scheduleScrapeEvents({ ...t.deps, config: { ...t.deps.config, scraperSchedule: 'every monday' } }),
    ).rejects.toThrow(/^WCS_SCRAPER_SCHEDULE must be a cron expression or 'off', got "every monday"/);
  });
});

describe('sourceKeyOf', () => {
  it('keys a link without scheme, www and trailing slash, by edition year', () => {
    const row = { name: 'X', dateText: 'Sep 24 - 28, 2026', startDate: '2026-09-24' };
    expect(sourceKeyOf({ ...row, url: 'https://www.MooselandSwing.com/' })).toBe(
      'link:mooselandswing.com#2026',
    );
    expect(sourceKeyOf({ ...row, url: 'http://mooselandswing.com' })).toBe('link:mooselandswing.com#2026');
    expect(sourceKeyOf({ ...row, url: 'https://a.org/e?id=4', startDate: null, dateText: 'TBA 2027' })).toBe(
      'link:a.org/e?id=4#2027',
    );
    expect(sourceKeyOf({ ...row, url: 'https://a.org/', startDate: null, dateText: 'TBA' })).toBe(
      'link:a.org',
    );
    expect(sourceKeyOf({ ...row, url: null, name: 'Été Swing' })).toBe('name:ete swing|sep 24 - 28, 2026');
  });
});
