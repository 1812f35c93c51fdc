import { randomUUID } from 'node:crypto';
import { expect, test } from './fixtures.js';
import { EventsPage, germanDate, listEvents } from './pages/events-page.js';
import { createEvent } from './pages/recordings-page.js';

// The browser's own time zone is the form's default: a fixed one makes that visible.
test.use({ timezoneId: 'Europe/Berlin' });

const pageErrors: Error[] = [];
test.beforeEach(({ page }) => {
  pageErrors.length = 0;
  page.on('pageerror', (error) => pageErrors.push(error));
});
test.afterEach(() => {
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

test('the list shows each event with its dates, location, type and weight', async ({ page, request }) => {
  const festival = await createEvent(request, {
    event_name: unique('Lake Festival'),
    start_date: '2031-07-10',
    end_date: '2031-07-13',
    location: 'Konstanz',
    is_festival: true,
  });
  const party = await createEvent(request, {
    event_name: unique('Tuesday Party'),
    start_date: '2031-07-15',
    end_date: '2031-07-15',
  });
  const events = new EventsPage(page);
  await events.goto();

  const festivalCard = events.eventButton(festival.event_name);
  await expect(festivalCard).toContainText(`${germanDate('2031-07-10')} – ${germanDate('2031-07-13')}`);
  await expect(festivalCard).toContainText('Konstanz');
  await expect(festivalCard).toContainText('Festival');
  await expect(festivalCard).toContainText(`Weight ${festival.event_weight}`);

  const partyCard = events.eventButton(party.event_name);
  await expect(partyCard).toContainText('15.07.2031');
  await expect(partyCard).toContainText('Party');
  await expect(partyCard).toContainText('No location');
  await expect(partyCard).toContainText(`Weight ${party.event_weight}`);

  // Everything the server lists is on the screen.
  const all = await listEvents(request);
  await expect(events.list.getByRole('listitem')).toHaveCount(all.length);
});

test('Add Event validates, then creates the event with the chosen time zone', async ({ page, request }) => {
  const events = new EventsPage(page);
  await events.goto();
  await events.addButton.click();
  await expect(events.form).toBeVisible();
  // The browser's time zone is preselected.
  await expect(events.timezoneSelect).toHaveValue('Europe/Berlin');

  await events.nameInput.fill('   ');
  await events.saveButton.click();
  await expect(events.form.getByText('Event name is required')).toBeVisible();
  await expect(events.nameInput).toHaveAttribute('aria-invalid', 'true');

  const name = unique('Harbour Swing');
  await events.nameInput.fill(name);
  await events.startInput.fill('2031-08-20');
  await events.endInput.fill('2031-08-18');
  await events.saveButton.click();
  await expect(events.form.getByText('End date must not be before the start date')).toBeVisible();
  await expect(events.form.getByText('Event name is required')).toBeHidden();

  await events.endInput.fill('2031-08-23');
  await events.locationInput.fill('Hamburg');
  await events.festivalRadio.check();
  await events.timezoneSelect.selectOption('America/New_York');
  await events.saveButton.click();
  await expect(events.form).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: `Event "${name}" was created.` })).toBeVisible();

  const card = events.eventButton(name);
  await expect(card).toContainText('20.08.2031 – 23.08.2031');
  await expect(card).toContainText('Hamburg');
  await expect(card).toContainText('Festival');

  const created = (await listEvents(request)).find((event) => event.event_name === name);
  expect(created).toMatchObject({
    start_date: '2031-08-20',
    end_date: '2031-08-23',
    location: 'Hamburg',
    is_festival: true,
    timezone: 'America/New_York',
  });
});

test("a refused save shows the server's message and keeps the form", async ({ page }) => {
  await page.route('**/api/events/', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 409,
          json: { message: 'An event with this name already exists on these dates' },
        })
      : route.fallback(),
  );
  const events = new EventsPage(page);
  await events.goto();
  await events.addButton.click();
  await events.nameInput.fill(unique('Refused'));
  await events.saveButton.click();
  await expect(events.form.getByRole('alert')).toHaveText(
    'An event with this name already exists on these dates',
  );
  await expect(events.form).toBeVisible();
  await events.cancelButton.click();
  await expect(events.form).toBeHidden();
});

test('an event opens its details, a way to its analytics, and says when it has no socials', async ({
  page,
  request,
}) => {
  const event = await createEvent(request, {
    event_name: unique('Quiet Night'),
    start_date: '2031-09-05',
    end_date: '2031-09-06',
    location: 'Leipzig',
  });
  const events = new EventsPage(page);
  await events.goto();
  await events.eventButton(event.event_name).click();
  const dialog = events.eventDialog(event.event_name);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('05.09.2031 – 06.09.2031');
  await expect(dialog).toContainText('Leipzig');
  await expect(dialog).toContainText('Party');
  await expect(dialog).toContainText(event.timezone);
  await expect(dialog.getByText('No socials recorded for this event')).toBeVisible();

  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();

  await events.eventButton(event.event_name).click();
  await dialog.getByRole('button', { name: 'View Analytics' }).click();
  await expect(page).toHaveURL(`/analytics?eventId=${event.event_id}`);
});

test("a failed load says 'Failed to fetch events' with the server's message, and Retry recovers", async ({
  page,
}) => {
  let isFailing = true;
  await page.route(
    (url) => url.pathname === '/api/events/',
    (route) =>
      isFailing
        ? route.fulfill({ status: 500, json: { message: 'Database connection lost' } })
        : route.fallback(),
  );
  const events = new EventsPage(page);
  await events.goto();
  const card = page.getByRole('alert').filter({ hasText: 'Failed to fetch events' });
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card).toContainText('Database connection lost');
  isFailing = false;
  await card.getByRole('button', { name: 'Retry' }).click();
  await expect(events.list).toBeVisible();
});

test('the header shows Events and the page links to Event Review', async ({ page }) => {
  const events = new EventsPage(page);
  await events.goto();
  await expect(page.getByRole('banner').getByRole('heading', { level: 1 })).toHaveText('Events');
  await page.getByRole('link', { name: 'Event Review' }).click();
  await expect(page).toHaveURL('/events/review');
  await expect(page.getByRole('heading', { name: 'Event Review', exact: true })).toBeVisible();
});
