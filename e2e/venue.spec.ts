import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { RecordingsPage } from './pages/recordings-page.js';
import { fakeMicrophoneLaunchOptions, writeTaggedFlac } from './support/browser.js';
import { synthSong, wav } from './support/synth-audio.js';

/**
 * At the venue (issue 19, docs/security.md): a server started with `wcs serve --public` on a fresh
 * data folder answers over TLS with its self-signed certificate on the machine's network address.
 * Its console's one-time setup link creates the first admin, the admin makes a dj account, and the
 * dj, signed in through the login page on the network address (a secure context only because of
 * TLS), records with the fake microphone and sees the library song recognised. The recording is
 * the dj's.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHUNK_MS = 8_000;
const RATE = 48_000;
const title = 'Venue Groove';
const artist = 'Hall Band';
const ADMIN = { name: 'venue-admin', password: 'venue admin password' };
const DJ = { name: 'dj-ana', password: 'dj ana password' };

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-e2e-venue-'));
// As root, the embedded PostgreSQL runs as the postgres user, who must reach inside.
fs.chmodSync(dataDir, 0o755);
const microphoneFile = path.join(dataDir, 'venue-microphone.wav');
fs.writeFileSync(microphoneFile, wav(synthSong(5151, 40, RATE), RATE));
const libraryFolder = path.join(dataDir, 'library', 'venue');
fs.mkdirSync(libraryFolder, { recursive: true });
writeTaggedFlac(microphoneFile, libraryFolder, { title, artist });

test.use({ launchOptions: fakeMicrophoneLaunchOptions(microphoneFile) });

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The address a phone on the hall's network would open: the machine's first IPv4, else loopback. */
function networkAddress(): string {
  const found = Object.values(os.networkInterfaces())
    .flat()
    .find((address) => address && !address.internal && address.family === 'IPv4');
  return found?.address ?? '127.0.0.1';
}

let server: ChildProcess | undefined;
let output = '';

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    // SIGTERM lets the server stop its embedded PostgreSQL.
    server.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('at the venue: the setup link makes the admin, a dj records over HTTPS and sees the song recognised', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const port = await freePort();
  server = spawn(
    process.execPath,
    ['apps/server/bin/wcs.js', 'serve', '--public', '--port', String(port), '--data-dir', dataDir],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: '',
        WCS_PG_PORT: '0',
        WCS_LIBRARY_ROOTS: path.join(dataDir, 'library'),
        WCS_SCRAPER_SCHEDULE: 'off',
        WCS_WEB_DIST: process.env.E2E_WEB_DIST ?? path.join(repoRoot, 'apps/web/dist'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  server.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  server.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await expect
    .poll(() => /https:\/\/[^/\s]+\/setup\?token=([\w-]+)/.exec(output)?.[1], { timeout: 180_000 })
    .toBeTruthy();
  const token = /https:\/\/[^/\s]+\/setup\?token=([\w-]+)/.exec(output)![1]!;
  expect(output).toMatch(/every network interface, TLS with a self-signed certificate/);

  const base = `https://${networkAddress()}:${port}`;
  // The test browser accepts the self-signed certificate, as a phone's user does once.
  const fresh = { ignoreHTTPSErrors: true, baseURL: base, storageState: { cookies: [], origins: [] } };

  // The first admin, through the setup link.
  const adminContext = await browser.newContext(fresh);
  const admin = await adminContext.newPage();
  await admin.goto(`/setup?token=${token}`);
  await admin.getByLabel('Name').fill(ADMIN.name);
  await admin.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await admin.getByLabel('Repeat password').fill(ADMIN.password);
  await admin.getByRole('button', { name: 'Create admin' }).click();
  await expect(admin.getByRole('button', { name: 'Sign out' })).toBeVisible({ timeout: 20_000 });

  // The admin imports the song, makes an event and a dj account (its session, from its page).
  const asAdmin = admin.request;
  const headers = { origin: base };
  const imported = await asAdmin.post('/api/library/import', { data: { folder: libraryFolder }, headers });
  expect(imported.ok(), await imported.text()).toBe(true);
  expect(await imported.json()).toMatchObject({ imported: 1, failed: [] });
  const today = new Date().toISOString().slice(0, 10);
  const event = await asAdmin.post('/api/events/', {
    data: { event_name: 'Venue Social', start_date: today, end_date: today },
    headers,
  });
  expect(event.ok(), await event.text()).toBe(true);
  const eventId = ((await event.json()) as { event_id: number }).event_id;
  const created = await asAdmin.post('/api/users', { data: { ...DJ, role: 'dj' }, headers });
  expect(created.status(), await created.text()).toBe(201);
  await admin.getByRole('button', { name: 'Sign out' }).click();
  await expect(admin.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await adminContext.close();

  // The dj signs in through the login page and records in the browser.
  const djContext = await browser.newContext(fresh);
  const dj = await djContext.newPage();
  await dj.addInitScript((ms) => {
    (globalThis as { __WCS_TEST_CHUNK_MS__?: number }).__WCS_TEST_CHUNK_MS__ = ms;
  }, CHUNK_MS);
  await dj.goto('/recordings');
  await expect(dj).toHaveURL(/\/login/);
  await dj.getByLabel('Name').fill(DJ.name);
  await dj.getByLabel('Password').fill(DJ.password);
  await dj.getByRole('button', { name: 'Sign in' }).click();
  await expect(dj).toHaveURL(/\/recordings/);
  expect(await dj.evaluate(() => (globalThis as { isSecureContext?: boolean }).isSecureContext)).toBe(true);

  const recordings = new RecordingsPage(dj);
  await recordings.eventSelect.selectOption(String(eventId));
  await recordings.startButton.click();
  await expect(recordings.recorder.getByText('Live recognition active')).toBeVisible();
  const recognised = recordings.recorder.getByRole('list', { name: 'Recognised songs' });
  await expect(recognised.getByText(title, { exact: true })).toBeVisible({ timeout: 90_000 });
  await recordings.stopButton.click();

  const listed = await dj.request.get('/api/recordings/', { params: { limit: '10' } });
  const { recordings: stored } = (await listed.json()) as {
    recordings: Array<{
      event_id: number | null;
      songs_recognized: number;
      created_by: { name: string } | null;
    }>;
  };
  const recording = stored.find((candidate) => candidate.event_id === eventId);
  expect(recording?.songs_recognized).toBeGreaterThanOrEqual(1);
  expect(recording?.created_by).toMatchObject({ name: DJ.name });
  await djContext.close();
});
