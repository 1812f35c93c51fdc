/** The MusicBrainz adapter against a local fake answering in the ws/2 JSON format. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadUrl } from '../../test/fakes/cloud-fakes.js';
import {
  type JsonFake,
  type MbRecordingFixture,
  mbRateLimited,
  mbSearch,
  startMusicBrainzFake,
} from '../../test/fakes/metadata-fakes.js';
import { createMusicBrainzProvider, createSpacingGate } from './musicbrainz.js';

const userAgent = 'WCS-DJ-Library/0.1.0 ( dj@example.org )';
const warriors: MbRecordingFixture = {
  id: '5b2ef9e4-9a4b-4a0b-8d0a-3f1f6f3e8a11',
  score: 100,
  title: 'Warriors',
  length: 170_213,
  'artist-credit': [{ name: 'Imagine Dragons', artist: { id: 'a1', name: 'Imagine Dragons' } }],
  'first-release-date': '2014-09-18',
  isrcs: ['USUM71414187'],
  releases: [{ id: 'r1', title: 'Warriors', date: '2014-09-18', status: 'Official' }],
};

let fake: JsonFake;
beforeAll(async () => {
  fake = await startMusicBrainzFake();
});
afterAll(async () => {
  await fake?.close();
});

const provider = () => createMusicBrainzProvider({ url: `${fake.url}/ws/2/`, userAgent });

describe('musicbrainz', () => {
  it('searches recordings by title and artist with its User-Agent and reads the best hit', async () => {
    fake.respond = () =>
      mbSearch([
        { ...warriors, id: 'cover', score: 70, 'artist-credit': [{ name: 'Some Cover Band' }] },
        warriors,
      ]);
    const match = await provider().lookup({ title: 'warriors', artist: 'IMAGINE DRAGONS', isrc: null });
    expect(match).toEqual({
      provider: 'musicbrainz',
      providerId: warriors.id,
      url: `${fake.url}/recording/${warriors.id}`,
      title: 'Warriors',
      artist: 'Imagine Dragons',
      album: 'Warriors',
      releaseDate: '2014-09-18',
      isrc: 'USUM71414187',
      genres: [],
      artworkUrl: null,
      previewUrl: null,
      durationMs: 170_213,
      popularity: null,
    });
    const request = fake.requests.at(-1)!;
    expect(request.headers['user-agent']).toBe(userAgent);
    expect(request.query.get('query')).toBe('recording:"warriors" AND artist:"IMAGINE DRAGONS"');
    expect(request.query.get('fmt')).toBe('json');
  });

  it('joins artist credits, escapes quotes and asks by ISRC when one is known', async () => {
    fake.respond = () =>
      mbSearch([
        {
          ...warriors,
          'artist-credit': [
            { name: 'Calvin Harris', joinphrase: ' feat. ' },
            { name: 'Rihanna', joinphrase: '' },
          ],
          title: 'This Is What You Came For',
        },
      ]);
    const byIsrc = await provider().lookup({ title: 'x', artist: 'y', isrc: 'GBARL1600497' });
    expect(byIsrc?.artist).toBe('Calvin Harris feat. Rihanna');
    expect(fake.requests.at(-1)!.query.get('query')).toBe('isrc:GBARL1600497');
    fake.respond = () => mbSearch([]);
    expect(await provider().lookup({ title: 'Say "Hi"', artist: 'A\\B', isrc: null })).toBeNull();
    expect(fake.requests.at(-1)!.query.get('query')).toBe('recording:"Say \\"Hi\\"" AND artist:"A\\\\B"');
  });

  it('returns null when no hit names the same song', async () => {
    fake.respond = () => mbSearch([{ ...warriors, title: 'Believer' }]);
    expect(await provider().lookup({ title: 'Warriors', artist: 'Imagine Dragons', isrc: null })).toBeNull();
  });

  it('keeps one second between requests across the process, whichever adapter sends them', async () => {
    fake.respond = () => mbSearch([warriors]);
    const before = fake.requests.length;
    const query = { title: 'Warriors', artist: 'Imagine Dragons', isrc: null };
    // Two adapters, three concurrent lookups: MusicBrainz must still see them a second apart.
    await Promise.all([provider().lookup(query), provider().lookup(query), provider().lookup(query)]);
    const times = fake.requests.slice(before).map((request) => request.at);
    expect(times).toHaveLength(3);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(990);
  });

  it('waits and retries once after a 503, and reports the rate limit when it persists', async () => {
    let calls = 0;
    fake.respond = () =>
      ++calls === 1 ? { ...mbRateLimited(), headers: { 'retry-after': '1' } } : mbSearch([warriors]);
    const before = fake.requests.length;
    const match = await provider().lookup({ title: 'Warriors', artist: 'Imagine Dragons', isrc: null });
    expect(match?.releaseDate).toBe('2014-09-18');
    const [first, second] = fake.requests.slice(before);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(990);

    fake.respond = () => mbRateLimited();
    await expect(
      provider().lookup({ title: 'Warriors', artist: 'Imagine Dragons', isrc: null }),
    ).rejects.toMatchObject({
      rateLimited: true,
      message: expect.stringMatching(/MusicBrainz is limiting requests \(HTTP 503\)/),
    });
  });

  it('reports an error answer, a body that is not a search, and an unreachable server', async () => {
    fake.respond = () => ({ status: 400, body: { error: 'Invalid query: unbalanced quotes', help: '...' } });
    await expect(provider().lookup({ title: 'a', artist: 'b', isrc: null })).rejects.toThrow(
      /MusicBrainz answered HTTP 400: Invalid query: unbalanced quotes/,
    );
    fake.respond = () => ({ json: { something: 'else' } });
    await expect(provider().lookup({ title: 'a', artist: 'b', isrc: null })).rejects.toThrow(
      /not a recording search/,
    );
    const gone = createMusicBrainzProvider({ url: `${await deadUrl()}/ws/2/`, userAgent });
    await expect(gone.lookup({ title: 'a', artist: 'b', isrc: null })).rejects.toThrow(
      /MusicBrainz could not be reached/,
    );
  });

  it('the fake refuses a request without a meaningful User-Agent, as MusicBrainz does', async () => {
    const anonymous = createMusicBrainzProvider({ url: `${fake.url}/ws/2/`, userAgent: 'node' });
    await expect(anonymous.lookup({ title: 'a', artist: 'b', isrc: null })).rejects.toThrow(/HTTP 403/);
  });
});

describe('createSpacingGate', () => {
  it('runs tasks one after another, spaced, and keeps going after a failure', async () => {
    const gate = createSpacingGate(50);
    const starts: number[] = [];
    const task = (fail: boolean) => () => {
      starts.push(Date.now());
      return fail ? Promise.reject(new Error('boom')) : Promise.resolve('ok');
    };
    const results = await Promise.allSettled([gate(task(false)), gate(task(true)), gate(task(false))]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(45);
  });
});
