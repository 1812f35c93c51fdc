import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures.js';
import { type ApiList, getJson, trackPageErrors } from './pages/library-api.js';
import { type ApiPlaylist, PlaylistsPage } from './pages/playlists-page.js';
import { SongsPage } from './pages/songs-page.js';

/**
 * The Export menus (docs/product.md "Playlists" and "Import from DJ software") on the demo data,
 * whose generated playlists the fresh server lacks: each playlist downloads in every format the
 * export writes, beside its M3U8 link, and the Songs page downloads the whole library.
 */

const FORMATS = ['rekordbox XML', 'Traktor NML', 'Serato crate', 'VirtualDJ M3U', 'M3U8', 'CSV'];

let pageErrors: Error[] = [];
test.beforeEach(({ page }) => {
  pageErrors = trackPageErrors(page);
});
test.afterEach(() => {
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

test('a playlist downloads as rekordbox XML from its Export menu, its M3U8 link kept', async ({
  page,
  request,
}) => {
  const list = await getJson<ApiList<ApiPlaylist>>(request, '/api/playlists?is_active=true');
  expect(list.ok, list.message).toBe(true);
  const playlist = list.body.data[0];
  expect(playlist, 'the demo data has generated playlists').toBeDefined();
  if (!playlist) return;

  const playlists = new PlaylistsPage(page);
  await playlists.goto();
  const card = playlists.card(playlist.playlist_name);
  await expect(
    card.getByRole('link', { name: `Download M3U8 of ${playlist.playlist_name}` }),
  ).toHaveAttribute('href', `/api/playlists/${playlist.playlist_id}/m3u8`);

  const exportButton = card.getByRole('button', { name: `Export ${playlist.playlist_name}`, exact: true });
  await expect(exportButton).toHaveAttribute('aria-expanded', 'false');
  // Keyboard: the button opens the list, whose links are the next stops of Tab.
  await exportButton.focus();
  await page.keyboard.press('Enter');
  const formats = card.getByRole('list', { name: `Formats to export ${playlist.playlist_name}` });
  await expect(formats.getByRole('link')).toHaveText(FORMATS);
  await expect(formats.getByRole('link', { name: `CSV of ${playlist.playlist_name}` })).toHaveAttribute(
    'href',
    `/api/interop/export/csv?playlist_id=${playlist.playlist_id}`,
  );

  const downloaded = page.waitForEvent('download');
  await formats.getByRole('link', { name: `rekordbox XML of ${playlist.playlist_name}` }).click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/\.xml$/);
  const path = await download.path();
  const xml = await readFile(path, 'utf8');
  expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<DJ_PLAYLISTS Version="1.0.0">/);
  expect(xml).toContain(`Name="${playlist.playlist_name.replace(/&/g, '&amp;')}"`);
  // Choosing a format closes the list.
  await expect(formats).toBeHidden();
});

test('the Songs page downloads the whole library from Export library', async ({ page }) => {
  const songs = new SongsPage(page);
  await songs.goto();
  const button = page.getByRole('button', { name: 'Export library', exact: true });
  await button.click();
  const formats = page.getByRole('list', { name: 'Formats to export the whole library' });
  await expect(formats.getByRole('link')).toHaveText(FORMATS);
  const downloaded = page.waitForEvent('download');
  await formats.getByRole('link', { name: 'Traktor NML of the whole library' }).click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/\.nml$/);
  // A click elsewhere closes the list.
  await button.click();
  await expect(formats).toBeVisible();
  await songs.heading.click();
  await expect(formats).toBeHidden();
});

test('the Overplay page downloads the whole fresh songs pool, with the genre chosen', async ({
  page,
  request,
}) => {
  await page.goto('/overplay');
  const card = page.getByRole('region', { name: 'Fresh Songs Pool' });
  await card.getByLabel('Genre').selectOption('Pop');
  await card.getByRole('button', { name: 'Export the fresh songs pool', exact: true }).click();
  const formats = card.getByRole('list', { name: 'Formats to export the fresh songs pool' });
  await expect(formats.getByRole('link')).toHaveText(FORMATS);
  const csvLink = formats.getByRole('link', { name: 'CSV of the fresh songs pool' });
  await expect(csvLink).toHaveAttribute('href', '/api/interop/export/csv?fresh_pool=true&genre=Pop');

  const downloaded = page.waitForEvent('download');
  await csvLink.click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toBe('Fresh songs pool (Pop).csv');
  const csv = await readFile(await download.path(), 'utf8');
  // Every song of the pool, not only the page the card lists: one line each under the header.
  const pool = await getJson<{ total: number }>(request, '/api/analytics/fresh-songs-pool?genre=Pop&limit=1');
  expect(pool.ok, pool.message).toBe(true);
  expect(csv.trim().split('\n').length - 1).toBe(pool.body.total);
});
