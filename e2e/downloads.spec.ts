import { expect, test } from './fixtures.js';
import {
  type ApiDownloadPreview,
  type ApiDownloadStats,
  type ApiQueueEntry,
  DownloadsPage,
  getJson,
  setDownloadEnabled,
  setProviders,
} from './pages/downloads-page.js';

const pageErrors: Error[] = [];
test.beforeEach(({ page }) => {
  pageErrors.length = 0;
  page.on('pageerror', (error) => pageErrors.push(error));
});
test.afterEach(() => {
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

const queueOf = (request: Parameters<typeof getJson>[0], status?: string) =>
  getJson<{ entries: ApiQueueEntry[]; total: number }>(request, '/api/downloads/queue', {
    limit: '100',
    ...(status ? { status } : {}),
  });

test('the stat cards show the queue counts and the songs still needed', async ({ page, request }) => {
  const downloads = new DownloadsPage(page);
  await downloads.goto();
  const stats = await getJson<ApiDownloadStats>(request, '/api/downloads/stats');
  const figure = (label: string) => downloads.statTile(label).getByRole('paragraph');
  await expect(figure('Queue Total')).toHaveText(String(stats.queue.total));
  await expect(downloads.statTile('Queue Total')).toContainText(
    `${stats.queue.pending} pending · ${stats.queue.downloading} active`,
  );
  await expect(figure('Completed')).toHaveText(String(stats.queue.completed));
  await expect(figure('Failed')).toHaveText(String(stats.queue.failed));
  await expect(figure('Songs Needed')).toHaveText(String(stats.songs.played_but_no_file));
  await expect(downloads.statTile('Songs Needed')).toContainText('played but no file');
});

test('the filter buttons show the entries of each status', async ({ page, request }) => {
  const downloads = new DownloadsPage(page);
  await downloads.goto();
  await expect(downloads.filter('All')).toHaveAttribute('aria-pressed', 'true');
  for (const [label, status] of [
    ['Pending', 'pending'],
    ['Downloading', 'downloading'],
    ['Completed', 'completed'],
    ['Failed', 'failed'],
    ['All', undefined],
  ] as const) {
    const call = page.waitForRequest(
      (req) =>
        new URL(req.url()).pathname === '/api/downloads/queue' &&
        new URL(req.url()).searchParams.get('status') === (status ?? null),
    );
    await downloads.filter(label).click();
    const sent = new URL((await call).url());
    expect(sent.searchParams.get('limit')).toBe('100');
    await expect(downloads.filter(label)).toHaveAttribute('aria-pressed', 'true');
    const { entries } = await queueOf(request, status);
    if (entries.length === 0) {
      await expect(
        downloads.queueSection.getByText(status ? `No ${status} downloads` : 'The download queue is empty'),
      ).toBeVisible();
    } else {
      await expect(downloads.list.getByRole('listitem')).toHaveCount(entries.length);
    }
  }
});

test('Retry shows what the server says when it refuses', async ({ page }) => {
  // A failed entry as the queue would list it; the refusal is the server's message, shown as such.
  await page.route(
    (url) => url.pathname === '/api/downloads/queue',
    (route) =>
      route.fulfill({
        json: {
          total: 1,
          entries: [
            {
              queue_id: 999_999,
              song_id: 1,
              title: 'Refused Song',
              artist: 'Someone',
              status: 'failed',
              priority_score: 250,
              download_attempts: 3,
              added_at: new Date().toISOString(),
              started_at: null,
              completed_at: null,
              last_error: 'Provider timed out',
            },
          ],
        },
      }),
  );
  const downloads = new DownloadsPage(page);
  await downloads.goto();
  const item = downloads.list.getByRole('listitem', { name: 'Refused Song' });
  await expect(item).toContainText('Last error: Provider timed out');
  await item.getByRole('button', { name: 'Retry' }).click();
  // The real server does not know entry 999999: its 404 message is shown.
  await expect(page.getByRole('alert').filter({ hasText: /999999|not found/i })).toBeVisible();
});

test('the preview shows what a run would fetch, and Start Downloads shows the server answer', async ({
  page,
  request,
}) => {
  const wasEnabled = await setDownloadEnabled(request, false);
  try {
    const downloads = new DownloadsPage(page);
    await downloads.goto();
    await downloads.previewButton.click();
    await expect(downloads.preview).toBeVisible();
    const preview = await getJson<ApiDownloadPreview>(request, '/api/downloads/preview');

    await expect(downloads.previewFigure('Candidates')).toHaveText(String(preview.total_candidates));
    await expect(downloads.previewFigure('Total Size')).toHaveText(
      `${preview.estimated_size_gb.toFixed(2)} GB`,
    );
    await expect(downloads.previewFigure('Estimated Time')).toHaveText(
      `${Math.round(preview.estimated_analysis_minutes)} min`,
    );
    await expect(downloads.previewFigure('Estimated Cost')).toHaveText(
      `$${preview.estimated_cost_usd.toFixed(2)} USD`,
    );
    await expect(downloads.preview).toContainText(`Minimum plays: ${preview.current_settings.minimum_plays}`);
    await expect(downloads.preview).toContainText(
      `Priority threshold: ${preview.current_settings.priority_threshold}`,
    );
    await expect(downloads.preview).toContainText('Downloads enabled: No');
    if (preview.top_songs.length === 0) {
      await expect(downloads.preview).toContainText('No song meets the download rules right now.');
    } else {
      await expect(downloads.preview.getByRole('row')).toHaveCount(
        Math.min(20, preview.top_songs.length) + 1,
      );
    }

    // Disabled downloads: the server refuses, and says why.
    const refusal = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/downloads/start',
    );
    await downloads.preview.getByRole('button', { name: 'Start Downloads' }).click();
    const refused = await refusal;
    expect(refused.status()).toBe(409);
    const { message: refusalMessage } = (await refused.json()) as { message: string };
    await expect(downloads.preview.getByRole('alert')).toHaveText(refusalMessage);
    expect(refusalMessage).toContain('Downloads are disabled');

    await downloads.preview.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(downloads.preview).toBeHidden();

    // Enabled, but no provider: the preview says so and the server refuses.
    await setDownloadEnabled(request, true);
    await downloads.previewButton.click();
    await expect(downloads.preview).toContainText('Downloads enabled: Yes');
    await expect(downloads.preview.getByRole('note')).toContainText('No download provider is configured');
    const noProvider = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/downloads/start',
    );
    await downloads.preview.getByRole('button', { name: 'Start Downloads' }).click();
    expect((await noProvider).status()).toBe(409);
    await expect(downloads.preview.getByRole('alert')).toContainText(
      'No download provider is enabled and configured',
    );
    await downloads.preview.getByRole('button', { name: 'Close', exact: true }).click();

    // With the inbox folder: the server queues the candidates and says what it did.
    await setProviders(request, true);
    await downloads.previewButton.click();
    await expect(downloads.preview).toContainText('Order: Inbox folder');
    const answer = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/downloads/start',
    );
    await downloads.preview.getByRole('button', { name: 'Start Downloads' }).click();
    const started = await answer;
    expect(started.ok()).toBe(true);
    const { message } = (await started.json()) as { message: string };
    await expect(downloads.preview.getByRole('status')).toHaveText(message);
  } finally {
    await setDownloadEnabled(request, wasEnabled);
    await setProviders(request, false);
  }
});

test("a failed queue load shows the server's message with Retry", async ({ page }) => {
  let isFailing = true;
  await page.route(
    (url) => url.pathname === '/api/downloads/queue',
    (route) =>
      isFailing
        ? route.fulfill({ status: 503, json: { message: 'Queue is being migrated' } })
        : route.fallback(),
  );
  const downloads = new DownloadsPage(page);
  await downloads.goto();
  const card = page.getByRole('alert').filter({ hasText: 'Failed to load the download queue' });
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card).toContainText('Queue is being migrated');
  isFailing = false;
  await card.getByRole('button', { name: 'Retry' }).click();
  await expect(card).toBeHidden();
});
