import { expect, test } from './fixtures.js';
import { type ApiQueueEntry, DownloadsPage, getJson } from './pages/downloads-page.js';

/** Runs against the demo-seeded server (project 'demo'): its queue has pending and failed entries. */
const pageErrors: Error[] = [];
test.beforeEach(({ page }) => {
  pageErrors.length = 0;
  page.on('pageerror', (error) => pageErrors.push(error));
});
test.afterEach(() => {
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

const queueOf = (request: Parameters<typeof getJson>[0]) =>
  getJson<{ entries: ApiQueueEntry[]; total: number }>(request, '/api/downloads/queue', { limit: '100' });

test('queue entries show their details; failed ones offer Retry, completed ones a disabled Done', async ({
  page,
  request,
}) => {
  // The demo seed queues its candidates and shows some as failed (no download provider exists).
  const { entries } = await queueOf(request);
  expect(entries.length).toBeGreaterThan(0);
  const downloads = new DownloadsPage(page);
  await downloads.goto();
  for (const entry of entries.slice(0, 5)) {
    // Titles repeat in a library (covers, remixes): an entry is its title and artist.
    const item = downloads.list
      .getByRole('listitem', { name: entry.title, exact: true })
      .filter({ hasText: entry.artist })
      .first();
    await expect(item).toContainText(entry.status);
    await expect(item).toContainText(`Priority ${Math.round(entry.priority_score * 10) / 10}`);
    await expect(item).toContainText(`Attempts: ${entry.download_attempts}`);
    if (entry.last_error) await expect(item).toContainText(entry.last_error);
    await expect(item.getByRole('button', { name: 'Retry' })).toHaveCount(entry.status === 'failed' ? 1 : 0);
    if (entry.status === 'completed') await expect(item.getByRole('button', { name: 'Done' })).toBeDisabled();
  }

  const failed = entries.find((entry) => entry.status === 'failed');
  expect(failed, 'the demo queue holds failed entries').toBeDefined();
  if (!failed) return;
  const item = downloads.list
    .getByRole('listitem', { name: failed.title, exact: true })
    .filter({ hasText: failed.artist })
    .filter({ has: page.getByRole('button', { name: 'Retry' }) })
    .first();
  await item.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'is back in the queue' })).toBeVisible();
});
