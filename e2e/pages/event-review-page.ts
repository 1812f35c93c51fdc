import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Locator, Page } from '@playwright/test';

export interface CalendarRow {
  dateText: string;
  name: string;
  location: string;
  /** ISO alpha-3, as the calendar's flag links carry it. */
  country: string;
}

/** A page in the shape of the World Swing Dance Council event list, which the server's scraper reads. */
export function calendarHtml(rows: readonly CalendarRow[]): string {
  const body = rows
    .map(
      (row, index) => `
        <tr>
          <td>${row.dateText}</td>
          <td><a href="https://example.org/events/${index}" target="_blank">${row.name}</a></td>
          <td>${row.location}</td>
          <td><a href="https://www.worldsdc.com/events/?country=${row.country}" title="Show events in ${row.country}"><img src="https://www.worldsdc.com/wp-content/plugins/wsdc-events/flags/${row.country}.png" alt="${row.country}" width="24" height="16"></a></td>
        </tr>`,
    )
    .join('');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>Event List</title></head><body>
    <table class="events-table" id="events">
      <thead><tr><th>Date</th><th>Event Name</th><th>Event Location</th><th>Country</th></tr></thead>
      <tbody>${body}</tbody>
    </table></body></html>`;
}

/** Serves `html` on 127.0.0.1 at a free port; the server's scraper fetches it like the real calendar. */
export async function serveCalendar(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/events/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** POST /api/scraper/scrape-events from the given calendar address. */
export async function scrape(request: APIRequestContext, url: string): Promise<{ inserted: number }> {
  const response = await request.post('/api/scraper/scrape-events', { data: { url } });
  if (!response.ok()) throw new Error(`scrape answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as { inserted: number };
}

/** The Event Review screen at /events/review. */
export class EventReviewPage {
  readonly heading: Locator;
  readonly filters: Locator;
  readonly year: Locator;
  readonly continent: Locator;
  readonly country: Locator;
  readonly status: Locator;
  readonly duplicates: Locator;
  readonly hasSongs: Locator;
  readonly clearFilters: Locator;
  readonly batchButton: Locator;
  readonly cards: Locator;
  readonly pagination: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Event Review', exact: true });
    this.filters = page.getByRole('region', { name: 'Filters' });
    this.year = this.filters.getByRole('combobox', { name: 'Year' });
    this.continent = this.filters.getByRole('combobox', { name: 'Continent' });
    this.country = this.filters.getByRole('combobox', { name: 'Country' });
    this.status = this.filters.getByRole('combobox', { name: 'Status' });
    this.duplicates = this.filters.getByRole('combobox', { name: 'Duplicates' });
    this.hasSongs = this.filters.getByRole('combobox', { name: 'Has Songs' });
    this.clearFilters = page.getByRole('button', { name: 'Clear all filters' });
    this.batchButton = page.getByRole('button', { name: 'Batch Detect Duplicates' });
    this.cards = page.getByRole('main').getByRole('article');
    this.pagination = page.getByRole('navigation', { name: 'Pagination' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/events/review');
    await this.heading.waitFor();
  }

  card(name: string): Locator {
    return this.page.getByRole('article', { name, exact: true });
  }

  dialog(title: RegExp | string): Locator {
    return this.page.getByRole('dialog', { name: title });
  }
}
