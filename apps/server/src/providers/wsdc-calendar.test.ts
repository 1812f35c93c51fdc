import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WSDC_CALENDAR_URL } from '../config.js';
import { CalendarError, fetchWsdcCalendar, parseWsdcCalendar } from './wsdc-calendar.js';

const fixture = readFileSync(path.join(import.meta.dirname, 'fixtures/wsdc-calendar.html'), 'utf8');

describe('parseWsdcCalendar on the calendar fixture', () => {
  const rows = parseWsdcCalendar(fixture, WSDC_CALENDAR_URL);
  const named = (name: string) => rows.filter((row) => row.name === name);

  it('finds every event row of the events table, duplicates included, and not the legend table', () => {
    expect(rows).toHaveLength(32);
    expect(rows.some((row) => row.name === 'Unconfirmed' || row.name === 'Trial Event')).toBe(false);
    expect(rows[0]!.name).toBe('Floorplay Swing Vacation');
    expect(rows.at(-1)!.name).toBe('Euro Dance Festival');
  });

  it('reads a range across a year end, its link and its country', () => {
    expect(rows[0]).toEqual({
      name: 'Floorplay Swing Vacation',
      url: 'http://www.floorplayswingvacation.com/',
      dateText: 'Dec 28 2025 - Jan 2 2026',
      startDate: '2025-12-28',
      endDate: '2026-01-02',
      location: 'Orlando, Florida, United States',
      countryRaw: 'USA',
      countryCode: 'US',
      continent: 'North America',
    });
  });

  it('reads a single day, drops the event-type label from the name and decodes entities', () => {
    expect(named('Bavarian Open Jack & Jill Day')).toEqual([
      {
        name: 'Bavarian Open Jack & Jill Day',
        url: 'https://www.bavarianopen.de/jjday',
        dateText: 'Mar 7, 2026',
        startDate: '2026-03-07',
        endDate: '2026-03-07',
        location: 'München, Bayern, Germany',
        countryRaw: 'DEU',
        countryCode: 'DE',
        continent: 'Europe',
      },
    ]);
    expect(named('Scandinavian Open WCS "SNOW"')[0]).toMatchObject({
      dateText: 'Oct 28 - Nov 2, 2026',
      startDate: '2026-10-28',
      endDate: '2026-11-02',
      countryCode: 'SE',
    });
  });

  it('reads every continent the fixture covers', () => {
    const continents = new Set(rows.map((row) => row.continent));
    expect([...continents].sort()).toEqual([
      'Africa',
      'Asia',
      'Europe',
      'North America',
      'Oceania',
      'South America',
      null,
    ]);
    expect(named('Cape Town Swing Festival')[0]).toMatchObject({ countryCode: 'ZA', continent: 'Africa' });
    expect(named('Rio Westie Festival')[0]).toMatchObject({ countryCode: 'BR', continent: 'South America' });
    expect(named('The Australian Classic WCSDC')[0]).toMatchObject({
      countryCode: 'AU',
      continent: 'Oceania',
    });
  });

  it('keeps an unparsable date as text with null dates', () => {
    expect(named('Westie Harbor')).toEqual([
      {
        name: 'Westie Harbor',
        url: 'http://www.westieharbor.com/',
        dateText: 'TBA 2027',
        startDate: null,
        endDate: null,
        location: 'Gothenburg, Sweden',
        countryRaw: 'SWE',
        countryCode: 'SE',
        continent: 'Europe',
      },
    ]);
  });

  it('keeps the raw code of a flag that is no country, and null without a flag', () => {
    expect(named('Moscow Westie Fest')[0]).toMatchObject({
      countryRaw: 'transparent',
      countryCode: null,
      continent: null,
    });
    expect(named('New York Flow Festival')[0]).toMatchObject({ countryRaw: null, countryCode: null });
  });

  it('reads a row without a link, and a leap day', () => {
    expect(named('Swing Camp México')[0]).toMatchObject({
      url: null,
      startDate: '2027-03-12',
      countryCode: 'MX',
    });
    expect(named('Euro Dance Festival')[0]).toMatchObject({ startDate: '2028-02-29', endDate: '2028-03-05' });
  });

  it('returns repeated rows as they are (the service decides what a duplicate is)', () => {
    expect(named('Liberty Swing Dance Championships')).toHaveLength(2);
    expect(
      named('Waterloo Ontario Open West Coast Swing Championships').map((row) => row.countryCode),
    ).toEqual(['CA', 'US']);
    expect(named('Atlanta Swing Classic').map((row) => row.startDate)).toEqual(['2026-10-01', '2027-10-07']);
  });
});

describe('parseWsdcCalendar on other layouts', () => {
  it('reads the older layout (name and type in divs, flag image beside the location)', () => {
    const html = `<table><tr><th>Date</th><th>Event</th><th>Location</th></tr>
      <tr><td>Sep 24 - 28, 2026</td>
          <td><a href="/go/mooseland"><div class="event_name">Mooseland Swing</div><div class="event_type">Registry</div></a></td>
          <td>Östersund, Sweden <img data-flag="SWE" src="/img/flag.png"></td></tr></table>`;
    expect(parseWsdcCalendar(html, 'https://example.org/events/')).toEqual([
      {
        name: 'Mooseland Swing',
        url: 'https://example.org/go/mooseland',
        dateText: 'Sep 24 - 28, 2026',
        startDate: '2026-09-24',
        endDate: '2026-09-28',
        location: 'Östersund, Sweden',
        countryRaw: 'SWE',
        countryCode: 'SE',
        continent: 'Europe',
      },
    ]);
  });

  it('finds a table without a header by its date cells and skips month separator rows', () => {
    const html = `<table><tr><td colspan="4">March 2026</td></tr>
      <tr><td>Mar 7, 2026</td><td>Day of Swing</td><td>Lyon, France</td><td><img src="/flags/FRA.png"></td></tr></table>`;
    expect(parseWsdcCalendar(html, 'https://example.org/')).toEqual([
      expect.objectContaining({
        name: 'Day of Swing',
        url: null,
        startDate: '2026-03-07',
        countryCode: 'FR',
      }),
    ]);
  });

  it('says the layout changed when the page has no events table', () => {
    const parse = () =>
      parseWsdcCalendar(
        '<html><body><div class="events-grid">New layout</div></body></html>',
        'https://example.org/',
      );
    expect(parse).toThrow(CalendarError);
    expect(parse).toThrow(/has no events table .* layout may have changed/);
  });
});

describe('fetchWsdcCalendar', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      if (request.url === '/events/') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(fixture);
      } else if (request.url === '/broken') {
        response.writeHead(500, 'Internal Server Error');
        response.end('oops');
      } else if (request.url === '/slow') {
        // Never in time: the answer would come after the test (the connections are closed first).
        setTimeout(() => response.end('late'), 120_000).unref();
      } else {
        response.writeHead(404, 'Not Found');
        response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers the page', async () => {
    expect(await fetchWsdcCalendar(`${base}/events/`, { timeoutMs: 60_000 })).toBe(fixture);
  });

  it('names the status of an error answer', async () => {
    const failure = await fetchWsdcCalendar(`${base}/broken`, { timeoutMs: 60_000 }).catch((error) => error);
    expect(failure).toBeInstanceOf(CalendarError);
    expect(failure.failure).toBe('http');
    expect(failure.message).toBe(
      `The events calendar at ${base}/broken answered HTTP 500 Internal Server Error; nothing was stored. Try again later, or check WCS_SCRAPER_URL.`,
    );
  });

  it('gives up after the timeout', async () => {
    // The page never comes in time: without the timeout this would wait past the test's own.
    const failure = await fetchWsdcCalendar(`${base}/slow`, { timeoutMs: 300 }).catch((error) => error);
    expect(failure.failure).toBe('timeout');
    expect(failure.message).toMatch(/did not answer within 0\.3 s; nothing was stored/);
  });

  it('names the network error when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const failure = await fetchWsdcCalendar(`http://127.0.0.1:${port}/`, { timeoutMs: 60_000 }).catch(
      (error) => error,
    );
    expect(failure.failure).toBe('network');
    expect(failure.message).toMatch(/^Could not reach the events calendar at .* \(ECONNREFUSED\)/);
  });
});
