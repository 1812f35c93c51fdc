import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { ApiEvent } from './recordings-page.js';

export interface ApiSocial {
  social_id: number;
  event_id: number;
  social_name: string;
  social_date: string;
  day_of_week: string;
  start_time: string | null;
  end_time: string | null;
}

/** dd.mm.yyyy of a YYYY-MM-DD date, as the screens show it. */
export function germanDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}.${month}.${year}`;
}

export async function listEvents(request: APIRequestContext, limit = 500): Promise<ApiEvent[]> {
  const response = await request.get('/api/events/', { params: { limit: String(limit) } });
  if (!response.ok()) throw new Error(`GET /api/events/ answered ${response.status()}`);
  return ((await response.json()) as { data: ApiEvent[] }).data;
}

export async function listSocials(request: APIRequestContext, eventId: number): Promise<ApiSocial[]> {
  const response = await request.get(`/api/events/${eventId}/socials`);
  if (!response.ok()) throw new Error(`GET socials answered ${response.status()}`);
  return ((await response.json()) as { data: ApiSocial[] }).data;
}

/** The Events screen at /events with its Add Event form and event modal. */
export class EventsPage {
  readonly heading: Locator;
  readonly addButton: Locator;
  readonly list: Locator;
  readonly form: Locator;
  readonly nameInput: Locator;
  readonly startInput: Locator;
  readonly endInput: Locator;
  readonly locationInput: Locator;
  readonly festivalRadio: Locator;
  readonly partyRadio: Locator;
  readonly timezoneSelect: Locator;
  readonly saveButton: Locator;
  readonly cancelButton: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'All Events', exact: true });
    this.addButton = page.getByRole('button', { name: 'Add Event' });
    this.list = page.getByRole('list', { name: 'Events' });
    this.form = page.getByRole('dialog', { name: 'Add Event' });
    this.nameInput = this.form.getByRole('textbox', { name: 'Event name' });
    this.startInput = this.form.getByLabel('Start date');
    this.endInput = this.form.getByLabel('End date');
    this.locationInput = this.form.getByRole('textbox', { name: 'Location (optional)' });
    this.festivalRadio = this.form.getByRole('radio', { name: 'Festival' });
    this.partyRadio = this.form.getByRole('radio', { name: 'Party' });
    this.timezoneSelect = this.form.getByRole('combobox', { name: 'Time zone' });
    this.saveButton = this.form.getByRole('button', { name: 'Save Event' });
    this.cancelButton = this.form.getByRole('button', { name: 'Cancel' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/events');
    await this.heading.waitFor();
  }

  /** The button of one event in the list, by its name. */
  eventButton(name: string): Locator {
    return this.list.getByRole('button', { name: new RegExp(`^${escapeRegExp(name)}\\b`) });
  }

  eventDialog(name: string): Locator {
    return this.page.getByRole('dialog', { name });
  }
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
