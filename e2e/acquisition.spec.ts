import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures.js';
import { DownloadsPage, getJson, setProviders } from './pages/downloads-page.js';
import { SongsPage } from './pages/songs-page.js';
import { baseURL } from './servers.js';
import { writeTaggedFlac } from './support/browser.js';
import { synthSong, wav } from './support/synth-audio.js';

/**
 * A song played but not owned goes all the way: a DJ-software history (rekordbox XML) makes it a
 * song without a file with one play; Start Downloads with the inbox folder provider queues it and
 * the worker reports it waiting for its file; the test drops a tagged file into the fresh server's
 * inbox (<WCS_E2E_DATA_DIR>/inbox) like a store's download; the entry is shown completed, and the
 * song on the Songs screen with its analysis.
 */

const tag = randomUUID().slice(0, 8);
const title = `Inbox Groove ${tag}`;
const artist = `E2E Store Artist ${tag}`;
const NIGHT = '2019-05-11';
const RATE = 22_050;

const dataDir = process.env.WCS_E2E_DATA_DIR ?? '';
const inbox = path.join(dataDir, 'inbox');

function historyXml(): string {
  const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<DJ_PLAYLISTS Version="1.0.0">',
    '  <PRODUCT Name="rekordbox" Version="6.8.5" Company="AlphaTheta"/>',
    '  <COLLECTION Entries="1">',
    `    <TRACK TrackID="1" Name="${xmlText(title)}" Artist="${xmlText(artist)}" Kind="MP3 File" TotalTime="40" ` +
      `Location="file://localhost${encodeURI(`/Users/dj/Music/${title}.mp3`)}"/>`,
    '  </COLLECTION>',
    '  <PLAYLISTS>',
    '    <NODE Type="0" Name="ROOT" Count="1">',
    '      <NODE Type="0" Name="HISTORY" Count="1">',
    `        <NODE Name="HISTORY ${NIGHT}" Type="1" KeyType="0" Entries="1">`,
    '          <TRACK Key="1"/>',
    '        </NODE>',
    '      </NODE>',
    '    </NODE>',
    '  </PLAYLISTS>',
    '</DJ_PLAYLISTS>',
    '',
  ].join('\n');
}

interface ApiSettings {
  download_enabled: boolean;
  minimum_plays_to_download: number;
  download_priority_threshold: number;
}

const made = { eventIds: [] as number[], songIds: [] as number[] };
let settingsBefore: ApiSettings | null = null;

test.afterAll(async ({ playwright }) => {
  // The server as the other specs expect it: no provider, the settings as they were, no trace of this song.
  const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  try {
    await setProviders(request, false);
    if (settingsBefore) await request.put('/api/settings', { data: settingsBefore });
    for (const id of made.songIds) await request.delete(`/api/songs/${id}`);
    for (const id of made.eventIds) await request.delete(`/api/events/${id}`);
  } finally {
    await request.dispose();
  }
});

test('Start Downloads with the inbox folder: a dropped file completes the entry and the song is analysed', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  expect(dataDir, 'WCS_E2E_DATA_DIR (playwright.config.ts)').not.toBe('');

  // The history: the song becomes a song without a file, played once.
  const imported = await request.post('/api/interop/import', {
    multipart: {
      file: { name: 'rekordbox.xml', mimeType: 'application/xml', buffer: Buffer.from(historyXml(), 'utf8') },
      options: JSON.stringify({ time_zone: 'UTC' }),
    },
  });
  expect(imported.ok(), await imported.text()).toBe(true);
  const result = (await imported.json()) as { sessions: { event_id: number | null }[] };
  for (const session of result.sessions) if (session.event_id) made.eventIds.push(session.event_id);
  const found = await getJson<{ data: { song_id: number; title: string; file_present?: boolean }[] }>(
    request,
    '/api/songs/search',
    { q: tag },
  );
  const song = found.data.find((row) => row.title === title);
  expect(song, 'the imported song').toBeTruthy();
  made.songIds.push(song!.song_id);

  // Downloads on, one play enough, the inbox folder as provider.
  settingsBefore = await getJson<ApiSettings>(request, '/api/settings');
  const changed = await request.put('/api/settings', {
    data: { download_enabled: true, minimum_plays_to_download: 1, download_priority_threshold: 0 },
  });
  expect(changed.ok(), await changed.text()).toBe(true);
  await setProviders(request, true);

  const downloads = new DownloadsPage(page);
  await downloads.goto();
  await downloads.previewButton.click();
  await expect(downloads.preview).toContainText('Order: Inbox folder');
  await expect(downloads.preview.getByRole('cell', { name: title, exact: true })).toBeVisible();
  const answer = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/downloads/start',
  );
  await downloads.preview.getByRole('button', { name: 'Start Downloads' }).click();
  expect((await answer).ok()).toBe(true);
  await expect(downloads.preview.getByRole('status')).toContainText(
    'the download worker tries them now with inbox folder',
  );
  await downloads.preview.getByRole('button', { name: 'Close', exact: true }).click();

  // The worker ran: nothing in the inbox yet, so the entry waits there, saying what to do.
  const entry = downloads.list.getByRole('listitem', { name: title, exact: true });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(entry).toContainText('no file for it in the inbox yet', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(entry).toContainText('pending');

  // The DJ buys it and drops the file into the inbox.
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-e2e-acquire-'));
  try {
    const source = path.join(work, 'source.wav');
    fs.writeFileSync(source, wav(synthSong(7373, 40, RATE), RATE));
    writeTaggedFlac(source, work, { title, artist });
    fs.mkdirSync(inbox, { recursive: true });
    fs.copyFileSync(path.join(work, 'song.flac'), path.join(inbox, `${artist} - ${title}.flac`));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }

  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(entry).toContainText('completed', { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(entry).toContainText('Provider: Inbox folder');
  const activity = page.getByRole('list', { name: 'Provider activity' });
  await expect(activity.getByRole('listitem').filter({ hasText: title }).first()).toContainText('completed');

  // The song has its file and, once the analysis job has run, its analysis.
  const songs = new SongsPage(page);
  await songs.goto();
  await songs.search.fill(tag);
  const row = songs.rows.filter({ hasText: title });
  await expect(async () => {
    await page.reload();
    await songs.search.fill(tag);
    await expect(row.getByText('Analyzed', { exact: true })).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 90_000 });
});
