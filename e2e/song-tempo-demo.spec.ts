import { expect, test } from './fixtures.js';
import { type ApiList, getJson, trackPageErrors } from './pages/library-api.js';
import { type ApiSong, SongsPage } from './pages/songs-page.js';

/** The tempo fields of GET /api/songs (docs/api.md "Analysis"). */
type TempoSong = ApiSong & { bpm: number | null; bpm_alt: number | null; sources: Record<string, string> };

/**
 * The song modal's tempo switch (docs/api.md "Analysis") on the demo data, whose songs carry the
 * other octave: one click makes bpm_alt the song's BPM (kept as the DJ's), a second returns.
 */

let pageErrors: Error[] = [];
test.beforeEach(({ page }) => {
  pageErrors = trackPageErrors(page);
});
test.afterEach(() => {
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

test("a DJ switches a song's BPM to the other octave in one click, and back", async ({ page, request }) => {
  const list = await getJson<ApiList<TempoSong>>(request, '/api/songs/?skip=0&limit=50');
  expect(list.ok, list.message).toBe(true);
  const song = list.body.data.find((candidate) => candidate.bpm !== null && candidate.bpm_alt !== null);
  expect(song, 'the demo data has songs with a BPM and its other octave').toBeDefined();
  if (!song) return;
  const bpm = song.bpm!.toFixed(1);
  const alt = song.bpm_alt!.toFixed(1);

  const songs = new SongsPage(page);
  await songs.goto();
  await songs.songButton(song.title).click();
  const dialog = page.getByRole('dialog', { name: song.title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: `Use ${alt} instead` }).click();
  await expect(dialog.getByText('(set by a DJ)')).toBeVisible();
  await expect(dialog.getByRole('button', { name: `Use ${bpm} instead` })).toBeVisible();
  const changed = await getJson<TempoSong>(request, `/api/songs/${song.song_id}`);
  expect(changed.body).toMatchObject({ bpm: song.bpm_alt, bpm_alt: song.bpm, sources: { bpm: 'dj' } });

  await dialog.getByRole('button', { name: `Use ${bpm} instead` }).click();
  await expect(dialog.getByRole('button', { name: `Use ${alt} instead` })).toBeVisible();
  const back = await getJson<TempoSong>(request, `/api/songs/${song.song_id}`);
  expect(back.body).toMatchObject({ bpm: song.bpm, bpm_alt: song.bpm_alt });
});
