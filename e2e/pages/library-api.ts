import { randomUUID } from 'node:crypto';
import {
  type APIRequestContext,
  type APIResponse,
  expect,
  type Locator,
  type Page,
  type Response,
} from '@playwright/test';

/**
 * Helpers shared by the specs of the library and analytics screens (songs, analytics, insights,
 * overplay, playlists, settings): reading the API the screens call, and creating what a spec needs.
 */

export interface ApiList<T> {
  data: T[];
  total: number;
}

export interface ApiEventRow {
  event_id: number;
  event_name: string;
  start_date: string;
}

/** A name no other spec or run uses. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${randomUUID().slice(0, 8)}`;
}

/** Creates a party through POST /api/events/ (dated today unless told otherwise). */
export async function createEvent(
  request: APIRequestContext,
  name: string,
  startDate = new Date().toISOString().slice(0, 10),
): Promise<ApiEventRow> {
  const response = await request.post('/api/events/', {
    data: { event_name: name, start_date: startDate, end_date: startDate, is_festival: false },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as ApiEventRow;
}

export async function deleteEvent(request: APIRequestContext, eventId: number): Promise<void> {
  await request.delete(`/api/events/${eventId}`);
}

/** The body of a GET, and whether it succeeded, as the screen would see it. */
export async function getJson<T>(
  request: APIRequestContext,
  path: string,
): Promise<{ ok: boolean; status: number; body: T; message: string }> {
  const response = await request.get(path);
  return readResponse<T>(response);
}

export async function readResponse<T>(
  response: APIResponse | Response,
): Promise<{ ok: boolean; status: number; body: T; message: string }> {
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  const message =
    body && typeof body === 'object' && 'message' in body && typeof body.message === 'string'
      ? body.message
      : `API Error ${response.status()}: ${text.slice(0, 200)}`;
  return { ok: response.ok(), status: response.status(), body: body as T, message };
}

/** Waits for the next response of an API path (optionally with a query parameter value). */
export function waitForApi(
  page: Page,
  pathname: string,
  query: Record<string, string | null> = {},
): Promise<Response> {
  return page.waitForResponse((response) => {
    const url = new URL(response.url());
    if (url.pathname !== pathname) return false;
    return Object.entries(query).every(([key, value]) =>
      value === null ? !url.searchParams.has(key) : url.searchParams.get(key) === value,
    );
  });
}

/**
 * A chart card shows the server's error, its empty text, or a drawn chart: which one follows from
 * the response the screen received. Charts draw when they come near the viewport
 * (components/charts/lazy.tsx), so the card is scrolled into view first, as a reader would.
 */
export async function expectChartFor(
  region: Locator,
  answer: { ok: boolean; message: string },
  isEmpty: boolean,
  emptyText: string,
): Promise<void> {
  await expect(region).toBeVisible();
  await region.scrollIntoViewIfNeeded();
  if (!answer.ok) {
    await expect(region.getByRole('alert')).toContainText(answer.message);
  } else if (isEmpty) {
    await expect(region.getByText(emptyText, { exact: true })).toBeVisible();
  } else {
    await expect(region.locator('svg.recharts-surface').first()).toBeVisible();
  }
}

/** Every uncaught page error fails the test that caused it. */
export function trackPageErrors(page: Page): Error[] {
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  return errors;
}
