import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures.js';
import { createEvent, listRecordings, RecordingsPage } from './pages/recordings-page.js';
import { fakeMicrophoneLaunchOptions, writeTaggedFlac } from './support/browser.js';
import { synthSong, wav } from './support/synth-audio.js';

/**
 * Live recognition in the browser: a synthesised song is imported into the server's library
 * (POST /api/library/import, which fingerprints it), Chromium's fake microphone plays the same
 * song, and the recorder panel's 'Recognised songs' list shows its title while recording. The
 * recorder cuts 8 s chunks (its test hook); each goes through the real upload, job and socket.
 */

const CHUNK_MS = 8_000;
const RATE = 48_000;
const SONG_SECONDS = 40;
const title = `Fake Mic Groove ${randomUUID().slice(0, 8)}`;
const artist = 'E2E Synth Band';

// Written before the browser starts: the fake microphone file, and the song in the server's
// library root (playwright.config.ts gives the fresh server <WCS_E2E_DATA_DIR>/library).
const dataDir =
  process.env.WCS_E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-e2e-recognition-'));
const song = wav(synthSong(4242, SONG_SECONDS, RATE), RATE);
const microphoneFile = path.join(dataDir, 'recognition-microphone.wav');
fs.writeFileSync(microphoneFile, song);
const libraryFolder = path.join(dataDir, 'library', `recognition-${randomUUID().slice(0, 8)}`);
fs.mkdirSync(libraryFolder, { recursive: true });
// The library copy is a tagged FLAC (title and artist), made by ffmpeg from the same signal.
writeTaggedFlac(microphoneFile, libraryFolder, { title, artist });

test.use({ launchOptions: fakeMicrophoneLaunchOptions(microphoneFile) });

test('the recorder panel shows the title of a library song the microphone hears', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const imported = await request.post('/api/library/import', { data: { folder: libraryFolder } });
  expect(imported.ok(), await imported.text()).toBe(true);
  expect(await imported.json()).toMatchObject({ imported: 1, failed: [] });
  const event = await createEvent(request, { event_name: `Recognition Social ${randomUUID().slice(0, 8)}` });

  await page.addInitScript((ms) => {
    (globalThis as { __WCS_TEST_CHUNK_MS__?: number }).__WCS_TEST_CHUNK_MS__ = ms;
  }, CHUNK_MS);
  const recordings = new RecordingsPage(page);
  await recordings.goto();
  await recordings.eventSelect.selectOption(String(event.event_id));
  await recordings.startButton.click();
  await expect(recordings.recorder.getByText('Live recognition active')).toBeVisible();

  const recognised = recordings.recorder.getByRole('list', { name: 'Recognised songs' });
  await expect(recognised.getByText(title, { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(recognised.getByText(artist, { exact: true })).toBeVisible();
  await recordings.stopButton.click();

  // The server's recording agrees: a play of the song in the chosen event.
  const { recordings: stored } = await listRecordings(request);
  const recording = stored.find((candidate) => candidate.event_id === event.event_id);
  expect(recording?.songs_recognized).toBeGreaterThanOrEqual(1);
});
