import { expect, test } from './fixtures.js';
import { getJson, readResponse, trackPageErrors } from './pages/library-api.js';
import { type ApiSettings, NUMBER_LABELS, type NumericSetting, SettingsPage } from './pages/settings-page.js';

const FESTIVAL_MESSAGE = 'Festival weight must be greater than or equal to party weight';
const EDITABLE = ['download_enabled', ...(Object.keys(NUMBER_LABELS) as NumericSetting[])] as const;

let pageErrors: Error[] = [];
let original: ApiSettings;

test.beforeEach(async ({ page, request }) => {
  pageErrors = trackPageErrors(page);
  original = (await getJson<ApiSettings>(request, '/api/settings')).body;
});

// Settings persist on the server: every test leaves them as it found them.
test.afterEach(async ({ request }) => {
  const body = Object.fromEntries(EDITABLE.map((key) => [key, original[key]]));
  const response = await request.put('/api/settings', { data: body });
  expect(response.ok(), await response.text()).toBe(true);
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

test('the form shows every setting of the server with its range', async ({ page }) => {
  const settings = new SettingsPage(page);
  await settings.goto();

  await expect(settings.heading).toBeVisible();
  for (const key of Object.keys(NUMBER_LABELS) as NumericSetting[]) {
    await expect(settings.field(key), key).toHaveValue(String(original[key]));
  }
  await expect(settings.field('festival_weight')).toHaveAttribute('min', '1');
  await expect(settings.field('festival_weight')).toHaveAttribute('max', '100');
  await expect(settings.field('download_priority_threshold')).toHaveAttribute('max', '1000');
  await expect(settings.field('minimum_plays_to_download')).toHaveAttribute('min', '1');
  await expect(settings.field('minimum_plays_to_download')).toHaveAttribute('max', '50');
  await expect(page.getByText('Range 1-100, default 12')).toBeVisible();
  await expect(settings.downloadsToggle).toBeChecked({ checked: original.download_enabled });
  // Read-only values are shown, not editable.
  await expect(
    settings.readOnly.getByText(String(original.max_downloads_per_day), { exact: true }),
  ).toBeVisible();
  await expect(
    settings.readOnly.getByText(original.tor_enabled ? 'Enabled' : 'Disabled', { exact: true }),
  ).toBeVisible();
  // The e2e server has no cloud recogniser configured: the screen names what to set.
  expect(original.cloud_recognizers).toEqual([]);
  await expect(settings.readOnly).toContainText('Not configured (ACRCLOUD_HOST');
  await expect(settings.readOnly.getByRole('spinbutton')).toHaveCount(0);
});

test('a festival weight below the party weight is refused before anything is sent', async ({ page }) => {
  const settings = new SettingsPage(page);
  let puts = 0;
  page.on('request', (request) => {
    if (request.method() === 'PUT' && new URL(request.url()).pathname === '/api/settings') puts++;
  });
  await settings.goto();

  await settings.field('party_weight').fill('20');
  await settings.field('festival_weight').fill('10');
  await settings.saveButton.click();

  await expect(settings.alert).toHaveText(FESTIVAL_MESSAGE);
  expect(puts).toBe(0);
  await expect(settings.successMessage).toBeHidden();

  // Equal weights are allowed.
  await settings.field('festival_weight').fill('20');
  await settings.saveButton.click();
  await expect(settings.successMessage).toBeVisible();
  await expect(settings.alert).toHaveCount(0);
  expect(puts).toBe(1);
});

test('saving persists the values, the success message goes after 3 s, a reload shows them', async ({
  page,
  request,
}) => {
  const settings = new SettingsPage(page);
  await settings.goto();

  const minimumPlays = original.minimum_plays_to_download === 7 ? '8' : '7';
  const festival = original.festival_weight === 15.5 ? '16' : '15.5';
  await settings.field('minimum_plays_to_download').fill(minimumPlays);
  await settings.field('festival_weight').fill(festival);
  await settings.downloadsToggle.setChecked(!original.download_enabled);

  const put = page.waitForRequest(
    (r) => r.method() === 'PUT' && new URL(r.url()).pathname === '/api/settings',
  );
  await settings.saveButton.click();
  const sent = (await put).postDataJSON() as Record<string, unknown>;
  // The seven editable fields, and nothing read-only.
  expect(Object.keys(sent).sort()).toEqual([...EDITABLE].sort());
  expect(sent.minimum_plays_to_download).toBe(Number(minimumPlays));

  await expect(settings.successMessage).toBeVisible();
  // It hides itself after 3 s (settings-page.tsx); the budget leaves a loaded browser room.
  await expect(settings.successMessage).toBeHidden({ timeout: 15_000 });

  const stored = (await getJson<ApiSettings>(request, '/api/settings')).body;
  expect(stored.minimum_plays_to_download).toBe(Number(minimumPlays));
  expect(stored.festival_weight).toBe(Number(festival));
  expect(stored.download_enabled).toBe(!original.download_enabled);

  await page.reload();
  await expect(settings.field('minimum_plays_to_download')).toHaveValue(minimumPlays);
  await expect(settings.field('festival_weight')).toHaveValue(festival);
  await expect(settings.downloadsToggle).toBeChecked({ checked: !original.download_enabled });
});

test('the browser keeps values inside their range', async ({ page }) => {
  const settings = new SettingsPage(page);
  let puts = 0;
  page.on('request', (request) => {
    if (request.method() === 'PUT') puts++;
  });
  await settings.goto();
  await settings.field('minimum_plays_to_download').fill('80');
  await settings.saveButton.click();

  await expect(settings.field('minimum_plays_to_download').and(page.locator(':out-of-range'))).toHaveCount(1);
  expect(puts).toBe(0);
  await expect(settings.successMessage).toBeHidden();
});

test("an out-of-range value that gets past the browser shows the server's message", async ({
  page,
  request,
}) => {
  const settings = new SettingsPage(page);
  await settings.goto();
  await expect(settings.field('minimum_plays_to_download')).toHaveValue(
    String(original.minimum_plays_to_download),
  );

  // What the server answers to this value, asked directly.
  const direct = await readResponse(
    await request.put('/api/settings', { data: { minimum_plays_to_download: 80 } }),
  );
  expect(direct.status).toBe(400);

  // Bypass the client check: drop the input's maximum, so the browser lets 80 through.
  await settings.field('minimum_plays_to_download').evaluate((input) => input.removeAttribute('max'));
  await settings.field('minimum_plays_to_download').fill('80');
  const response = page.waitForResponse(
    (r) => r.request().method() === 'PUT' && new URL(r.url()).pathname === '/api/settings',
  );
  await settings.saveButton.click();
  expect((await response).status()).toBe(400);

  await expect(settings.alert).toHaveText(direct.message);
  await expect(settings.successMessage).toBeHidden();
  await expect(settings.saveButton).toHaveText('Save Settings');
});

test("a failed save without a server message says 'Failed to update settings'", async ({ page }) => {
  const settings = new SettingsPage(page);
  await settings.goto();
  await expect(settings.field('party_weight')).toBeVisible();
  // The connection drops: there is no server message to show.
  await page.route('**/api/settings', (route) =>
    route.request().method() === 'PUT' ? route.abort('connectionreset') : route.continue(),
  );
  await settings.saveButton.click();
  await expect(settings.alert).toHaveText('Failed to update settings');
});

test('the save button says Saving... while the request runs', async ({ page }) => {
  const settings = new SettingsPage(page);
  await settings.goto();
  await expect(settings.field('party_weight')).toBeVisible();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/settings', async (route) => {
    if (route.request().method() !== 'PUT') return route.continue();
    await held;
    return route.continue();
  });
  await settings.saveButton.click();
  await expect(settings.saveButton).toHaveText('Saving...');
  await expect(settings.saveButton).toBeDisabled();
  release();
  await expect(settings.successMessage).toBeVisible();
  await expect(settings.saveButton).toHaveText('Save Settings');
});

test("a failed load says 'Error loading settings' with the server's message", async ({ page }) => {
  await page.route('**/api/settings', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'Database is starting' }),
    }),
  );
  const settings = new SettingsPage(page);
  await settings.goto();
  // One retry (the app's query default), then the error.
  await expect(settings.alert).toContainText('Error loading settings: Database is starting', {
    timeout: 15_000,
  });
});
