import { expect, test } from '@playwright/test';
import { trackPageErrors } from './pages/library-api.js';
import { PlaylistImportPage } from './pages/playlist-import-page.js';

const YEARS = [2025, 2024, 2023, 2022, 2021, 2020, 2019, 2018, 2017];

let pageErrors: Error[] = [];
let apiCalls: string[] = [];
test.beforeEach(({ page }) => {
  pageErrors = trackPageErrors(page);
  apiCalls = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    // The shell asks who is signed in before any screen; the screen itself calls nothing.
    if (pathname.startsWith('/api/') && pathname !== '/api/auth/session') apiCalls.push(request.url());
  });
});
test.afterEach(() => {
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
  // The import is simulated: the screen never calls the server.
  expect(apiCalls, 'calls to the API').toEqual([]);
});

test('the 48 built-in playlists, grouped by year (newest first) and night', async ({ page }) => {
  const screen = new PlaylistImportPage(page);
  await screen.goto();

  await expect(screen.heading).toBeVisible();
  await expect(screen.tileValue('Total Playlists')).toHaveText('48');
  await expect(screen.checkboxes).toHaveCount(48);
  const withTime = await screen.list.getByText('Has Time', { exact: true }).count();
  expect(withTime).toBeGreaterThan(0);
  await expect(screen.tileValue('Precise Timestamps')).toHaveText(String(withTime));
  await expect(screen.tileValue('Estimated Timestamps')).toHaveText(String(48 - withTime));
  await expect(screen.tileValue('Selected')).toHaveText('0');

  // Years descending.
  const yearHeadings = screen.list.getByRole('heading', { level: 3 });
  await expect(yearHeadings).toHaveText(YEARS.map(String));
  // Nights in festival order within a year, sets by start time within a night.
  const y2024 = screen.year(2024);
  await expect(y2024.getByRole('heading', { level: 4 })).toHaveText([
    'Wednesday',
    'Friday',
    'Saturday',
    'Sunday',
  ]);
  const saturday = y2024.getByRole('region', { name: 'Saturday' });
  await expect(saturday.getByRole('checkbox')).toHaveCount(3);
  await expect(saturday.getByRole('listitem').first()).toContainText('US Open 2024 Saturday 11:30 pm-2 am');
  await expect(saturday.getByRole('listitem').first()).toContainText('starts 23:30');

  // An entry: owner, song count, start time, window badge and Has Time.
  const example = screen.list.getByRole('listitem').filter({ hasText: "Swingtacular '23 Friday 10:30-1 am" });
  await expect(example).toContainText('DJ Tess Oduya');
  await expect(example).toContainText('42 songs');
  await expect(example).toContainText('starts 22:30');
  await expect(example.getByText('22-00', { exact: true })).toBeVisible();
  await expect(example.getByText('Has Time', { exact: true })).toBeVisible();
  const lateNight = screen.list
    .getByRole('listitem')
    .filter({ hasText: 'Boogie by the Bay 2019 Saturday late night' });
  await expect(lateNight).toContainText('starts 02:00');
  await expect(lateNight.getByText('02-04', { exact: true })).toBeVisible();
  // Without a time in its name: the 22:00 default, no Has Time badge.
  const noTime = screen.list.getByRole('listitem').filter({ hasText: 'MadJam 2025 Thursday' });
  await expect(noTime).toContainText('no start time (22:00 assumed)');
  await expect(noTime.getByText('Has Time', { exact: true })).toHaveCount(0);
});

test('Select All picks only the playlists with a time; Clear empties the selection', async ({ page }) => {
  const screen = new PlaylistImportPage(page);
  await screen.goto();
  await expect(screen.startImportButton).toBeDisabled();

  await screen.selectAllButton.click();
  const withTime = await screen.list.getByText('Has Time', { exact: true }).count();
  await expect(screen.tileValue('Selected')).toHaveText(String(withTime));
  await expect(screen.checkbox('MadJam 2025 Thursday')).not.toBeChecked();
  await expect(screen.checkbox("Swingtacular '23 Friday 10:30-1 am")).toBeChecked();
  const hasTimeBadge = page.getByText('Has Time', { exact: true });
  const items = screen.list.getByRole('listitem');
  await expect(items.filter({ has: hasTimeBadge }).getByRole('checkbox', { checked: false })).toHaveCount(0);
  await expect(items.filter({ hasNot: hasTimeBadge }).getByRole('checkbox', { checked: true })).toHaveCount(
    0,
  );
  await expect(screen.list.getByRole('checkbox', { checked: true })).toHaveCount(withTime);
  await expect(screen.startImportButton).toBeEnabled();

  await screen.clearButton.click();
  await expect(screen.tileValue('Selected')).toHaveText('0');
  await expect(screen.list.getByRole('checkbox', { checked: true })).toHaveCount(0);
  await expect(screen.startImportButton).toBeDisabled();
});

test('Start Import runs 500 ms per playlist with a percentage, then is done', async ({ page }) => {
  const screen = new PlaylistImportPage(page);
  await screen.goto();
  const chosen = [
    "Swingtacular '23 Friday 10:30-1 am",
    'MadJam 2025 Thursday',
    'US Open 2017 Friday late night',
    "Budafest '17 Friday 10-12:30 am",
  ];
  for (const name of chosen) await screen.checkbox(name).check();
  await expect(screen.tileValue('Selected')).toHaveText('4');

  const started = Date.now();
  await screen.startImportButton.click();
  // Four playlists: 0, 25, 50 and 75 percent, 500 ms each, then done.
  await expect(screen.startImportButton).toHaveText(/^Importing\.\.\. (0|25|50|75)%$/);
  await expect(screen.startImportButton).toBeDisabled();
  await expect(screen.selectAllButton).toBeDisabled();
  await expect(screen.progressStatus).toContainText(/(25|50|75)%/);
  await expect(screen.progress).toHaveAttribute('value', /^(25|50|75)$/);
  await expect(screen.progressStatus).toContainText('Import complete: 4 playlists imported');
  await expect(screen.progressStatus).toContainText('100%');
  await expect(screen.progress).toHaveAttribute('value', '100');
  expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);

  await expect(screen.startImportButton).toHaveText('Start Import');
  await expect(screen.startImportButton).toBeEnabled();
  // The results: the precise one starts at its time; the other at 22:00, estimated.
  const results = page.getByRole('table');
  const precise = results.getByRole('row').filter({ hasText: "Swingtacular '23 Friday 10:30-1 am" });
  await expect(precise.getByRole('cell').nth(1)).toHaveText('22:30');
  // 42 songs × 3:45 = 157.5 minutes after 22:30.
  await expect(precise.getByRole('cell').nth(2)).toHaveText('01:07');
  await expect(precise).toContainText('Precise');
  const estimated = results.getByRole('row').filter({ hasText: 'MadJam 2025 Thursday' });
  await expect(estimated.getByRole('cell').nth(1)).toHaveText('22:00');
  await expect(estimated).toContainText('Estimated');
});

test('Run Demo selects the newest sets with a time and imports them', async ({ page }) => {
  const screen = new PlaylistImportPage(page);
  await screen.goto();
  await expect(screen.checkboxes).toHaveCount(48);
  const newest = screen.year(2025);
  const newestWithTime = await newest.getByText('Has Time', { exact: true }).count();
  expect(newestWithTime).toBeGreaterThan(1);

  await screen.runDemoButton.click();
  await expect(screen.tileValue('Selected')).toHaveText(String(newestWithTime));
  await expect(screen.runDemoButton).toBeDisabled();
  await expect(screen.progressStatus).toContainText(`Import complete: ${newestWithTime} playlists imported`, {
    timeout: newestWithTime * 500 + 5_000,
  });
  await expect(screen.progressStatus).toContainText('100%');
});

test('Import from URL only says that it is not implemented yet', async ({ page }) => {
  const screen = new PlaylistImportPage(page);
  await screen.goto();
  const messages: string[] = [];
  page.on('dialog', (dialog) => {
    messages.push(dialog.message());
    void dialog.accept();
  });
  await screen.urlInput.fill('https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M');
  await screen.importFromUrlButton.click();
  await expect.poll(() => messages.length).toBe(1);
  expect(messages[0]).toContain('not yet implemented');
  expect(messages[0]).toContain('pre-loaded playlists');
  await expect(screen.tileValue('Selected')).toHaveText('0');
});
