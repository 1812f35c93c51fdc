import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { type ApiInteropResult, DjImportPage, type UploadFile } from './pages/dj-import-page.js';
import { type ApiList, deleteEvent, getJson, readResponse, trackPageErrors } from './pages/library-api.js';
import { LoginPage } from './pages/login-page.js';
import { type ApiSong, SongsPage } from './pages/songs-page.js';
import { baseURL, SIGNED_OUT } from './servers.js';
import { axeViolations, failingViolations } from './support/axe.js';

/**
 * Import from DJ software (docs/product.md "Import from DJ software"), on the fresh server: a
 * rekordbox XML collection with a dated history, built here, goes through the page (choose,
 * Preview, Import), a second import of the same file adds nothing, and the songs are in the
 * library; a plain CSV asks for its columns; a file no reader knows gets the server's message; the
 * whole library downloads from the Export menu; a viewer sees no import. The export of a
 * generated playlist is in dj-export-demo.spec.ts (the fresh server has no playlists).
 */
test.describe.configure({ mode: 'serial' });

const tag = randomUUID().slice(0, 8);
/** A night no other spec uses: the import makes its event. */
const NIGHT = '2019-03-07';
const EVENT_NAME = `HISTORY ${NIGHT} (rekordbox)`;

const TRACKS = [
  {
    id: 1,
    title: `Slow Burn ${tag}`,
    artist: `AAA Import Artist ${tag}`,
    bpm: '92.00',
    key: '8A',
    seconds: 201,
  },
  {
    id: 2,
    title: `Sugar Rush ${tag}`,
    artist: `AAA Import Artist ${tag}`,
    bpm: '101.50',
    key: 'Am',
    seconds: 187,
  },
  {
    id: 3,
    title: `Night Drive ${tag}`,
    artist: `AAB Import Band ${tag}`,
    bpm: '88.00',
    key: 'F#m',
    seconds: 224,
  },
] as const;

/** rekordbox's "Export Collection in xml format" layout, with one history playlist of the night. */
function rekordboxXml(): string {
  const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const tracks = TRACKS.map(
    (track) =>
      `    <TRACK TrackID="${track.id}" Name="${xmlText(track.title)}" Artist="${xmlText(track.artist)}" ` +
      `Kind="MP3 File" TotalTime="${track.seconds}" AverageBpm="${track.bpm}" Tonality="${track.key}" ` +
      `DateAdded="2018-11-02" PlayCount="4" ` +
      `Location="file://localhost${encodeURI(`/Users/dj/Music/WCS/${track.title}.mp3`)}"/>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<DJ_PLAYLISTS Version="1.0.0">',
    '  <PRODUCT Name="rekordbox" Version="6.8.5" Company="AlphaTheta"/>',
    `  <COLLECTION Entries="${TRACKS.length}">`,
    ...tracks,
    '  </COLLECTION>',
    '  <PLAYLISTS>',
    '    <NODE Type="0" Name="ROOT" Count="1">',
    '      <NODE Type="0" Name="HISTORY" Count="1">',
    `        <NODE Name="HISTORY ${NIGHT}" Type="1" KeyType="0" Entries="${TRACKS.length}">`,
    ...TRACKS.map((track) => `          <TRACK Key="${track.id}"/>`),
    '        </NODE>',
    '      </NODE>',
    '    </NODE>',
    '  </PLAYLISTS>',
    '</DJ_PLAYLISTS>',
    '',
  ].join('\n');
}

const REKORDBOX_FILE: UploadFile = {
  name: 'rekordbox.xml',
  mimeType: 'application/xml',
  buffer: Buffer.from(rekordboxXml(), 'utf8'),
};

let pageErrors: Error[] = [];
test.beforeEach(({ page }) => {
  pageErrors = trackPageErrors(page);
});
test.afterEach(() => {
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

/** What the first import made, removed at the end so other specs find the server as it was. */
const made = { eventIds: new Set<number>(), songIds: new Set<number>() };
test.afterAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  try {
    for (const id of made.eventIds) await deleteEvent(request, id);
    for (const id of made.songIds) await request.delete(`/api/songs/${id}`);
  } finally {
    await request.dispose();
  }
});

async function songsOfTag(request: APIRequestContext): Promise<ApiSong[]> {
  const found = await getJson<ApiList<ApiSong>>(request, `/api/songs/search?q=${encodeURIComponent(tag)}`);
  expect(found.ok, found.message).toBe(true);
  return found.body.data;
}

test('a rekordbox XML file: preview, import, and the same file again adds nothing', async ({
  page,
  request,
}) => {
  expect(await songsOfTag(request)).toEqual([]);
  const screen = new DjImportPage(page);
  await screen.goto();
  await expect(screen.heading).toBeVisible();

  // Preview: what the server read, how the tracks match, the session and where it goes.
  const previewed = await readResponse<ApiInteropResult>(await screen.previewFile(REKORDBOX_FILE));
  expect(previewed.ok, previewed.message).toBe(true);
  expect(previewed.body).toMatchObject({
    dry_run: true,
    format: 'rekordbox-xml',
    tracks: 3,
    history_sessions: 1,
    plays: 3,
  });
  await expect(screen.preview).toBeVisible();
  await expect(screen.tileValue(screen.preview, 'Format')).toHaveText('rekordbox XML');
  await expect(screen.tileValue(screen.preview, 'Tracks')).toHaveText('3');
  await expect(screen.tileValue(screen.preview, 'Playlists')).toHaveText('0');
  await expect(screen.tileValue(screen.preview, 'History sessions')).toHaveText('1');
  await expect(screen.matchCount('New songs without a file')).toHaveText('3');
  await expect(screen.matchCount('By file path')).toHaveText('0');
  // The locations are the DJ's Mac's: the server says a path mapping would match them by file.
  await expect(screen.preview.getByRole('alert')).toContainText('outside the library roots');

  const session = screen.sessions.getByRole('row').filter({ hasText: `HISTORY ${NIGHT}` });
  await expect(session.getByRole('checkbox', { name: `HISTORY ${NIGHT}` })).toBeChecked();
  await expect(session).toContainText('07.03.2019');
  await expect(session).toContainText('estimated times');
  await expect(session).toContainText(`New event: ${EVENT_NAME}`);
  await expect(screen.outcome).toContainText(
    'The import would add 3 plays, 3 new songs without a file and 1 new event.',
  );
  await expect(screen.page.getByRole('radio', { name: /else a new event per night/ })).toBeChecked();
  // The preview's table, tiles and choices pass axe as the screens do (accessibility-demo.spec.ts).
  expect(failingViolations(await axeViolations(page))).toEqual([]);

  // One existing event needs its event before Import; the preview says the choices changed.
  await page.getByRole('radio', { name: 'Every session into one existing event' }).check();
  await expect(page.getByRole('combobox', { name: 'Event for every session' })).toBeEnabled();
  await expect(screen.importButton).toBeDisabled();
  await expect(screen.preview).toContainText('Choose the event for every session.');
  await expect(screen.outcome).toContainText('The choices changed since this preview');
  await page.getByRole('radio', { name: /else a new event per night/ }).check();
  await expect(screen.importButton).toBeEnabled();
  await expect(screen.outcome).not.toContainText('The choices changed since this preview');

  // Import: what was created.
  const importedAnswer = await readResponse<ApiInteropResult>(await screen.importNow());
  expect(importedAnswer.ok, importedAnswer.message).toBe(true);
  const imported = importedAnswer.body;
  for (const event of imported.events_created) made.eventIds.add(event.event_id);
  for (const track of imported.track_matches) if (track.song_id !== null) made.songIds.add(track.song_id);
  expect(imported).toMatchObject({ dry_run: false, plays: 3, new_songs: 3 });
  expect(imported.events_created.map((event) => event.event_name)).toEqual([EVENT_NAME]);

  await expect(screen.result).toBeVisible();
  await expect(screen.result.getByRole('status')).toHaveText(
    'Imported 3 plays, 3 new songs without a file and 1 new event.',
  );
  await expect(screen.tileValue(screen.result, 'Plays added')).toHaveText('3');
  await expect(screen.tileValue(screen.result, 'New songs')).toHaveText('3');
  await expect(screen.tileValue(screen.result, 'Events created')).toHaveText('1');
  await expect(screen.result.getByRole('link', { name: EVENT_NAME })).toHaveAttribute(
    'href',
    `/events/insights?eventId=${imported.events_created[0]?.event_id}`,
  );
  await expect(screen.preview).toHaveCount(0);

  // The same file once more, from a fresh page: the preview and the import add nothing.
  await screen.goto();
  const again = await readResponse<ApiInteropResult>(await screen.previewFile(REKORDBOX_FILE));
  expect(again.ok, again.message).toBe(true);
  expect(again.body).toMatchObject({ plays: 0, new_songs: 0, matched: 3 });
  await expect(screen.outcome).toContainText('Importing would add nothing: this file was imported before');
  await expect(screen.outcome).toContainText('3 plays left out: imported from this file before');
  await expect(screen.matchCount('By artist and title')).toHaveText('3');
  // Every entry was imported before: the session goes nowhere and says why.
  const sessionAgain = screen.sessions.getByRole('row').filter({ hasText: `HISTORY ${NIGHT}` });
  await expect(sessionAgain).toContainText('None: imported before');
  await expect(sessionAgain).toContainText('3 (imported before)');

  const second = await readResponse<ApiInteropResult>(await screen.importNow());
  expect(second.ok, second.message).toBe(true);
  expect(second.body).toMatchObject({ plays: 0, new_songs: 0, events_created: [] });
  await expect(screen.result.getByRole('status')).toHaveText(
    'Nothing was added: this file was imported before: its plays are in the library and its tracks have their songs.',
  );
  await expect(screen.tileValue(screen.result, 'Plays added')).toHaveText('0');
  await expect(screen.tileValue(screen.result, 'New songs')).toHaveText('0');
  await expect(screen.tileValue(screen.result, 'Events created')).toHaveText('0');

  // The songs are in the library, with the file's BPM and key, and on the Songs page.
  const songs = await songsOfTag(request);
  expect(songs.map((song) => song.title).sort()).toEqual(TRACKS.map((track) => track.title).sort());
  await screen.result.getByRole('link', { name: 'Go to the songs' }).click();
  const songsPage = new SongsPage(page);
  await expect(songsPage.heading).toBeVisible();
  await songsPage.search.fill(tag);
  for (const track of TRACKS) {
    await expect(songsPage.table.getByRole('row').filter({ hasText: track.title })).toContainText(
      track.artist,
    );
  }

  // Each song has one play, in the new event, in the file's order (times estimated from 21:00).
  const eventId = imported.events_created[0]?.event_id;
  const starts: string[] = [];
  for (const track of TRACKS) {
    const song = songs.find((candidate) => candidate.title === track.title);
    const plays = await getJson<ApiList<{ event_id: number; started_at: string }>>(
      request,
      `/api/songs/${song?.song_id}/plays`,
    );
    expect(plays.ok, plays.message).toBe(true);
    expect(plays.body.data.map((play) => play.event_id)).toEqual([eventId]);
    starts.push(plays.body.data[0]?.started_at ?? '');
  }
  expect([...starts].sort()).toEqual(starts);
});

test('a plain CSV asks for its columns on screen and sends them', async ({ page }) => {
  const screen = new DjImportPage(page);
  await screen.goto();
  const csv: UploadFile = {
    name: 'tracklist.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `Track;By;Tempo;Notes\nFirst ${tag};Someone ${tag};96;x\nSecond ${tag};Someone ${tag};102;y\n`,
    ),
  };
  await screen.fileInput.setInputFiles(csv);
  await expect(screen.csvColumns).toBeVisible();
  await expect(screen.csvColumns).toContainText("The file's columns: Track, By, Tempo, Notes.");
  const title = screen.csvColumns.getByRole('combobox', { name: 'Title (required)' });
  await expect(title).toHaveValue('Track');
  await expect(screen.csvColumns.getByRole('combobox', { name: 'Artist (required)' })).toHaveValue('By');
  await expect(screen.csvColumns.getByRole('combobox', { name: 'BPM', exact: true })).toHaveValue('Tempo');

  // Without a title column nothing is sent.
  let sent = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/interop/preview') sent++;
  });
  await title.selectOption('');
  await screen.previewButton.click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Choose the column of the title.');
  expect(sent).toBe(0);

  await title.selectOption('Track');
  const answered = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/interop/preview',
  );
  await screen.previewButton.click();
  const previewed = await readResponse<ApiInteropResult>(await answered);
  expect(previewed.ok, previewed.message).toBe(true);
  // The server read the columns chosen here (its own default, Title and Artist, is not in the file).
  expect(previewed.body.track_matches.map(({ title, artist }) => `${artist} - ${title}`)).toEqual([
    `Someone ${tag} - First ${tag}`,
    `Someone ${tag} - Second ${tag}`,
  ]);
  expect(previewed.body).toMatchObject({ format: 'csv', tracks: 2, history_sessions: 0 });
  await expect(screen.tileValue(screen.preview, 'Format')).toHaveText('CSV');
  await expect(screen.tileValue(screen.preview, 'Playlists')).toHaveText('1');
  await expect(screen.sessions).toContainText('The file holds no play history');
});

test('a file no reader knows gets the server’s message as sent', async ({ page }) => {
  const screen = new DjImportPage(page);
  await screen.goto();
  const answer = await readResponse<{ message: string }>(
    await screen.previewFile({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('just some notes\n'),
    }),
  );
  expect(answer.status).toBe(415);
  await expect(page.getByRole('main').getByRole('alert')).toContainText('The file could not be previewed');
  await expect(page.getByRole('main').getByRole('alert')).toContainText(answer.message);
  await expect(screen.preview).toHaveCount(0);
});

test('the whole library downloads from the Export menu, in every format the export writes', async ({
  page,
  request,
}) => {
  const m3u8 = await request.get('/api/interop/export/m3u8');
  expect(m3u8.status(), await m3u8.text()).toBe(200);
  expect((await m3u8.text()).startsWith('#EXTM3U')).toBe(true);

  const screen = new DjImportPage(page);
  await screen.goto();
  await screen.exportLibraryButton.click();
  await expect(screen.exportLibraryButton).toHaveAttribute('aria-expanded', 'true');
  const formats = page.getByRole('list', { name: 'Formats to export the whole library' });
  await expect(formats.getByRole('link')).toHaveText([
    'rekordbox XML',
    'Traktor NML',
    'Serato crate',
    'VirtualDJ M3U',
    'M3U8',
    'CSV',
  ]);
  const downloaded = page.waitForEvent('download');
  await formats.getByRole('link', { name: 'CSV of the whole library' }).click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  // Escape closes the list and gives the focus back to its button.
  await screen.exportLibraryButton.click();
  await expect(formats).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(formats).toBeHidden();
  await expect(screen.exportLibraryButton).toBeFocused();
});

test('a viewer sees no import, only the export', async ({ browser, request }) => {
  const viewer = { name: `viewer-import-${tag}`, password: `viewer password ${tag}` };
  const created = await request.post('/api/users', { data: { ...viewer, role: 'viewer' } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const context = await browser.newContext({ storageState: SIGNED_OUT });
  try {
    const page = await context.newPage();
    await new LoginPage(page).goto('/dj-import');
    await new LoginPage(page).signIn(viewer.name, viewer.password);
    await expect(page).toHaveURL(`${baseURL}/dj-import`);
    const screen = new DjImportPage(page);
    await expect(screen.heading).toBeVisible();
    await expect(page.getByRole('main').getByRole('status')).toContainText(
      'Importing needs the dj or admin role',
    );
    await expect(screen.fileInput).toHaveCount(0);
    await expect(screen.previewButton).toHaveCount(0);
    await expect(screen.exportLibraryButton).toBeVisible();
    for (const path of ['/songs', '/events', '/playlists']) {
      await page.goto(path);
      await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Import from DJ software' })).toHaveCount(0);
    }
  } finally {
    await context.close();
    await request.delete(`/api/users/${id}`);
  }
});
