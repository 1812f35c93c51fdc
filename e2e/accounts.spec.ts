import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { AppShell } from './pages/app-shell.js';
import { EventsPage } from './pages/events-page.js';
import { LoginPage } from './pages/login-page.js';
import { type ApiRecording, makeWav, RecordingsPage, uploadChunk } from './pages/recordings-page.js';
import { AccountSettings, SettingsPage } from './pages/settings-page.js';
import { baseURL, FRESH_ADMIN, SIGNED_OUT } from './servers.js';

/**
 * Accounts on the fresh server (docs/product.md "Signing in, roles and the admin's Settings"): an
 * admin makes a dj and a viewer in Settings and signs out; each signs in through the login page
 * and sees what its role may use; a wrong password gets the server's answer; a device token is
 * shown once, works, and stops working when revoked. The tests run in order: the accounts of the
 * first are used by the next.
 */
test.describe.configure({ mode: 'serial' });

const suffix = randomUUID().slice(0, 8);
const DJ = { name: `dj-${suffix}`, password: `dj password ${suffix}` };
const VIEWER = { name: `viewer-${suffix}`, password: `viewer password ${suffix}` };

interface Session {
  context: BrowserContext;
  page: Page;
}

/** A browser of its own, signed in through the login page it is sent to when opening `path`. */
async function signInAs(browser: Browser, account: { name: string; password: string }, path: string) {
  const context = await browser.newContext({ storageState: SIGNED_OUT });
  const page = await context.newPage();
  await page.goto(path);
  await expect(page).toHaveURL(`${baseURL}/login?next=${encodeURIComponent(path)}`);
  await new LoginPage(page).signIn(account.name, account.password);
  await expect(page).toHaveURL(`${baseURL}${path}`);
  await expect(page.getByRole('banner')).toContainText(account.name);
  return { context, page } satisfies Session;
}

/** A browser recording of today made through the API by whoever `request` is signed in as. */
async function browserRecording(request: Parameters<typeof uploadChunk>[0]): Promise<ApiRecording> {
  return uploadChunk(request, {
    session_id: `accounts-${randomUUID()}`,
    chunk_number: 0,
    duration_seconds: 2,
    source: 'web_browser',
  });
}

let adminRecording: ApiRecording;

test('an admin creates a dj and a viewer in Settings, then signs out', async ({ browser }) => {
  const { context, page } = await signInAs(browser, FRESH_ADMIN, '/settings');
  const accounts = new AccountSettings(page);
  await expect(new SettingsPage(page).saveButton).toBeVisible();

  for (const [account, role] of [
    [DJ, 'dj'],
    [VIEWER, 'viewer'],
  ] as const) {
    await accounts.createUser(account.name, role, account.password);
    await expect(accounts.users.getByRole('status')).toHaveText(
      new RegExp(`Created ${account.name} \\(${role}\\)`),
    );
    await expect(
      accounts.userRow(account.name).getByRole('combobox', { name: `Role of ${account.name}` }),
    ).toHaveValue(role);
  }

  // The audit log says who made them.
  await accounts.audit.getByLabel('Kind', { exact: true }).fill('users');
  const created = accounts.audit.getByRole('row').filter({ hasText: 'Create an account' });
  await expect(created.first()).toContainText(FRESH_ADMIN.name);
  await expect(accounts.audit.getByRole('row').filter({ hasText: 'session' })).toHaveCount(0);

  await new AppShell(page).signOutButton.click();
  await expect(page).toHaveURL(`${baseURL}/login`);
  await expect(new LoginPage(page).heading).toBeVisible();
  // Signed out, the app's screens lead back to the login page.
  await page.goto('/settings');
  await expect(page).toHaveURL(`${baseURL}/login?next=%2Fsettings`);
  await context.close();
});

test('a viewer reads Analytics, and sees no Record and no Delete', async ({ browser, page, request }) => {
  adminRecording = await browserRecording(request);
  // The admin, who made it, has Delete on it: the viewer's screen below differs by role only.
  const adminView = new RecordingsPage(page);
  await adminView.goto();
  const adminItem = adminView.today.getByRole('listitem', { name: adminRecording.filename });
  await expect(adminItem.getByRole('button', { name: `Delete ${adminRecording.filename}` })).toBeVisible();
  await expect(adminView.startButton).toBeVisible();

  const { context, page: viewerPage } = await signInAs(browser, VIEWER, '/analytics');
  const shell = new AppShell(viewerPage);
  await expect(shell.title).toHaveText('Analytics');
  await expect(viewerPage.getByRole('banner')).toContainText('viewer');
  await expect(viewerPage.getByRole('main').getByRole('alert')).toHaveCount(0);

  const recordings = new RecordingsPage(viewerPage);
  await recordings.goto();
  const item = recordings.today.getByRole('listitem', { name: adminRecording.filename });
  await expect(item).toContainText(`by ${FRESH_ADMIN.name}`);
  await expect(recordings.recorder).toHaveCount(0);
  await expect(viewerPage.getByRole('button', { name: 'Start Recording' })).toHaveCount(0);
  await expect(viewerPage.getByRole('main').getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  await expect(viewerPage.getByRole('button', { name: 'Assign Event' })).toHaveCount(0);
  // The maker filter offers the admin, and filters the list by it.
  await recordings.page.getByLabel('Made by').selectOption({ label: FRESH_ADMIN.name });
  await expect(recordings.listItem(adminRecording.filename)).toBeVisible();

  const events = new EventsPage(viewerPage);
  await events.goto();
  await expect(viewerPage.getByRole('link', { name: 'Event Review' })).toBeVisible();
  await expect(events.addButton).toHaveCount(0);
  await expect(viewerPage.getByRole('main').getByRole('button', { name: /^Delete/ })).toHaveCount(0);

  // Settings: read, not changed; no accounts, tokens or audit log; the own password.
  const settings = new SettingsPage(viewerPage);
  await settings.goto();
  await expect(viewerPage.getByRole('region', { name: 'Settings (read-only for your role)' })).toBeVisible();
  await expect(settings.saveButton).toHaveCount(0);
  const accounts = new AccountSettings(viewerPage);
  await expect(accounts.changePassword).toBeVisible();
  await expect(accounts.users).toHaveCount(0);
  await expect(accounts.tokens).toHaveCount(0);
  await expect(accounts.audit).toHaveCount(0);
  await context.close();
});

test('a dj signs in and may record, and deletes only its own recordings', async ({ browser }) => {
  const { context, page } = await signInAs(browser, DJ, '/recordings');
  await expect(page.getByRole('banner')).toContainText('dj');
  const recordings = new RecordingsPage(page);
  await expect(recordings.startButton).toBeVisible();

  // A recording of the dj's own, uploaded with the dj's session (a browser sends its Origin itself).
  const sessionId = `accounts-dj-${randomUUID()}`;
  const upload = await context.request.post('/api/recordings/upload', {
    headers: { origin: baseURL },
    multipart: {
      metadata: JSON.stringify({
        session_id: sessionId,
        chunk_number: 0,
        duration_seconds: 2,
        source: 'web_browser',
      }),
      audio_file: { name: `${sessionId}.wav`, mimeType: 'audio/wav', buffer: makeWav(2) },
    },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  const own = ((await upload.json()) as { recording: ApiRecording }).recording;
  await page.reload();
  const ownItem = recordings.today.getByRole('listitem', { name: own.filename });
  await expect(ownItem).toContainText(`by ${DJ.name}`);
  await expect(ownItem.getByRole('button', { name: `Delete ${own.filename}` })).toBeVisible();
  const adminItem = recordings.today.getByRole('listitem', { name: adminRecording.filename });
  await expect(adminItem).toBeVisible();
  await expect(adminItem.getByRole('button', { name: /^Delete/ })).toHaveCount(0);

  const events = new EventsPage(page);
  await events.goto();
  await expect(events.addButton).toBeVisible();
  await new SettingsPage(page).goto();
  await expect(new SettingsPage(page).saveButton).toHaveCount(0);
  await context.close();
});

test("a wrong password gets the server's message on the login page", async ({ browser }) => {
  const context = await browser.newContext({ storageState: SIGNED_OUT });
  const page = await context.newPage();
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(VIEWER.name, 'not the password');
  await expect(login.alert).toHaveText('The name or the password is wrong');
  await expect(page).toHaveURL(`${baseURL}/login`);
  await expect(login.passwordField).toHaveValue('');
  await context.close();
});

test('a device token is shown once, works, and stops working when revoked', async ({ page, playwright }) => {
  const name = `stage-${suffix}`;
  await new SettingsPage(page).goto();
  const accounts = new AccountSettings(page);
  const form = accounts.createTokenForm;
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Role', { exact: true }).selectOption('dj');
  await form.getByLabel('Expires after (days)').fill('30');
  await form.getByRole('button', { name: 'Create token' }).click();

  await expect(accounts.createdToken).toContainText('it is shown only once');
  const tokenField = accounts.createdToken.getByRole('textbox', { name: 'Token', exact: true });
  await expect(tokenField).toHaveValue(/^wcs_\S{20,}$/);
  const token = await tokenField.inputValue();
  await expect(accounts.createdToken.getByRole('textbox', { name: 'Record from a device with' })).toHaveValue(
    `wcs record --server ${baseURL} --token ${token}`,
  );

  // The token signs a script in, with the role it was given.
  const device = await playwright.request.newContext({
    baseURL,
    storageState: SIGNED_OUT,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  });
  const session = await device.get('/api/auth/session');
  expect(await session.json()).toMatchObject({ identity: { kind: 'token', name, role: 'dj' } });

  // Shown once: gone after Done, and not to be found after a reload.
  await accounts.createdToken.getByRole('button', { name: 'Done, I have copied it' }).click();
  await expect(accounts.createdToken).toHaveCount(0);
  await page.reload();
  const row = accounts.tokenRow(name);
  await expect(row).toContainText('Active');
  await expect(page.locator(`input[value="${token}"]`)).toHaveCount(0);
  await expect(page.getByText(token)).toHaveCount(0);

  await row.getByRole('button', { name: `Revoke the token ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Revoke the token ${name}?` });
  await dialog.getByRole('button', { name: 'Revoke token' }).click();
  await expect(dialog).toBeHidden();
  await expect(accounts.tokens.getByRole('status')).toContainText(`The token ${name} was revoked`);
  await expect(row).toContainText('Revoked');
  await expect(row.getByRole('button', { name: /^Revoke/ })).toHaveCount(0);

  const refused = await device.get('/api/events/');
  expect(refused.status()).toBe(401);
  await device.dispose();
});

test("the last admin cannot become a viewer: the server's refusal is shown", async ({ page, request }) => {
  const users = (await (await request.get('/api/users')).json()) as { name: string; role: string }[];
  // Only then is the refusal certain (and the suite's admin safe).
  expect(users.filter((user) => user.role === 'admin').map((user) => user.name)).toEqual([FRESH_ADMIN.name]);

  await new SettingsPage(page).goto();
  const accounts = new AccountSettings(page);
  const role = accounts
    .userRow(FRESH_ADMIN.name)
    .getByRole('combobox', { name: `Role of ${FRESH_ADMIN.name}` });
  await role.selectOption('viewer');
  await expect(accounts.users.getByRole('alert')).toContainText('would leave no admin');
  await expect(role).toHaveValue('admin');
});
