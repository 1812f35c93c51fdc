import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import {
  type ApiRecording,
  createEvent,
  fakeMicrophoneFile,
  listRecordings,
  RecordingsPage,
  uploadChunk,
} from './pages/recordings-page.js';
import { fakeMicrophoneLaunchOptions } from './support/browser.js';

/**
 * The Recordings screen, with the real recorder: Chromium's fake microphone plays a generated WAV,
 * and the recorder cuts 2 s chunks (its only test hook) that go to the real server.
 */

const CHUNK_MS = 2_000;

// Chromium records a generated file instead of a microphone; the permission prompt is answered.
test.use({ launchOptions: fakeMicrophoneLaunchOptions(fakeMicrophoneFile(10)) });

const pageErrors: Error[] = [];
test.beforeEach(async ({ page }) => {
  pageErrors.length = 0;
  page.on('pageerror', (error) => pageErrors.push(error));
  await page.addInitScript((ms) => {
    (globalThis as { __WCS_TEST_CHUNK_MS__?: number }).__WCS_TEST_CHUNK_MS__ = ms;
  }, CHUNK_MS);
});
test.afterEach(() => {
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

/** The main list's call (GET /api/recordings/ without a source); today's list is left alone. */
function isMainList(url: URL): boolean {
  return url.pathname === '/api/recordings/' && !url.searchParams.has('source');
}

/** Collects the texts of alert()/confirm() dialogs, answering confirms with `accept`. */
function collectDialogs(page: Page, accept = true): string[] {
  const messages: string[] = [];
  page.on('dialog', (dialog) => {
    messages.push(dialog.message());
    void (accept ? dialog.accept() : dialog.dismiss());
  });
  return messages;
}

/** The browser recordings the server has that were not there before. */
async function newBrowserRecordings(
  request: Parameters<typeof listRecordings>[0],
  before: Set<number>,
): Promise<ApiRecording[]> {
  const { recordings } = await listRecordings(request, { source: 'web_browser' });
  return recordings.filter((recording) => !before.has(recording.recording_id));
}

async function browserRecordingIds(request: Parameters<typeof listRecordings>[0]): Promise<Set<number>> {
  const { recordings } = await listRecordings(request, { source: 'web_browser' });
  return new Set(recordings.map((recording) => recording.recording_id));
}

test.describe('header, stats and list', () => {
  test('the stats row shows the server summary', async ({ page }) => {
    const recordings = new RecordingsPage(page);
    const summaryResponse = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/recordings/stats/summary',
    );
    await recordings.goto();
    const summary = (await (await summaryResponse).json()) as {
      recordings: { total: number; processed: number; unprocessed: number };
      storage: { total_gb: number };
      recognition: { total_songs_recognized: number };
    };
    await expect(recordings.statTile('Total Recordings').getByRole('paragraph')).toHaveText(
      String(summary.recordings.total),
    );
    await expect(recordings.statTile('Total Recordings')).toContainText(
      `${summary.recordings.processed} processed · ${summary.recordings.unprocessed} unprocessed`,
    );
    await expect(recordings.statTile('Storage Used').getByRole('paragraph')).toHaveText(
      `${summary.storage.total_gb.toFixed(2)} GB`,
    );
    await expect(recordings.statTile('Total Duration')).toBeVisible();
    await expect(recordings.statTile('Songs Recognized').getByRole('paragraph')).toHaveText(
      String(summary.recognition.total_songs_recognized),
    );
  });

  test('the newest 20 recordings come first; Show older recordings lists the next 20', async ({
    page,
    request,
  }) => {
    // Up to 41 uploads first, one at a time: at a load of 16 on two cores they took over 30 s.
    test.setTimeout(120_000);
    // At least 41 recordings on the server: three pages.
    const { total: before } = await listRecordings(request);
    for (let index = before; index < 41; index += 1) {
      await uploadChunk(request, {
        session_id: `e2e-paging-${randomUUID()}`,
        chunk_number: 0,
        duration_seconds: 1,
      });
    }
    const recordings = new RecordingsPage(page);
    const first = page.waitForResponse((response) => isMainList(new URL(response.url())));
    await recordings.goto();
    const { recordings: newest, total } = (await (await first).json()) as Awaited<
      ReturnType<typeof listRecordings>
    >;
    expect(total).toBeGreaterThanOrEqual(41);
    expect(newest).toHaveLength(20);
    await expect(recordings.list.getByRole('listitem')).toHaveCount(20);

    const older = recordings.listSection.getByRole('button', { name: /^Show older recordings/ });
    await expect(older).toHaveText(`Show older recordings (20 of ${total} shown)`);
    const second = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return isMainList(url) && url.searchParams.get('skip') === '20';
    });
    await older.click();
    const { recordings: next } = (await (await second).json()) as Awaited<ReturnType<typeof listRecordings>>;
    await expect(recordings.list.getByRole('listitem')).toHaveCount(40);
    // The second page follows the first, newest first, with no recording twice.
    const shownIds = new Set([...newest, ...next].map((recording) => recording.recording_id));
    expect(shownIds.size).toBe(40);
    await expect(recordings.listItem(next[19]!.filename).first()).toBeVisible();
    await expect(older).toHaveText(`Show older recordings (40 of ${total} shown)`);
  });

  test('an empty list says so, for all and for unprocessed recordings', async ({ page }) => {
    // Whatever the server holds, this checks the empty texts: the list calls answer no rows.
    await page.route(isMainList, async (route) => {
      await route.fulfill({ json: { recordings: [], total: 0 } });
    });
    const recordings = new RecordingsPage(page);
    await recordings.goto();
    await expect(recordings.listSection.getByText('No recordings found', { exact: true })).toBeVisible();
    await expect(recordings.listSection.getByText(/single-board recording device/)).toBeVisible();

    await recordings.unprocessedToggle.click();
    await expect(recordings.showAllToggle).toBeVisible();
    await expect(
      recordings.listSection.getByText('No unprocessed recordings', { exact: true }),
    ).toBeVisible();
    await recordings.showAllToggle.click();
    await expect(recordings.unprocessedToggle).toBeVisible();
  });

  test("a failed load shows 'Failed to load recordings' with the server's message, and Retry recovers", async ({
    page,
  }) => {
    let isFailing = true;
    await page.route(isMainList, async (route) => {
      if (!isFailing) return route.fallback();
      await route.fulfill({ status: 503, json: { message: 'The database is starting, try again' } });
    });
    const recordings = new RecordingsPage(page);
    await recordings.goto();
    const card = recordings.alerts.filter({ hasText: 'Failed to load recordings' });
    // TanStack Query retries once before it reports the failure.
    await expect(card).toBeVisible({ timeout: 15_000 });
    await expect(card).toContainText('The database is starting, try again');

    isFailing = false;
    await card.getByRole('button', { name: 'Retry' }).click();
    await expect(card).toBeHidden();
    await expect(recordings.listSection.getByRole('heading', { name: /All Recordings/ })).toBeVisible();
  });

  test("a load that hangs shows 'Loading timeout - check network connection' after 10 s", async ({
    page,
  }) => {
    await page.clock.install();
    const pageNow = () => page.evaluate(() => Date.now());
    // Never answered within the test; the page's time when it asked, which is when the 10 s start.
    let askedAt: number | undefined;
    await page.route(isMainList, async () => {
      askedAt ??= await pageNow();
    });
    const recordings = new RecordingsPage(page);
    await recordings.goto();
    await expect(recordings.listSection.getByRole('status', { name: 'Loading recordings...' })).toBeVisible();
    await expect(page.getByText('Loading timeout - check network connection')).toBeHidden();
    await expect.poll(() => askedAt).toBeDefined();
    // Real time runs on beside the jumps, and a loaded machine takes seconds to show the page: the
    // jumps are counted from the request (8.5 s: clear of 10 s), not from the clock's install.
    await page.clock.fastForward(Math.max(0, askedAt! + 8_500 - (await pageNow())));
    await expect(page.getByText('Loading timeout - check network connection')).toBeHidden();
    await page.clock.fastForward(Math.max(0, askedAt! + 11_000 - (await pageNow())));
    await expect(page.getByText('Loading timeout - check network connection')).toBeVisible();
  });

  test('a device recording shows its details and status; processed without error it offers no Retry', async ({
    page,
    request,
  }) => {
    const event = await createEvent(request, { event_name: `Device Night ${randomUUID().slice(0, 8)}` });
    const sessionId = `device-${randomUUID()}`;
    const filename = `${sessionId}.wav`;
    await uploadChunk(request, {
      session_id: sessionId,
      chunk_number: 0,
      duration_seconds: 2,
      source: 'device',
      filename,
      event_id: event.event_id,
    });
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    const item = recordingsPage.listItem(filename);
    await expect(item).toBeVisible();
    await expect(item).toContainText(event.event_name);
    await expect(item).toContainText('0 songs recognised');
    await expect(item).toContainText(/uploaded (just now|\d+ minutes? ago)/);
    await expect(item).toContainText(/Recorded \d\d\.\d\d\.\d{4}/);
    await expect(item.getByText(/^(Failed|Completed|Processing\.\.\.)$/)).toBeVisible();
    // Not a browser recording: it is not among today's browser recordings.
    await expect(recordingsPage.todayItem(filename)).toHaveCount(0);

    await item.getByRole('button', { name: 'Details' }).click();
    const details = page.getByRole('dialog', { name: `Recording Details: ${filename}` });
    await expect(details).toBeVisible();
    await expect(details).toContainText('Status');
    await expect(details).toContainText(event.event_name);
    await expect(details).toContainText('Recognised Songs (0)');
    await details.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(details).toBeHidden();

    // A short tone that is no library song: recognition finds nothing, which is no error.
    await expect
      .poll(async () => (await listRecordings(request)).recordings.find((r) => r.session_id === sessionId), {
        timeout: 30_000,
      })
      .toMatchObject({ processed: true, error_message: null });
    await recordingsPage.refreshButton.click();
    await expect(item.getByText('Completed', { exact: true })).toBeVisible();
    await expect(item.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  });

  test('a recording whose audio cannot be decoded shows Failed with the reason, and Retry queues processing', async ({
    page,
    request,
  }) => {
    const event = await createEvent(request, { event_name: `Broken Night ${randomUUID().slice(0, 8)}` });
    const sessionId = `broken-${randomUUID()}`;
    const filename = `${sessionId}.wav`;
    const stored = await uploadChunk(request, {
      session_id: sessionId,
      chunk_number: 0,
      duration_seconds: 2,
      source: 'device',
      filename,
      event_id: event.event_id,
    });
    const processed = async () =>
      (await listRecordings(request)).recordings.find((r) => r.session_id === sessionId);
    await expect.poll(async () => (await processed())?.processed, { timeout: 30_000 }).toBe(true);
    // Uploads are decoded before they are stored, so undecodable audio only comes from the disk: the
    // stored file is damaged here (a WebM signature followed by noise bytes), then processed again.
    const folder = path.join(process.env.WCS_E2E_DATA_DIR ?? '', 'recordings', String(stored.recording_id));
    const [file] = fs.readdirSync(folder);
    fs.writeFileSync(
      path.join(folder, file ?? 'missing'),
      Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(4000, 7)]),
    );
    expect((await request.post(`/api/tasks/recognition/process/${stored.recording_id}`)).status()).toBe(202);
    await expect
      .poll(async () => (await processed())?.error_message, { timeout: 30_000 })
      .toMatch(/undecodable audio/);

    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    const item = recordingsPage.listItem(filename);
    await expect(item.getByText('Failed', { exact: true })).toBeVisible();
    const retry = item.getByRole('button', { name: 'Retry' });
    await expect(retry).toBeVisible();

    const dialogs = collectDialogs(page);
    await retry.click();
    await expect.poll(() => dialogs).toEqual(['Processing task queued!']);

    await page.route('**/api/tasks/recognition/process/*', (route) =>
      route.fulfill({ status: 500, json: { message: 'The job queue is down' } }),
    );
    await recordingsPage.refreshButton.click();
    await expect(retry).toBeVisible();
    await retry.click();
    await expect.poll(() => dialogs.at(-1)).toBe('Failed to trigger processing: The job queue is down');
  });

  test('Unprocessed Only asks the server for unprocessed recordings and lists what it answers', async ({
    page,
  }) => {
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    // Processing runs in the background, so the check uses the very answer the screen received.
    const answer = page.waitForResponse(
      (response) => isMainList(new URL(response.url())) && response.url().includes('unprocessed_only=true'),
    );
    await recordingsPage.unprocessedToggle.click();
    const { recordings, total } = (await (await answer).json()) as Awaited<ReturnType<typeof listRecordings>>;
    expect(recordings.every((recording) => !recording.processed)).toBe(true);
    await expect(
      recordingsPage.listSection.getByRole('heading', { name: /Unprocessed Recordings/ }),
    ).toContainText(String(total));
    if (recordings.length === 0) {
      await expect(recordingsPage.listSection.getByText('No unprocessed recordings')).toBeVisible();
    } else {
      await expect(recordingsPage.list.getByRole('listitem')).toHaveCount(recordings.length);
      for (const recording of recordings.slice(0, 5)) {
        await expect(recordingsPage.listItem(recording.filename).first()).toBeVisible();
      }
    }
  });

  test("a render failure shows the 'Critical Error' card with Reload Page", async ({ page }) => {
    // A list answer without its recordings array makes the screen throw while rendering.
    await page.route(isMainList, async (route) => {
      await route.fulfill({ json: { recordings: null, total: 1 } });
    });
    const recordingsPage = new RecordingsPage(page);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto('/recordings');
    const card = page.getByRole('alert').filter({ hasText: 'Critical Error' });
    await expect(card).toBeVisible();
    await page.unroute(isMainList);
    await card.getByRole('button', { name: 'Reload Page' }).click();
    await expect(recordingsPage.recorder).toBeVisible();
    await expect(card).toBeHidden();
    expect(errors.length).toBeGreaterThan(0);
  });
});

test.describe('browser recording', () => {
  test('records in chunks, uploads them, and the new recording appears in both lists', async ({
    page,
    request,
  }) => {
    const event = await createEvent(request, { event_name: `Recorder Night ${randomUUID().slice(0, 8)}` });
    const before = await browserRecordingIds(request);
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();

    await expect(recordingsPage.recorderBadge('Idle')).toBeVisible();
    await expect(recordingsPage.recorder).toContainText('Works best in desktop Chrome, Firefox and Safari');
    await expect(recordingsPage.recorder).toContainText('Keep this tab open while recording');
    await expect(recordingsPage.recorder).toContainText('every 30 seconds');
    // Events newest first, the first one preselected.
    await expect(recordingsPage.eventSelect).not.toHaveValue('');
    await recordingsPage.eventSelect.selectOption({ label: event.event_name });
    await expect(recordingsPage.deviceSelect).toBeVisible();
    await recordingsPage.refreshDevicesButton.click();

    await recordingsPage.startButton.click();
    await expect(recordingsPage.recorderBadge('Recording')).toBeVisible();
    await expect(recordingsPage.elapsed).toHaveText(/^00:00:0[1-9]$/);
    await expect(recordingsPage.levelBar).toBeVisible();
    await expect(recordingsPage.recorder.getByText('Live recognition active')).toBeVisible();

    await expect
      .poll(async () => Number(await recordingsPage.counter('Uploaded').textContent()), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(2);
    await expect(recordingsPage.counter('Size')).toHaveText(/^\d+\.\d MB$/);
    // The third chunk must hold some audio when Stop ends it (a recorder stopped at once hands over a
    // header alone, which is no chunk): a second of it is enough.
    await page.waitForTimeout(1_000);
    await recordingsPage.stopButton.click();
    await expect(recordingsPage.recorderBadge('Idle')).toBeVisible();

    // The final chunk is uploaded too: every recorded chunk reaches the server.
    const chunks = await recordingsPage.waitForUploads();
    expect(chunks).toBeGreaterThanOrEqual(3);

    const created = await newBrowserRecordings(request, before);
    expect(created).toHaveLength(1);
    const recording = created[0]!;
    expect(recording.chunk_count).toBe(chunks);
    expect(recording.event_id).toBe(event.event_id);
    expect(recording.filename).toMatch(/^browser-recording-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.webm$/);

    const todayItem = recordingsPage.todayItem(recording.filename);
    await expect(todayItem).toBeVisible();
    await expect(todayItem).toContainText(`${chunks} chunks`);
    await expect(todayItem).toContainText(event.event_name);
    await expect(todayItem.getByText(/^(Processed|Processing\.\.\.)$/)).toBeVisible();
    await expect(todayItem.getByRole('button', { name: 'Assign Event' })).toHaveCount(0);

    const listItem = recordingsPage.listItem(recording.filename);
    await expect(listItem).toBeVisible();
    await expect(listItem).toContainText(event.event_name);
  });

  test('Pause stops the clock, Resume continues it', async ({ page }) => {
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    await recordingsPage.startButton.click();
    await expect(recordingsPage.elapsed).toHaveText(/^00:00:0[1-9]$/);

    await recordingsPage.pauseButton.click();
    await expect(recordingsPage.recorderBadge('Paused')).toBeVisible();
    await expect(recordingsPage.resumeButton).toBeVisible();
    const pausedAt = await recordingsPage.elapsed.textContent();
    await page.waitForTimeout(1_500);
    await expect(recordingsPage.elapsed).toHaveText(pausedAt ?? '');

    await recordingsPage.resumeButton.click();
    await expect(recordingsPage.recorderBadge('Recording')).toBeVisible();
    await expect(recordingsPage.elapsed).not.toHaveText(pausedAt ?? '');
    await recordingsPage.stopButton.click();
    await expect(recordingsPage.recorderBadge('Idle')).toBeVisible();
    await recordingsPage.waitForUploads();
  });

  test('a recording goes on while the DJ looks at another screen', async ({ page }) => {
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    await recordingsPage.startButton.click();
    await expect(recordingsPage.recorderBadge('Recording')).toBeVisible();
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    await sidebar.getByRole('link', { name: 'Events', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'All Events' })).toBeVisible();
    await page.waitForTimeout(CHUNK_MS + 500);
    await sidebar.getByRole('link', { name: 'Recordings', exact: true }).click();
    await expect(recordingsPage.recorderBadge('Recording')).toBeVisible();
    await expect(recordingsPage.elapsed).not.toHaveText(/^00:00:0[01]$/);
    await expect
      .poll(async () => Number(await recordingsPage.counter('Chunks').textContent()))
      .toBeGreaterThanOrEqual(1);
    await recordingsPage.stopButton.click();
    await recordingsPage.waitForUploads();
  });

  test('Cancel discards the recording and resets the counters', async ({ page, request }) => {
    // Chunks of 8 s here: the Cancel click must land before the first chunk is complete, which a
    // loaded machine does not promise within the suite's 2 s chunks (a chunk already sent stays).
    const chunkMs = 8_000;
    await page.addInitScript((ms) => {
      (globalThis as { __WCS_TEST_CHUNK_MS__?: number }).__WCS_TEST_CHUNK_MS__ = ms;
    }, chunkMs);
    const before = await browserRecordingIds(request);
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    await recordingsPage.startButton.click();
    await expect(recordingsPage.recorderBadge('Recording')).toBeVisible();
    await expect(recordingsPage.counter('Chunks')).toHaveText('0');
    // Before the first chunk is complete: nothing of this recording may reach the server.
    await recordingsPage.cancelButton.click();
    await expect(recordingsPage.recorderBadge('Idle')).toBeVisible();
    await expect(recordingsPage.startButton).toBeVisible();
    await expect(recordingsPage.counter('Chunks')).toHaveCount(0);
    await page.waitForTimeout(chunkMs + 1_000);
    expect(await newBrowserRecordings(request, before)).toEqual([]);
  });

  test('without an event it hints, and the recording can be given one afterwards', async ({
    page,
    request,
  }) => {
    const event = await createEvent(request, { event_name: `Assign Later ${randomUUID().slice(0, 8)}` });
    const before = await browserRecordingIds(request);
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();

    const hint = recordingsPage.recorder.getByText('No event selected - you can assign one later');
    await recordingsPage.eventSelect.selectOption({ label: 'No event' });
    await expect(hint).toBeVisible();
    await recordingsPage.newEventName.fill('Some new night');
    await expect(hint).toBeHidden();
    await recordingsPage.newEventName.fill('');
    await expect(hint).toBeVisible();

    await recordingsPage.startButton.click();
    await expect
      .poll(async () => Number(await recordingsPage.counter('Uploaded').textContent()), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    await recordingsPage.stopButton.click();
    await expect(recordingsPage.recorderBadge('Idle')).toBeVisible();
    await recordingsPage.waitForUploads();

    await expect.poll(async () => (await newBrowserRecordings(request, before)).length).toBe(1);
    const [recording] = await newBrowserRecordings(request, before);
    expect(recording?.event_id).toBeNull();
    const item = recordingsPage.todayItem(recording!.filename);
    await expect(item).toContainText('No event');

    await item.getByRole('button', { name: 'Assign Event' }).click();
    const save = item.getByRole('button', { name: 'Save' });
    await expect(save).toBeDisabled();
    await item.getByRole('button', { name: 'Cancel' }).click();
    await expect(save).toBeHidden();

    await item.getByRole('button', { name: 'Assign Event' }).click();
    await item
      .getByRole('combobox', { name: 'Event for this recording' })
      .selectOption({ label: event.event_name });
    await expect(save).toBeEnabled();
    await save.click();
    // The form (whose options name the event too) closes only once the server has answered.
    await expect(save).toBeHidden();
    await expect(item.getByRole('combobox')).toHaveCount(0);
    await expect(item).toContainText(event.event_name);
    await expect(item.getByRole('button', { name: 'Assign Event' })).toHaveCount(0);
    const { recordings } = await listRecordings(request, { source: 'web_browser' });
    expect(recordings.find((r) => r.recording_id === recording!.recording_id)?.event_id).toBe(event.event_id);
  });

  test('a typed new event name creates that event for the recording', async ({ page, request }) => {
    const name = `Typed Night ${randomUUID().slice(0, 8)}`;
    const before = await browserRecordingIds(request);
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    await recordingsPage.newEventName.fill(name);
    await recordingsPage.startButton.click();
    await expect
      .poll(async () => Number(await recordingsPage.counter('Uploaded').textContent()), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    await recordingsPage.stopButton.click();
    await recordingsPage.waitForUploads();
    await expect.poll(async () => (await newBrowserRecordings(request, before))[0]?.event_name).toBe(name);
  });

  test('deleting asks for confirmation first and removes the recording', async ({ page, request }) => {
    const before = await browserRecordingIds(request);
    const sessionId = `browser-${randomUUID()}`;
    const filename = `${sessionId}.webm`;
    await uploadChunk(request, {
      session_id: sessionId,
      chunk_number: 0,
      duration_seconds: 2,
      source: 'web_browser',
      filename,
      recorded_at: new Date().toISOString(),
    });
    expect(await newBrowserRecordings(request, before)).toHaveLength(1);
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    const item = recordingsPage.todayItem(filename);
    await expect(item).toBeVisible();

    let confirmText = '';
    let accept = false;
    page.on('dialog', (dialog) => {
      confirmText = dialog.message();
      void (accept ? dialog.accept() : dialog.dismiss());
    });
    await item.getByRole('button', { name: `Delete ${filename}` }).click();
    await expect.poll(() => confirmText).toContain('permanently deletes the audio file');
    expect(confirmText).toContain('all recognised songs');
    expect(confirmText).toContain('all associated transitions');
    expect(confirmText).toContain('cannot be undone');
    await expect(item).toBeVisible();
    expect(await newBrowserRecordings(request, before)).toHaveLength(1);

    accept = true;
    await item.getByRole('button', { name: `Delete ${filename}` }).click();
    await expect(item).toHaveCount(0);
    expect(await newBrowserRecordings(request, before)).toHaveLength(0);
  });

  test('a failed delete or event change says why', async ({ page, request }) => {
    const event = await createEvent(request, { event_name: `Failing ${randomUUID().slice(0, 8)}` });
    const sessionId = `browser-${randomUUID()}`;
    const filename = `${sessionId}.webm`;
    await uploadChunk(request, {
      session_id: sessionId,
      chunk_number: 0,
      duration_seconds: 2,
      source: 'web_browser',
      filename,
    });
    await page.route(
      (url) => /\/api\/recordings\/\d+\/event$/.test(url.pathname),
      (route) => route.fulfill({ status: 500, json: { message: 'Event storage is read-only' } }),
    );
    await page.route(
      (url) => /\/api\/recordings\/\d+$/.test(url.pathname),
      (route) =>
        route.request().method() === 'DELETE'
          ? route.fulfill({ status: 500, json: { message: 'Disk is busy' } })
          : route.fallback(),
    );
    const dialogs = collectDialogs(page, true);
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    const item = recordingsPage.todayItem(filename);
    await item.getByRole('button', { name: 'Assign Event' }).click();
    await item
      .getByRole('combobox', { name: 'Event for this recording' })
      .selectOption({ label: event.event_name });
    await item.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialogs.at(-1)).toBe('Failed to update event: Event storage is read-only');

    await item.getByRole('button', { name: `Delete ${filename}` }).click();
    await expect.poll(() => dialogs.at(-1)).toBe('Failed to delete recording: Disk is busy');
    await expect(item).toBeVisible();
  });

  test('a network drop loses nothing: chunks wait on the device and follow when the server answers', async ({
    page,
    request,
  }) => {
    const before = await browserRecordingIds(request);
    await page.route('**/api/recordings/upload', (route) => route.abort('internetdisconnected'));
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    await recordingsPage.startButton.click();
    await expect
      .poll(async () => Number(await recordingsPage.counter('Chunks').textContent()), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);
    // The upload failed, the recording goes on.
    await expect(
      recordingsPage.recorder.getByRole('alert').filter({ hasText: 'Upload failed' }),
    ).toBeVisible();
    await expect(recordingsPage.recorderBadge('Recording')).toBeVisible();
    await expect(recordingsPage.counter('Uploaded')).toHaveText('0');

    await page.unroute('**/api/recordings/upload');
    await recordingsPage.stopButton.click();
    const chunks = await recordingsPage.waitForUploads();
    const created = await newBrowserRecordings(request, before);
    expect(created).toHaveLength(1);
    expect(created[0]?.chunk_count).toBe(chunks);
  });

  test('chunks not yet sent survive a page reload and are sent afterwards', async ({ page, request }) => {
    const before = await browserRecordingIds(request);
    await page.route('**/api/recordings/upload', (route) => route.abort('internetdisconnected'));
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    await recordingsPage.startButton.click();
    await expect
      .poll(async () => Number(await recordingsPage.counter('Chunks').textContent()), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);
    await recordingsPage.stopButton.click();
    await expect(recordingsPage.recorderBadge('Idle')).toBeVisible();
    const chunks = Number(await recordingsPage.counter('Chunks').textContent());
    await expect(recordingsPage.recorder.getByText(/chunks? waiting to upload/)).toBeVisible();
    expect(await newBrowserRecordings(request, before)).toEqual([]);

    await page.unroute('**/api/recordings/upload');
    await page.reload();
    await expect
      .poll(async () => (await newBrowserRecordings(request, before))[0]?.chunk_count, { timeout: 20_000 })
      .toBe(chunks);
    await expect(recordingsPage.recorder.getByText(/waiting to upload/)).toBeHidden();
  });

  test("'Uploading chunk...' shows while an upload is in flight", async ({ page }) => {
    // Each upload is held back a little, so the indicator is on screen long enough to be seen.
    await page.route('**/api/recordings/upload', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.fallback();
    });
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    await recordingsPage.startButton.click();
    await expect(recordingsPage.recorder.getByText('Uploading chunk...')).toBeVisible({ timeout: 10_000 });
    await expect(recordingsPage.counter('Uploaded')).toHaveText('0');
    await expect
      .poll(async () => Number(await recordingsPage.counter('Uploaded').textContent()), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(1);
    await recordingsPage.stopButton.click();
    await recordingsPage.waitForUploads();
    await expect(recordingsPage.recorder.getByText('Uploading chunk...')).toBeHidden();
  });

  test("a recorder failure says 'Recording error occurred' and stops", async ({ page }) => {
    await page.addInitScript(() => {
      // The browser's recorder fails a moment after it starts, as it does when the device goes away.
      const recorderClass = (
        globalThis as unknown as { MediaRecorder: { prototype: Record<string, unknown> } }
      ).MediaRecorder;
      const start = recorderClass.prototype.start as (this: EventTarget, ...args: unknown[]) => void;
      recorderClass.prototype.start = function (this: EventTarget, ...args: unknown[]) {
        start.apply(this, args);
        setTimeout(() => this.dispatchEvent(new Event('error')), 700);
      };
    });
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    await recordingsPage.startButton.click();
    await expect(recordingsPage.recorder.getByRole('alert')).toHaveText('Recording error occurred');
    await expect(recordingsPage.recorderBadge('Idle')).toBeVisible();
    await expect(recordingsPage.startButton).toBeVisible();
    // What was recorded before the failure is kept and sent.
    await recordingsPage.waitForUploads();
  });

  test("a refused microphone says 'Failed to access microphone' with the browser's reason", async ({
    page,
  }) => {
    await page.addInitScript(() => {
      const { mediaDevices } = (
        globalThis as unknown as { navigator: { mediaDevices: { getUserMedia: unknown } } }
      ).navigator;
      mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    await recordingsPage.startButton.click();
    await expect(recordingsPage.recorder.getByRole('alert')).toHaveText(
      'Failed to access microphone: Permission denied',
    );
    await expect(recordingsPage.recorderBadge('Idle')).toBeVisible();
  });

  test('without MediaRecorder the panel says the browser cannot record', async ({ page }) => {
    await page.addInitScript(() => {
      // The browser's recorder removed entirely, as in a browser without one.
      Reflect.deleteProperty(globalThis, 'MediaRecorder');
    });
    const recordingsPage = new RecordingsPage(page);
    await recordingsPage.goto();
    await expect(
      recordingsPage.recorder.getByText('Your browser does not support audio recording'),
    ).toBeVisible();
    await expect(recordingsPage.startButton).toHaveCount(0);
  });
});
