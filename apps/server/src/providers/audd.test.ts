/** The AudD adapter against a local fake that checks the token like the service. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuddAnswer,
  auddError,
  auddSuccess,
  deadUrl,
  type FakeServer,
  startAuddFake,
} from '../test/fakes/cloud-fakes.js';
import { createAuddRecognizer } from './audd.js';

const clip = {
  bytes: Buffer.from('RIFF....WAVEfake clip bytes'),
  filename: 'clip.wav',
  contentType: 'audio/wav',
};
let fake: FakeServer<AuddAnswer>;

beforeAll(async () => {
  fake = await startAuddFake('token-abc');
});
afterAll(async () => {
  await fake?.close();
});

describe('audd', () => {
  it('posts api_token and the file, and reads the result', async () => {
    fake.respond = () =>
      auddSuccess({
        artist: 'Imagine Dragons',
        title: 'Warriors',
        album: 'Warriors',
        release_date: '2014-09-18',
        label: 'Universal Music',
        timecode: '00:40',
        song_link: 'https://lis.tn/Warriors',
        apple_music: { isrc: 'USUM71414187', genreNames: ['Alternative', 'Music'] },
      });
    const match = await createAuddRecognizer({ apiToken: 'token-abc', url: `${fake.url}/` }).identify(clip);
    expect(match).toEqual({
      provider: 'audd',
      title: 'Warriors',
      artist: 'Imagine Dragons',
      album: 'Warriors',
      releaseDate: '2014-09-18',
      isrc: 'USUM71414187',
      providerId: 'https://lis.tn/Warriors',
      score: null,
      genres: ['Alternative'],
    });
    const request = fake.requests.at(-1)!;
    expect(request.fields.api_token).toBe('token-abc');
    expect(request.fields.return).toBe('apple_music,spotify');
    expect(request.file?.bytes.equals(clip.bytes)).toBe(true);
  });

  it('returns null when nothing was recognised', async () => {
    fake.respond = () => auddSuccess(null);
    expect(await createAuddRecognizer({ apiToken: 'token-abc', url: fake.url }).identify(clip)).toBeNull();
  });

  it('reports a wrong token, a limit, an HTTP failure and an unreachable server', async () => {
    fake.respond = () => auddSuccess(null);
    await expect(createAuddRecognizer({ apiToken: 'wrong', url: fake.url }).identify(clip)).rejects.toThrow(
      /AudD refused the request: .*wrong api_token.* \(code 900\)/,
    );
    fake.respond = () => auddError(902, 'Recognition failed: the limit of requests was reached.');
    const recognizer = createAuddRecognizer({ apiToken: 'token-abc', url: fake.url });
    await expect(recognizer.identify(clip)).rejects.toThrow(/limit of requests.*\(code 902\)/);
    fake.respond = () => 500;
    await expect(recognizer.identify(clip)).rejects.toThrow(/AudD answered HTTP 500/);
    await expect(
      createAuddRecognizer({ apiToken: 'token-abc', url: `${await deadUrl()}/` }).identify(clip),
    ).rejects.toThrow(/AudD could not be reached/);
  });
});
