import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { expect, test } from './fixtures.js';
import { readResponse, trackPageErrors } from './pages/library-api.js';
import { SongsPage } from './pages/songs-page.js';
import { metadataFakePort } from './servers.js';
import { axeViolations, failingViolations } from './support/axe.js';

/**
 * A song a DJ program brought without a file is looked up from its modal: the server asks a local
 * stand-in answering in MusicBrainz' and the iTunes Search API's JSON formats (playwright.config.ts
 * points the server at it), and the modal shows each value with where it came from. The imported
 * names stay the DJ software's; Spotify, unconfigured here, says so instead of a number.
 */

const suffix = randomUUID().slice(0, 8);
const title = `Talking Body ${suffix}`;
const artist = 'Tove Lo';
let fake: http.Server;
const seen: Array<{ path: string; userAgent: string | undefined }> = [];

test.beforeAll(async () => {
  fake = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    seen.push({ path: url.pathname, userAgent: request.headers['user-agent'] });
    const json = (body: unknown) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/ws/2/recording') {
      json({
        created: '2026-11-25T12:00:00.000Z',
        count: 1,
        offset: 0,
        recordings: [
          {
            id: 'b1a9c0b4-0000-4000-8000-00000000e2e1',
            score: 100,
            title,
            length: 238_000,
            'artist-credit': [{ name: artist }],
            'first-release-date': '2014-09-30',
            isrcs: ['SEUM71401194'],
            releases: [{ id: 'r1', title: 'Queen of the Clouds' }],
          },
        ],
      });
    } else if (url.pathname === '/search') {
      json({
        resultCount: 1,
        results: [
          {
            wrapperType: 'track',
            kind: 'song',
            trackId: 912_345_678,
            artistName: artist,
            trackName: title,
            collectionName: 'Queen of the Clouds',
            releaseDate: '2014-09-24T07:00:00Z',
            primaryGenreName: 'Pop',
            artworkUrl100: 'https://is1-ssl.mzstatic.com/image/thumb/e2e/100x100bb.jpg',
            previewUrl: 'https://audio-ssl.itunes.apple.com/e2e.m4a',
            trackTimeMillis: 238_627,
          },
        ],
      });
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => fake.listen(metadataFakePort, '127.0.0.1', resolve));
});

test.afterAll(async () => {
  fake?.closeAllConnections();
  await new Promise((resolve) => fake?.close(resolve));
});

test('the song modal looks a song up and shows each value with its source', async ({ page, request }) => {
  test.setTimeout(120_000);
  const pageErrors = trackPageErrors(page);
  // A DJ program's playlist naming a file this server does not have: a song without a file.
  const imported = await request.post('/api/interop/import', {
    multipart: {
      file: {
        name: 'set.m3u8',
        mimeType: 'audio/x-mpegurl',
        buffer: Buffer.from(`#EXTM3U\n#EXTINF:238,${artist} - ${title}\n/dj/music/${suffix}.mp3\n`),
      },
      options: JSON.stringify({ format: 'm3u8' }),
    },
  });
  const importAnswer = await readResponse<{ new_songs: number }>(imported);
  expect(importAnswer.ok, importAnswer.message).toBe(true);
  expect(importAnswer.body.new_songs).toBe(1);

  const songs = new SongsPage(page);
  await songs.goto();
  await songs.search.fill(suffix);
  await songs.songButton(title).click();
  const modal = page.getByRole('dialog', { name: title });
  await expect(modal).toBeVisible();

  const values = modal.getByRole('table', { name: 'Values and their sources' });
  const row = (label: string) => values.getByRole('row', { name: new RegExp(`^${label} `) });
  await expect(row('Title')).toContainText('DJ software');
  await expect(row('Genre')).toContainText('—');

  await modal.getByRole('button', { name: 'Look up metadata' }).click();
  await expect(modal.getByRole('status')).toContainText('Filled from the services');
  await expect(row('Genre').getByRole('cell')).toHaveText(['Pop', 'iTunes']);
  await expect(row('Release date').getByRole('cell')).toHaveText(['30.09.2014', 'MusicBrainz']);
  await expect(row('ISRC').getByRole('cell')).toHaveText(['SEUM71401194', 'MusicBrainz']);
  // The DJ program's names are kept, not replaced by the service's.
  await expect(row('Title').getByRole('cell')).toHaveText([title, 'DJ software']);
  await expect(row('Popularity').getByRole('cell').first()).toHaveText('not configured');

  const services = modal.getByRole('list', { name: 'Metadata services' });
  await expect(services).toContainText(`found "${title}" by ${artist}`);
  await expect(services).toContainText('SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET');

  // Store links: searches for artist and title, in a new tab without an opener.
  const bandcamp = modal.getByRole('link', { name: 'Bandcamp (opens in a new tab)' });
  await expect(bandcamp).toHaveAttribute(
    'href',
    `https://bandcamp.com/search?q=${encodeURIComponent(`${artist} ${title}`)}&item_type=t`,
  );
  await expect(bandcamp).toHaveAttribute('target', '_blank');
  await expect(bandcamp).toHaveAttribute('rel', 'noopener noreferrer');

  // The modal with its new sections stays free of serious and critical axe violations.
  expect(failingViolations(await axeViolations(page, { include: 'dialog[open]' }))).toEqual([]);

  // The server asked MusicBrainz with the product's User-Agent.
  expect(seen.find((request) => request.path === '/ws/2/recording')?.userAgent).toMatch(/^WCS-DJ-Library\//);
  expect(pageErrors).toEqual([]);
});
