import { randomBytes } from 'node:crypto';
import { expect, test } from './fixtures.js';
import {
  type CalendarRow,
  calendarHtml,
  EventReviewPage,
  scrape,
  serveCalendar,
} from './pages/event-review-page.js';
import { listEvents } from './pages/events-page.js';
import { createEvent } from './pages/recordings-page.js';

/**
 * Event Review against real scraped events: the spec serves a small calendar page in the shape of
 * the World Swing Dance Council list, and the server's scraper reads it. Names carry a token of
 * this run, so other data (demo data, earlier runs) does not disturb the checks.
 */

/** Letters only: digits would be read as years and dropped by the duplicate matcher. */
const token = Array.from(randomBytes(6), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
const name = (base: string, suffix: string) =>
  `${base} ${token[0]?.toUpperCase()}${token.slice(1)} ${suffix}`;

const ZEPHYR = name('Zephyr', 'Jam');
const AURORA = name('Aurora', 'Swing');
const BOREAL = name('Boreal', 'Classic');
const SOLSTICE = name('Solstice', 'Weekend');
const NIMBUS = name('Nimbus', 'Gala');
const FILLERS = Array.from({ length: 22 }, (_, index) =>
  name('Filler', `Social ${String.fromCharCode(65 + index)}`),
);

const ROWS: CalendarRow[] = [
  { dateText: 'Sep 24 - 28, 2031', name: ZEPHYR, location: 'Berlin, Germany', country: 'DEU' },
  { dateText: 'Oct 3 - 5, 2031', name: AURORA, location: 'Paris, France', country: 'FRA' },
  { dateText: 'Nov 7 - 9, 2031', name: BOREAL, location: 'Oslo, Norway', country: 'NOR' },
  { dateText: 'Dec 5 - 7, 2031', name: SOLSTICE, location: 'Vienna, Austria', country: 'AUT' },
  { dateText: 'TBA 2031', name: NIMBUS, location: 'Reykjavik, Iceland', country: 'ISL' },
  ...FILLERS.map((filler, index) => ({
    dateText: `Mar ${index + 1} - ${index + 2}, 2032`,
    name: filler,
    location: 'Luxembourg City, Luxembourg',
    country: 'LUX',
  })),
];

test.describe.configure({ mode: 'serial' });

const pageErrors: Error[] = [];
test.beforeEach(({ page }) => {
  pageErrors.length = 0;
  page.on('pageerror', (error) => pageErrors.push(error));
});
test.afterEach(() => {
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

let productEventId = 0;

test.beforeAll(async ({ request }) => {
  // The product event Zephyr's scraped listing duplicates: same name, a day apart, same country.
  const product = await createEvent(request, {
    event_name: ZEPHYR,
    start_date: '2031-09-25',
    end_date: '2031-09-28',
    location: 'Berlin',
    country_code: 'DE',
  });
  productEventId = product.event_id;
  const calendar = await serveCalendar(calendarHtml(ROWS));
  try {
    const result = await scrape(request, calendar.url);
    expect(result.inserted).toBe(ROWS.length);
  } finally {
    await calendar.close();
  }
});

test('opens on unreviewed events with the filter options of the scraped data', async ({ page }) => {
  const review = new EventReviewPage(page);
  await review.goto();
  await expect(page.getByRole('banner').getByRole('heading', { level: 1 })).toHaveText('WCS DJ Library');
  await expect(review.status).toHaveValue('unreviewed');
  await expect(review.status.getByRole('option')).toHaveText(['All', 'Unreviewed', 'Reviewed']);
  await expect(review.clearFilters).toBeDisabled();
  await expect(review.year.getByRole('option', { name: '2031' })).toHaveCount(1);
  await expect(review.year.getByRole('option', { name: '2032' })).toHaveCount(1);
  await expect(review.continent.getByRole('option', { name: /^Europe \(\d+\)$/ })).toHaveCount(1);
  await expect(review.country.getByRole('option', { name: /^LU \(\d+\)$/ })).toHaveCount(1);

  await review.year.selectOption('2031');
  await expect(review.clearFilters).toBeEnabled();
  await review.clearFilters.click();
  await expect(review.year).toHaveValue('');
  await expect(review.status).toHaveValue('unreviewed');
  await expect(review.clearFilters).toBeDisabled();
});

test('a card shows what was scraped, and actions only with a parsed date', async ({ page }) => {
  const review = new EventReviewPage(page);
  await review.goto();
  await review.country.selectOption('DE');
  await review.year.selectOption('2031');
  const zephyr = review.card(ZEPHYR);
  await expect(zephyr).toContainText('Sep 24 - 28, 2031');
  await expect(zephyr).toContainText('24.09.2031 – 28.09.2031');
  await expect(zephyr).toContainText('Berlin, Germany');
  await expect(zephyr).toContainText('DE · Europe');
  await expect(zephyr.getByText('Unreviewed', { exact: true })).toBeVisible();
  for (const action of ['Create Event', 'Approve', 'Reject']) {
    await expect(zephyr.getByRole('button', { name: action })).toBeVisible();
  }

  await review.year.selectOption('');
  await review.country.selectOption('IS');
  const nimbus = review.card(NIMBUS);
  await expect(nimbus).toContainText('TBA 2031');
  await expect(nimbus).toContainText('Date could not be parsed');
  await expect(nimbus.getByRole('button')).toHaveCount(0);
});

test('Batch Detect Duplicates reports its result and marks the duplicate', async ({ page }) => {
  const review = new EventReviewPage(page);
  await review.goto();
  const answer = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/scraper/events/batch-detect-duplicates',
  );
  await review.batchButton.click();
  const response = await answer;
  expect(new URL(response.url()).searchParams.get('limit')).toBe('100');
  const result = (await response.json()) as {
    processed: number;
    total_duplicates_found: number;
    events_with_duplicates: number;
  };
  expect(result.events_with_duplicates).toBeGreaterThanOrEqual(1);
  await expect(page.getByRole('status').filter({ hasText: `Checked ${result.processed}` })).toContainText(
    `found ${result.total_duplicates_found} potential`,
  );

  await review.year.selectOption('2031');
  await review.duplicates.selectOption('yes');
  const zephyr = review.card(ZEPHYR);
  const duplicates = zephyr.getByRole('region', { name: 'Potential duplicates' });
  await expect(duplicates).toContainText(ZEPHYR);
  await expect(duplicates).toContainText(/\d+% similar · 1 day apart/);
  await expect(zephyr.getByRole('button', { name: 'Merge' })).toBeVisible();
  await expect(zephyr).toHaveClass(/border-l-warning/);
  await expect(review.card(AURORA)).toHaveCount(0);

  await review.duplicates.selectOption('no');
  const aurora = review.card(AURORA);
  await expect(aurora).toHaveClass(/border-l-info/);
  await expect(aurora.getByRole('button', { name: 'Merge' })).toHaveCount(0);
});

test('Create Event sends only the changed fields and creates the event', async ({ page, request }) => {
  const review = new EventReviewPage(page);
  await review.goto();
  await review.year.selectOption('2031');
  await review.card(AURORA).getByRole('button', { name: 'Create Event' }).click();
  const dialog = review.dialog(`Create Event: ${AURORA}`);
  const nameInput = dialog.getByRole('textbox', { name: 'Event Name' });
  await expect(nameInput).toHaveValue(AURORA);
  await expect(dialog.getByRole('textbox', { name: 'Location' })).toHaveValue('Paris, France');
  const renamed = `${AURORA} 2031`;
  await nameInput.fill(renamed);
  await dialog.getByRole('textbox', { name: 'Notes (optional)' }).fill('Confirmed with the organisers');

  const sent = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/scraper/events/create');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  const body = (await sent).postDataJSON() as Record<string, unknown>;
  expect(body).toMatchObject({ override_name: renamed, notes: 'Confirmed with the organisers' });
  expect(body).not.toHaveProperty('override_location');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: `Event "${renamed}" was created.` })).toBeVisible();
  await expect(review.card(AURORA)).toHaveCount(0);
  expect((await listEvents(request, 1000)).some((event) => event.event_name === renamed)).toBe(true);

  await review.status.selectOption('reviewed');
  const created = review.card(AURORA);
  await expect(created.getByText('Created', { exact: true })).toBeVisible();
  await expect(created).toHaveClass(/border-l-neutral/);
  await expect(created).toContainText('Reviewer notes: Confirmed with the organisers');
  await expect(created.getByRole('button')).toHaveCount(0);
});

test('Merge needs an existing event, and shows Processing... while it runs', async ({ page }) => {
  const review = new EventReviewPage(page);
  await review.goto();
  await review.year.selectOption('2031');
  await review.card(ZEPHYR).getByRole('button', { name: 'Merge' }).click();
  const dialog = review.dialog(`Merge Event: ${ZEPHYR}`);
  const confirm = dialog.getByRole('button', { name: 'Confirm' });
  await expect(confirm).toBeDisabled();
  const target = dialog.getByRole('combobox', { name: 'Merge with existing event' });
  await expect(
    target.getByRole('option', { name: new RegExp(`^${ZEPHYR} .*potential duplicate$`) }),
  ).toHaveCount(1);
  await target.selectOption(String(productEventId));
  await expect(confirm).toBeEnabled();

  // Held back until the pending state has been seen (a fixed second could pass unseen on a loaded machine).
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/scraper/events/review', async (route) => {
    await released;
    await route.fallback();
  });
  await confirm.click();
  await expect(dialog.getByRole('button', { name: 'Processing...' })).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  release();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole('status').filter({ hasText: `"${ZEPHYR}" was merged into "${ZEPHYR}"` }),
  ).toBeVisible();

  await review.status.selectOption('reviewed');
  await expect(review.card(ZEPHYR).getByText('Merged', { exact: true })).toBeVisible();
});

test('Reject with notes, and a refused Approve shows the server message', async ({ page }) => {
  const review = new EventReviewPage(page);
  await review.goto();
  await review.year.selectOption('2031');
  await review.card(BOREAL).getByRole('button', { name: 'Reject' }).click();
  const rejectDialog = review.dialog(`Reject Event: ${BOREAL}`);
  await rejectDialog.getByRole('textbox', { name: 'Notes (optional)' }).fill('Not a WCS event');
  await rejectDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(rejectDialog).toBeHidden();

  await page.route('**/api/scraper/events/review', (route) =>
    route.fulfill({ status: 503, json: { message: 'Review store is read-only right now' } }),
  );
  await review.card(SOLSTICE).getByRole('button', { name: 'Approve' }).click();
  const approveDialog = review.dialog(`Approve Event: ${SOLSTICE}`);
  await approveDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(approveDialog.getByRole('alert')).toHaveText('Review store is read-only right now');
  await page.unroute('**/api/scraper/events/review');
  await approveDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(approveDialog).toBeHidden();

  await review.status.selectOption('reviewed');
  const rejected = review.card(BOREAL);
  await expect(rejected.getByText('Rejected', { exact: true })).toBeVisible();
  await expect(rejected).toHaveClass(/border-l-error/);
  await expect(rejected).toContainText('Reviewer notes: Not a WCS event');
  const approved = review.card(SOLSTICE);
  await expect(approved.getByText('Approved', { exact: true })).toBeVisible();
  await expect(approved).toHaveClass(/border-l-success/);

  // Cancel leaves an event as it was.
  await review.status.selectOption('unreviewed');
  await review.year.selectOption('2032');
  const filler = review.card(FILLERS[0]!);
  await filler.getByRole('button', { name: 'Reject' }).click();
  const dialog = review.dialog(`Reject Event: ${FILLERS[0]}`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(filler.getByText('Unreviewed', { exact: true })).toBeVisible();
});

test('pages of 20 with Previous and Next', async ({ page, request }) => {
  const response = await request.get('/api/scraper/events', {
    params: { year: '2032', country_code: 'LU', is_reviewed: 'false', limit: '1' },
  });
  const { total } = (await response.json()) as { total: number };
  expect(total).toBeGreaterThanOrEqual(FILLERS.length);
  const pages = Math.ceil(total / 20);
  const review = new EventReviewPage(page);
  await review.goto();
  await review.year.selectOption('2032');
  await review.country.selectOption('LU');
  await expect(review.pagination).toContainText(`Page 1 of ${pages}`);
  await expect(review.cards).toHaveCount(20);
  const previous = review.pagination.getByRole('button', { name: 'Previous' });
  const next = review.pagination.getByRole('button', { name: 'Next' });
  await expect(previous).toBeDisabled();
  await next.click();
  await expect(review.pagination).toContainText(`Page 2 of ${pages}`);
  await expect(review.cards).toHaveCount(Math.min(20, total - 20));
  await expect(previous).toBeEnabled();
  await previous.click();
  await expect(review.pagination).toContainText(`Page 1 of ${pages}`);
});

test('no match says so; a failed load shows the server message', async ({ page }) => {
  const review = new EventReviewPage(page);
  await review.goto();
  await review.year.selectOption('2031');
  await review.country.selectOption('DE');
  await review.hasSongs.selectOption('yes');
  await expect(page.getByText('No events found matching your filters.')).toBeVisible();
  await review.clearFilters.click();
  await expect(review.hasSongs).toHaveValue('all');

  await page.route(
    (url) => url.pathname === '/api/scraper/events',
    (route) => route.fulfill({ status: 500, json: { message: 'Scraper tables are locked' } }),
  );
  await review.status.selectOption('all');
  const card = page.getByRole('alert').filter({ hasText: 'Failed to load scraped events' });
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card).toContainText('Scraper tables are locked');
});
