import { expect, test } from './fixtures.js';
import { type ApiList, getJson, readResponse, trackPageErrors, waitForApi } from './pages/library-api.js';
import { type ApiPlaylist, PlaylistsPage } from './pages/playlists-page.js';

/**
 * Playlists are generated from analysed songs with files (library import or demo data). Without
 * them the list is empty; the card test skips until the server has active playlists.
 */

let pageErrors: Error[] = [];
test.beforeEach(({ page }) => {
  pageErrors = trackPageErrors(page);
});
test.afterEach(() => {
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

test('the active playlists as the server lists them', async ({ page }) => {
  const playlists = new PlaylistsPage(page);
  const list = waitForApi(page, '/api/playlists', { is_active: 'true' });
  await playlists.goto();
  const answer = await readResponse<ApiList<ApiPlaylist>>(await list);
  expect(answer.ok, answer.message).toBe(true);

  await expect(playlists.heading).toBeVisible();
  await expect(playlists.activeHeading).toHaveText(`Active Playlists (${answer.body.total})`);
  if (answer.body.data.length === 0) {
    await expect(page.getByText('No active playlists yet', { exact: true })).toBeVisible();
  } else {
    await expect(playlists.list.getByRole('listitem')).toHaveCount(answer.body.data.length);
  }
});

test('Regenerate All Playlists regenerates, says so, and loads the list again', async ({ page }) => {
  const playlists = new PlaylistsPage(page);
  await playlists.goto();
  await expect(playlists.activeHeading).toBeVisible();

  const regenerated = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/playlists/regenerate',
  );
  // The list is asked for again after the regeneration. Waited for from before the click: the
  // page may ask and be answered before this test gets to wait, and a waiter set up then waits in vain.
  const listed = waitForApi(page, '/api/playlists', { is_active: 'true' });
  listed.catch(() => {}); // (awaited only when the regeneration succeeded)
  await playlists.regenerateButton.click();
  const response = await regenerated;
  const answer = await readResponse<{ message: string; active: number }>(response);
  if (answer.ok) {
    await expect(page.getByRole('status').filter({ hasText: answer.body.message })).toBeVisible();
    const list = await readResponse<ApiList<ApiPlaylist>>(await listed);
    expect(list.body.total).toBe(answer.body.active);
    await expect(playlists.activeHeading).toHaveText(`Active Playlists (${answer.body.active})`);
  } else {
    await expect(page.getByRole('main').getByRole('alert')).toContainText(answer.message);
  }
  await expect(playlists.regenerateButton).toBeEnabled();
});

test('each playlist shows its badges and a link to its M3U8', async ({ page, request }) => {
  const list = await getJson<ApiList<ApiPlaylist>>(request, '/api/playlists?is_active=true');
  test.skip(
    list.body.data.length === 0,
    'No active playlists: they are generated from analysed songs with files (library import or demo data).',
  );
  const playlists = new PlaylistsPage(page);
  await playlists.goto();
  for (const playlist of list.body.data.slice(0, 5)) {
    const card = playlists.card(playlist.playlist_name);
    await expect(card).toContainText(`${playlist.song_count} songs`);
    await expect(card).toContainText(`${Math.round(playlist.total_duration_seconds / 60)} min`);
    const link = card.getByRole('link', { name: `Download M3U8 of ${playlist.playlist_name}` });
    await expect(link).toHaveAttribute('href', `/api/playlists/${playlist.playlist_id}/m3u8`);
    const file = await request.get(`/api/playlists/${playlist.playlist_id}/m3u8`);
    expect((await file.text()).startsWith('#EXTM3U')).toBe(true);
  }
});
