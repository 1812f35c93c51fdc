/** The Spotify adapter against a local fake of the accounts service and the Web API. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadUrl } from '../../test/fakes/cloud-fakes.js';
import {
  type SpotifyFake,
  type SpotifyTrackFixture,
  spotifySearch,
  startSpotifyFake,
} from '../../test/fakes/metadata-fakes.js';
import { createSpotifyProvider } from './spotify.js';

const credentials = { clientId: 'client-1', clientSecret: 'secret-1' };
const track: SpotifyTrackFixture = {
  id: '1lgN0A2Vki2FTON5PYq42m',
  name: 'Warriors',
  popularity: 77,
  duration_ms: 170_733,
  external_ids: { isrc: 'USUM71414187' },
  external_urls: { spotify: 'https://open.spotify.com/track/1lgN0A2Vki2FTON5PYq42m' },
  artists: [{ name: 'Imagine Dragons' }],
  album: { name: 'Warriors', release_date: '2014-09-18', images: [{ url: 'https://i.scdn.co/image/abc' }] },
};

let fake: SpotifyFake;
beforeAll(async () => {
  fake = await startSpotifyFake(credentials);
});
afterAll(async () => {
  await fake?.close();
});
const provider = (overrides: Partial<typeof credentials> = {}) =>
  createSpotifyProvider({ ...credentials, ...overrides, accountsUrl: fake.url, apiUrl: fake.url });

describe('spotify', () => {
  it('gets a client-credentials token once, searches tracks and reads popularity and ISRC', async () => {
    fake.respond = () => spotifySearch([{ ...track, id: 'other', artists: [{ name: 'Tribute' }] }, track]);
    const spotify = provider();
    const match = await spotify.lookup({ title: 'Warriors', artist: 'Imagine Dragons', isrc: null });
    expect(match).toEqual({
      provider: 'spotify',
      providerId: track.id,
      url: track.external_urls?.spotify,
      title: 'Warriors',
      artist: 'Imagine Dragons',
      album: 'Warriors',
      releaseDate: '2014-09-18',
      isrc: 'USUM71414187',
      genres: [],
      artworkUrl: 'https://i.scdn.co/image/abc',
      previewUrl: null,
      durationMs: 170_733,
      popularity: 77,
    });
    const tokenRequest = fake.requests.find((request) => request.path === '/api/token')!;
    expect(new URLSearchParams(tokenRequest.body).get('grant_type')).toBe('client_credentials');
    const search = fake.requests.at(-1)!;
    expect(search.query.get('q')).toBe('track:Warriors artist:Imagine Dragons');
    expect(search.query.get('type')).toBe('track');
    await spotify.lookup({ title: 'Warriors', artist: 'Imagine Dragons', isrc: null });
    expect(fake.tokensIssued).toBe(1);
  });

  it('asks by ISRC first when the song has one', async () => {
    fake.respond = (request) => spotifySearch(request.query.get('q') === 'isrc:USUM71414187' ? [track] : []);
    const match = await provider().lookup({ title: 'x', artist: 'y', isrc: 'USUM71414187' });
    expect(match?.popularity).toBe(77);
  });

  it('retries once after a 429 with Retry-After and then reports the rate limit', async () => {
    let calls = 0;
    fake.respond = () =>
      ++calls === 1
        ? {
            status: 429,
            headers: { 'retry-after': '1' },
            body: { error: { status: 429, message: 'API rate limit exceeded' } },
          }
        : spotifySearch([track]);
    const started = Date.now();
    expect(
      (await provider().lookup({ title: 'Warriors', artist: 'Imagine Dragons', isrc: null }))?.popularity,
    ).toBe(77);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    fake.respond = () => ({
      status: 429,
      headers: { 'retry-after': '3600' },
      body: { error: { status: 429, message: 'API rate limit exceeded' } },
    });
    await expect(
      provider().lookup({ title: 'Warriors', artist: 'Imagine Dragons', isrc: null }),
    ).rejects.toMatchObject({
      rateLimited: true,
      message: expect.stringMatching(/Spotify is limiting requests \(HTTP 429\)/),
    });
  });

  it('reports wrong credentials, an error answer and an unreachable server', async () => {
    await expect(
      provider({ clientSecret: 'wrong' }).lookup({ title: 'a', artist: 'b', isrc: null }),
    ).rejects.toThrow(
      /Spotify answered HTTP 400: Invalid client \(check SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET\)/,
    );
    fake.respond = () => ({ status: 502, body: { error: { status: 502, message: 'Bad gateway' } } });
    await expect(provider().lookup({ title: 'a', artist: 'b', isrc: null })).rejects.toThrow(
      /Spotify answered HTTP 502: Bad gateway/,
    );
    const url = await deadUrl();
    const gone = createSpotifyProvider({ ...credentials, accountsUrl: url, apiUrl: url });
    await expect(gone.lookup({ title: 'a', artist: 'b', isrc: null })).rejects.toThrow(
      /Spotify could not be reached/,
    );
  });
});
