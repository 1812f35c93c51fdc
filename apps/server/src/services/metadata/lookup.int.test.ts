/**
 * Song metadata lookups through the API, against local fakes of MusicBrainz, iTunes and Spotify
 * answering in their documented formats: values filled with their sources, the DJ's and the
 * analyser's values kept, answers cached with their age, errors and rate limits shown per service,
 * the background job for songs without a file, and popularity honest without Spotify.
 */
import type { MetadataLookupResult, Song, SongMetadata, SpotifyPopularity } from '@wcs/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { songs } from '../../db/schema.js';
import { multipart } from '../../test/audio.js';
import {
  type ItunesTrackFixture,
  itunesSearch,
  type JsonFake,
  type MbRecordingFixture,
  mbRateLimited,
  mbSearch,
  type SpotifyFake,
  spotifySearch,
  startItunesFake,
  startMusicBrainzFake,
  startSpotifyFake,
} from '../../test/fakes/metadata-fakes.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { songSearchKey } from '../../text.js';
import { queueMetadataLookups } from './lookup.js';

const recording: MbRecordingFixture = {
  id: 'b1a9c0b4-0000-4000-8000-000000000001',
  score: 100,
  title: 'Talking Body',
  length: 238_000,
  'artist-credit': [{ name: 'Tove Lo' }],
  'first-release-date': '2014-09-30',
  isrcs: ['SEUM71401194'],
  releases: [{ id: 'r1', title: 'Queen of the Clouds' }],
};
const itunesTrack: ItunesTrackFixture = {
  wrapperType: 'track',
  kind: 'song',
  trackId: 912_345_678,
  artistName: 'Tove Lo',
  trackName: 'Talking Body',
  collectionName: 'Queen of the Clouds',
  releaseDate: '2014-09-24T07:00:00Z',
  primaryGenreName: 'Pop',
  artworkUrl100: 'https://is1-ssl.mzstatic.com/image/thumb/talking-body/100x100bb.jpg',
  previewUrl: 'https://audio-ssl.itunes.apple.com/talking-body.m4a',
  trackTimeMillis: 238_627,
  trackViewUrl: 'https://music.apple.com/us/album/talking-body/1?i=912345678',
};
const spotifyTrack = {
  id: '2a5ZcFDyJbZqUNRvOqIjQ5',
  name: 'Talking Body',
  popularity: 71,
  duration_ms: 238_626,
  external_ids: { isrc: 'SEUM71401194' },
  artists: [{ name: 'Tove Lo' }],
  album: { name: 'Queen of the Clouds', release_date: '2014-09-24' },
};

let mb: JsonFake;
let itunes: JsonFake;
let spotify: SpotifyFake;
let app: TestApp;
let unconfigured: TestApp;

beforeAll(async () => {
  mb = await startMusicBrainzFake(() => mbSearch([recording]));
  itunes = await startItunesFake(() => itunesSearch([itunesTrack]));
  spotify = await startSpotifyFake({ clientId: 'id-1', clientSecret: 'secret-1' }, () =>
    spotifySearch([spotifyTrack]),
  );
  const urls = { MUSICBRAINZ_URL: `${mb.url}/ws/2/`, ITUNES_URL: itunes.url };
  app = await createTestApp({
    env: {
      ...urls,
      WCS_METADATA_LOOKUP: 'auto',
      WCS_MUSICBRAINZ_CONTACT: 'dj@example.org',
      SPOTIFY_CLIENT_ID: 'id-1',
      SPOTIFY_CLIENT_SECRET: 'secret-1',
      SPOTIFY_ACCOUNTS_URL: spotify.url,
      SPOTIFY_API_URL: spotify.url,
    },
  });
  unconfigured = await createTestApp({ env: { ...urls, WCS_METADATA_LOOKUP: 'manual' } });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await unconfigured?.close();
  await Promise.all([mb?.close(), itunes?.close(), spotify?.close()]);
});

/** A song heard by a cloud recogniser: no file, its names and nothing else. */
async function recognisedSong(target: TestApp, title = 'Talking Body', artist = 'Tove Lo'): Promise<number> {
  const [row] = await target.deps.db
    .insert(songs)
    .values({
      title,
      artist,
      searchKey: songSearchKey(title, artist),
      externalIds: { acrcloud: `acr-${title}` },
      fieldSources: { title: 'acrcloud', artist: 'acrcloud' },
    })
    .returning({ id: songs.id });
  return row!.id;
}

async function lookup(target: TestApp, id: number, body?: object) {
  return target.app.inject({
    method: 'POST',
    url: `/api/songs/${id}/metadata/lookup`,
    ...(body ? { payload: body } : {}),
  });
}

describe('song metadata lookup', () => {
  it('fills an unknown song from the three services and says where each value came from', async () => {
    const id = await recognisedSong(app);
    const response = await lookup(app, id);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json() as MetadataLookupResult;
    expect(result.song).toMatchObject({
      release_date: '2014-09-30',
      isrc: 'SEUM71401194',
      album: 'Queen of the Clouds',
      genre: 'Pop',
      artwork_url: itunesTrack.artworkUrl100,
      preview_url: itunesTrack.previewUrl,
      duration_ms: 238_627,
      spotify_popularity: 71,
    });
    // The recogniser's names, confirmed by MusicBrainz, now count as MusicBrainz'.
    expect(result.song.sources).toEqual({
      title: 'musicbrainz',
      artist: 'musicbrainz',
      release_date: 'musicbrainz',
      isrc: 'musicbrainz',
      album: 'musicbrainz',
      genre: 'itunes',
      artwork_url: 'itunes',
      preview_url: 'itunes',
      duration_ms: 'itunes',
      spotify_popularity: 'spotify',
    });
    expect(result.changed.sort()).toEqual(
      [
        'album',
        'artwork_url',
        'duration_ms',
        'genre',
        'isrc',
        'preview_url',
        'release_date',
        'spotify_popularity',
      ].sort(),
    );
    expect(result.lookups.map((entry) => [entry.provider, entry.status, entry.from_cache])).toEqual([
      ['musicbrainz', 'found', false],
      ['itunes', 'found', false],
      ['spotify', 'found', false],
    ]);
    // MusicBrainz was asked with the product's User-Agent and the contact.
    expect(mb.requests.at(-1)!.headers['user-agent']).toBe('WCS-DJ-Library/0.1.0 ( dj@example.org )');
    // Spotify was asked by the ISRC MusicBrainz gave.
    expect(spotify.requests.at(-1)!.query.get('q')).toBe('isrc:SEUM71401194');

    const song = (await app.app.inject({ method: 'GET', url: `/api/songs/${id}` })).json() as Song;
    expect(song.sources.genre).toBe('itunes');
    const popularity = (
      await app.app.inject({ method: 'GET', url: `/api/analytics/spotify-popularity/${id}` })
    ).json() as SpotifyPopularity;
    expect(popularity.data).toMatchObject({
      current_popularity: 71,
      current_source: 'spotify',
      spotify_configured: true,
    });
    expect(popularity.data.history.map((point) => [point.popularity, point.source])).toEqual([
      [71, 'spotify'],
    ]);
  });

  it('answers from the cache while it is young, and asks again when forced', async () => {
    const id = await recognisedSong(app, 'Talking Body', 'Tove Lo');
    await lookup(app, id);
    const counts = () => [mb.requests.length, itunes.requests.length, spotify.requests.length];
    const before = counts();
    const cached = (await lookup(app, id)).json() as MetadataLookupResult;
    expect(counts()).toEqual(before);
    expect(cached.lookups.every((entry) => entry.from_cache && entry.fetched_at !== null)).toBe(true);
    expect(cached.changed).toEqual([]);
    const forced = (await lookup(app, id, { force: true })).json() as MetadataLookupResult;
    expect(counts().map((count, i) => count - before[i]!)).toEqual([1, 1, 1]);
    expect(forced.lookups.every((entry) => !entry.from_cache)).toBe(true);
    const stored = (
      await app.app.inject({ method: 'GET', url: `/api/songs/${id}/metadata` })
    ).json() as SongMetadata;
    expect(stored.lookups[0]).toMatchObject({
      provider: 'musicbrainz',
      status: 'found',
      match: { isrc: 'SEUM71401194' },
    });
  });

  it("never overwrites a value the DJ edited or the analyser computed, nor the file's tags", async () => {
    const id = await recognisedSong(app);
    await app.deps.db
      .update(songs)
      .set({
        durationMs: 240_000,
        releaseDate: '2015-01-01',
        fieldSources: {
          title: 'acrcloud',
          artist: 'acrcloud',
          duration_ms: 'analyser',
          release_date: 'tags',
        },
      })
      .where(eq(songs.id, id));
    const edit = await app.app.inject({
      method: 'PUT',
      url: `/api/songs/${id}`,
      payload: { genre: 'Blues/Jazz' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const result = (await lookup(app, id, { force: true })).json() as MetadataLookupResult;
    expect(result.song).toMatchObject({
      genre: 'Blues/Jazz',
      duration_ms: 240_000,
      release_date: '2015-01-01',
      isrc: 'SEUM71401194',
    });
    expect(result.song.sources).toMatchObject({
      genre: 'dj',
      duration_ms: 'analyser',
      release_date: 'tags',
      isrc: 'musicbrainz',
    });
    expect(result.changed).not.toContain('genre');
  });

  it('shows a rate-limited service and an error answer per service, and keeps what the others found', async () => {
    const id = await recognisedSong(app);
    mb.respond = () => mbRateLimited();
    itunes.respond = () => ({ status: 500, body: 'Internal Server Error' });
    try {
      const response = await lookup(app, id);
      expect(response.statusCode, response.body).toBe(200);
      const result = response.json() as MetadataLookupResult;
      const [mbLookup, itLookup, spLookup] = result.lookups;
      expect(mbLookup).toMatchObject({
        status: 'error',
        message: expect.stringMatching(/MusicBrainz is limiting requests \(HTTP 503\)/),
      });
      expect(itLookup).toMatchObject({
        status: 'error',
        message: expect.stringMatching(/iTunes Search API answered HTTP 500/),
      });
      expect(spLookup).toMatchObject({ status: 'found' });
      expect(result.song.spotify_popularity).toBe(71);
      expect(result.song.sources.spotify_popularity).toBe('spotify');
      expect(result.song.genre).toBeNull();
    } finally {
      mb.respond = () => mbSearch([recording]);
      itunes.respond = () => itunesSearch([itunesTrack]);
    }
  });

  it('looks up a new song without a file in the background', async () => {
    const id = await recognisedSong(app);
    await queueMetadataLookups(app.deps, [id]);
    const deadline = Date.now() + 30_000;
    let row: typeof songs.$inferSelect | undefined;
    while (Date.now() < deadline) {
      [row] = await app.deps.db.select().from(songs).where(eq(songs.id, id));
      if (row?.isrc) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(row).toMatchObject({ isrc: 'SEUM71401194', genre: 'Pop', releaseDate: '2014-09-30' });
  }, 40_000);

  it('looks up the new songs of a DJ-software import by itself, in the background', async () => {
    const title = 'Cool Girl';
    mb.respond = () => mbSearch([{ ...recording, id: 'cool-girl', title, isrcs: ['SEUM71600001'] }]);
    itunes.respond = () => itunesSearch([{ ...itunesTrack, trackName: title, primaryGenreName: 'R&B/Soul' }]);
    try {
      const { body, contentType } = multipart([
        { name: 'options', value: JSON.stringify({ format: 'm3u8' }) },
        {
          name: 'file',
          value: Buffer.from(`#EXTM3U\n#EXTINF:200,Tove Lo - ${title}\n/dj/music/cool-girl.mp3\n`),
          filename: 'set.m3u8',
          contentType: 'application/octet-stream',
        },
      ]);
      const imported = await app.app.inject({
        method: 'POST',
        url: '/api/interop/import',
        payload: body,
        headers: { 'content-type': contentType },
      });
      expect(imported.statusCode, imported.body).toBe(200);
      expect(imported.json().new_songs).toBe(1);
      const deadline = Date.now() + 30_000;
      let row: typeof songs.$inferSelect | undefined;
      while (Date.now() < deadline) {
        [row] = await app.deps.db.select().from(songs).where(eq(songs.title, title));
        if (row?.isrc) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(row).toMatchObject({ isrc: 'SEUM71600001', genre: 'Hip-Hop/R&B' });
      // The import's own names stay the DJ program's; the genre is iTunes', mapped as the import maps tags.
      expect(row!.fieldSources).toMatchObject({ title: 'dj_software', genre: 'itunes', isrc: 'musicbrainz' });
    } finally {
      mb.respond = () => mbSearch([recording]);
      itunes.respond = () => itunesSearch([itunesTrack]);
    }
  }, 40_000);

  it('lets a dj look up but not a viewer, and refuses when lookups are off', async () => {
    const id = await recognisedSong(app);
    const viewer = await app.injectAs('viewer', { method: 'POST', url: `/api/songs/${id}/metadata/lookup` });
    expect(viewer.statusCode).toBe(403);
    const dj = await app.injectAs('dj', { method: 'POST', url: `/api/songs/${id}/metadata/lookup` });
    expect(dj.statusCode).toBe(200);
    expect(
      (await app.app.inject({ method: 'POST', url: '/api/songs/999999/metadata/lookup' })).statusCode,
    ).toBe(404);
    const off = await createTestApp({ env: { WCS_METADATA_LOOKUP: 'off' } });
    try {
      const offId = await recognisedSong(off);
      const refused = await lookup(off, offId);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toMatch(/WCS_METADATA_LOOKUP=off/);
    } finally {
      await off.close();
    }
  }, 60_000);

  it('without Spotify credentials says popularity is not configured, and shows no Spotify values', async () => {
    const id = await recognisedSong(unconfigured);
    const result = (await lookup(unconfigured, id)).json() as MetadataLookupResult;
    expect(result.lookups[2]).toMatchObject({
      provider: 'spotify',
      status: 'not_configured',
      message: expect.stringMatching(/SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET/),
    });
    expect(result.song.spotify_popularity).toBeNull();
    const providers = (
      await unconfigured.app.inject({ method: 'GET', url: '/api/metadata/providers' })
    ).json();
    expect(providers).toMatchObject({ mode: 'manual', spotify_configured: false });
    const popularity = (
      await unconfigured.app.inject({ method: 'GET', url: `/api/analytics/spotify-popularity/${id}` })
    ).json() as SpotifyPopularity;
    expect(popularity.data).toMatchObject({
      current_popularity: null,
      spotify_configured: false,
      history: [],
    });
  });
});
