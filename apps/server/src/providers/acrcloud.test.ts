/** The ACRCloud adapter against a local fake that checks the signed request like the service. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acrError,
  acrNoResult,
  acrSuccess,
  deadUrl,
  type FakeServer,
  startAcrCloudFake,
} from '../test/fakes/cloud-fakes.js';
import { acrCloudSignature, acrCloudUrl, createAcrCloudRecognizer } from './acrcloud.js';
import { CloudRecognizerError } from './cloud-recognizer.js';

const credentials = { accessKey: 'key-123', accessSecret: 'secret-456' };
const clip = {
  bytes: Buffer.from('RIFF....WAVEfake clip bytes'),
  filename: 'clip.wav',
  contentType: 'audio/wav',
};
let fake: FakeServer<Awaited<ReturnType<typeof acrNoResult>>>;

beforeAll(async () => {
  fake = await startAcrCloudFake(credentials);
});
afterAll(async () => {
  await fake?.close();
});

describe('acrcloud', () => {
  it('signs as documented: base64 HMAC-SHA1 of method, uri, key, data type, version, timestamp', () => {
    // Reference value computed independently: printf 'POST\n/v1/identify\nk\naudio\n1\n1700000000' | openssl sha1 -hmac s -binary | base64
    expect(acrCloudSignature('k', 's', '1700000000')).toBe('Rz0v9Nh+ugLrHX8ccNBeybc9ck4=');
    expect(acrCloudUrl('identify-eu-west-1.acrcloud.com')).toBe(
      'https://identify-eu-west-1.acrcloud.com/v1/identify',
    );
    expect(acrCloudUrl('http://127.0.0.1:9/')).toBe('http://127.0.0.1:9/v1/identify');
  });

  it('sends a signed multipart request and reads the best match of metadata.music', async () => {
    fake.respond = () =>
      acrSuccess([
        { title: 'Weaker', artists: [{ name: 'Someone' }], acrid: 'low', score: 70 },
        {
          title: 'Blinding Lights',
          artists: [{ name: 'The Weeknd' }],
          album: { name: 'After Hours' },
          release_date: '2019-11-29',
          external_ids: { isrc: 'USUG11904206' },
          acrid: 'acr-1',
          score: 100,
          genres: [{ name: 'Pop' }],
        },
      ]);
    const recognizer = createAcrCloudRecognizer(
      { host: fake.url, ...credentials },
      () => new Date('2026-11-20T21:00:00Z'),
    );
    const match = await recognizer.identify(clip);
    expect(match).toEqual({
      provider: 'acrcloud',
      title: 'Blinding Lights',
      artist: 'The Weeknd',
      album: 'After Hours',
      releaseDate: '2019-11-29',
      isrc: 'USUG11904206',
      providerId: 'acr-1',
      score: 1,
      genres: ['Pop'],
    });
    const request = fake.requests.at(-1)!;
    expect(request.path).toBe('/v1/identify');
    expect(request.fields).toMatchObject({
      access_key: 'key-123',
      data_type: 'audio',
      signature_version: '1',
      timestamp: String(Date.parse('2026-11-20T21:00:00Z') / 1000),
      sample_bytes: String(clip.bytes.length),
    });
    expect(request.file?.bytes.equals(clip.bytes)).toBe(true);
  });

  it('returns null on 1001 (no result)', async () => {
    fake.respond = () => acrNoResult();
    expect(await createAcrCloudRecognizer({ host: fake.url, ...credentials }).identify(clip)).toBeNull();
  });

  it('reports a bad key, a bad secret, a quota and an HTTP failure as clear errors', async () => {
    fake.respond = () => acrNoResult();
    const wrongKey = createAcrCloudRecognizer({ host: fake.url, accessKey: 'nope', accessSecret: 'x' });
    await expect(wrongKey.identify(clip)).rejects.toThrow(/access key is missing or invalid \(code 3001\)/);
    const wrongSecret = createAcrCloudRecognizer({ host: fake.url, ...credentials, accessSecret: 'other' });
    await expect(wrongSecret.identify(clip)).rejects.toThrow(/signature was refused.*3014/);
    fake.respond = () => acrError(3003, 'Limit exceeded');
    const recognizer = createAcrCloudRecognizer({ host: fake.url, ...credentials });
    await expect(recognizer.identify(clip)).rejects.toThrow(/request limit \(code 3003\)/);
    fake.respond = () => 503;
    await expect(recognizer.identify(clip)).rejects.toThrow(/ACRCloud answered HTTP 503/);
    await expect(recognizer.identify(clip)).rejects.toBeInstanceOf(CloudRecognizerError);
  });

  it('reports an unreachable host', async () => {
    const down = createAcrCloudRecognizer({ host: await deadUrl(), ...credentials });
    await expect(down.identify(clip)).rejects.toThrow(/ACRCloud could not be reached \(ECONNREFUSED\)/);
  });
});
