/** The iTunes Search API adapter against a local fake answering in its documented JSON. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadUrl } from '../../test/fakes/cloud-fakes.js';
import {
  type ItunesTrackFixture,
  itunesSearch,
  type JsonFake,
  startItunesFake,
} from '../../test/fakes/metadata-fakes.js';
import { createItunesProvider } from './itunes.js';

const track: ItunesTrackFixture = {
  wrapperType: 'track',
  kind: 'song',
  trackId: 880_000_001,
  artistName: 'Imagine Dragons',
  trackName: 'Warriors',
  collectionName: 'Smoke + Mirrors (Deluxe)',
  releaseDate: '2014-09-18T07:00:00Z',
  primaryGenreName: 'Alternative',
  artworkUrl100: 'https://is1-ssl.mzstatic.com/image/thumb/x/100x100bb.jpg',
  previewUrl: 'https://audio-ssl.itunes.apple.com/preview.m4a',
  trackTimeMillis: 170_000,
  trackViewUrl: 'https://music.apple.com/us/album/warriors/1?i=880000001',
  country: 'USA',
};

let fake: JsonFake;
beforeAll(async () => {
  fake = await startItunesFake();
});
afterAll(async () => {
  await fake?.close();
});
const provider = () => createItunesProvider({ url: fake.url, country: 'us' });

describe('itunes', () => {
  it('searches songs by artist and title and reads genre, artwork, preview and duration', async () => {
    fake.respond = () =>
      itunesSearch([
        {
          wrapperType: 'collection',
          collectionType: 'Album',
          collectionId: 1,
          artistName: 'Imagine Dragons',
        },
        { ...track, trackId: 2, trackName: 'Warriors (Karaoke Version)', artistName: 'Sing Along Band' },
        track,
      ]);
    const match = await provider().lookup({ title: 'Warriors', artist: 'Imagine Dragons', isrc: null });
    expect(match).toEqual({
      provider: 'itunes',
      providerId: '880000001',
      url: track.trackViewUrl,
      title: 'Warriors',
      artist: 'Imagine Dragons',
      album: 'Smoke + Mirrors (Deluxe)',
      releaseDate: '2014-09-18',
      isrc: null,
      genres: ['Alternative'],
      artworkUrl: track.artworkUrl100,
      previewUrl: track.previewUrl,
      durationMs: 170_000,
      popularity: null,
    });
    const request = fake.requests.at(-1)!;
    expect(Object.fromEntries(request.query)).toEqual({
      term: 'Imagine Dragons Warriors',
      media: 'music',
      entity: 'song',
      country: 'us',
      limit: '10',
    });
  });

  it('returns null when no song of the answer is the one asked for', async () => {
    fake.respond = () => itunesSearch([{ ...track, trackName: 'Radioactive' }]);
    expect(await provider().lookup({ title: 'Warriors', artist: 'Imagine Dragons', isrc: null })).toBeNull();
  });

  it('retries once after a 429 or 403 and then reports the rate limit', async () => {
    let calls = 0;
    fake.respond = () =>
      ++calls === 1 ? { status: 429, headers: { 'retry-after': '0' } } : itunesSearch([track]);
    expect(
      (await provider().lookup({ title: 'Warriors', artist: 'Imagine Dragons', isrc: null }))?.providerId,
    ).toBe('880000001');
    expect(calls).toBe(2);
    fake.respond = () => ({ status: 403, body: '', headers: { 'retry-after': '0' } });
    await expect(
      provider().lookup({ title: 'Warriors', artist: 'Imagine Dragons', isrc: null }),
    ).rejects.toMatchObject({
      rateLimited: true,
      message: expect.stringMatching(/iTunes Search API is limiting requests \(HTTP 403\)/),
    });
  });

  it('reports an error answer and an unreachable server', async () => {
    fake.respond = () => ({ status: 500, body: 'Internal Server Error' });
    await expect(provider().lookup({ title: 'a', artist: 'b', isrc: null })).rejects.toThrow(
      /iTunes Search API answered HTTP 500: Internal Server Error/,
    );
    fake.respond = () => ({ json: { errorMessage: 'Invalid value(s) for key(s): [media]' } });
    await expect(provider().lookup({ title: 'a', artist: 'b', isrc: null })).rejects.toThrow(
      /not a search result/,
    );
    const gone = createItunesProvider({ url: await deadUrl(), country: 'us' });
    await expect(gone.lookup({ title: 'a', artist: 'b', isrc: null })).rejects.toThrow(
      /could not be reached/,
    );
  });
});
