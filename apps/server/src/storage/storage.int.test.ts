import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { type FakeS3, startFakeS3 } from '../test/fakes/s3-server.js';
import { LocalStorage, openStorage, type Storage, StorageNotFoundError } from './index.js';
import { PART_SIZE } from './s3.js';

/**
 * The storage contract, one suite run against both backends: the local folder and S3 (a local
 * S3-compatible server speaking the protocol at the HTTP level, test/fakes/s3-server.ts).
 */

let fake: FakeS3;
const folders: string[] = [];

beforeAll(async () => {
  // Pages of 3 keys, so every list crosses continuation tokens.
  fake = await startFakeS3({ maxKeys: 3 });
});
afterAll(async () => {
  await fake?.close();
  for (const folder of folders) await fs.rm(folder, { recursive: true, force: true });
});

async function tempFolder(): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-storage-test-'));
  folders.push(folder);
  return folder;
}

let storeCount = 0;
async function s3Store(): Promise<Storage> {
  storeCount += 1;
  const config = loadConfig({ ...fake.env(`contract-${storeCount}`) }, { dataDir: await tempFolder() });
  return openStorage('recordings', config.recordingsDir, config.storage);
}

const backends: Array<[string, () => Promise<Storage>]> = [
  ['local folder', async () => new LocalStorage(path.join(await tempFolder(), 'recordings'))],
  ['S3', s3Store],
];

const bytesOf = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};
const keysOf = async (storage: Storage, prefix: string) => {
  const keys: string[] = [];
  for await (const object of storage.list(prefix)) keys.push(object.key);
  return keys.sort();
};
/** Bytes that differ from one call to the next. */
const someBytes = (size: number, seed = 1) =>
  Buffer.from(Array.from({ length: size }, (_, i) => (i * seed + seed) % 251));
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(backends)('storage contract: %s', (_name, open) => {
  let storage: Storage;
  beforeAll(async () => {
    storage = await open();
  });

  it('stores a stream and gives the same bytes back, with its size', async () => {
    const bytes = someBytes(70_000, 3);
    expect(
      await storage.put(
        '1/00000-aaaaaaaaaaaaaaaa.webm',
        Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]),
      ),
    ).toEqual({
      size: bytes.length,
    });
    expect((await bytesOf(await storage.get('1/00000-aaaaaaaaaaaaaaaa.webm'))).equals(bytes)).toBe(true);
    expect(await storage.stat('1/00000-aaaaaaaaaaaaaaaa.webm')).toMatchObject({
      key: '1/00000-aaaaaaaaaaaaaaaa.webm',
      size: bytes.length,
    });
  });

  it('stores an empty object', async () => {
    expect(await storage.put('empty.m3u8', Readable.from([]))).toEqual({ size: 0 });
    expect((await bytesOf(await storage.get('empty.m3u8'))).length).toBe(0);
  });

  it('stores a local file, copied or moved', async () => {
    const folder = await tempFolder();
    const bytes = someBytes(20_000, 5);
    await fs.writeFile(path.join(folder, 'a.part'), bytes);
    expect(await storage.put('2/copied.wav', { file: path.join(folder, 'a.part') })).toEqual({
      size: bytes.length,
    });
    expect(await fs.readFile(path.join(folder, 'a.part'))).toEqual(bytes);
    expect(await storage.put('2/moved.wav', { file: path.join(folder, 'a.part'), move: true })).toEqual({
      size: bytes.length,
    });
    await expect(fs.stat(path.join(folder, 'a.part'))).rejects.toThrow();
    expect(sha(await bytesOf(await storage.get('2/moved.wav')))).toBe(sha(bytes));
    expect(sha(await bytesOf(await storage.get('2/copied.wav')))).toBe(sha(bytes));
  });

  it('a file moved from the staging folder is stored', async () => {
    await fs.mkdir(storage.stagingDir, { recursive: true });
    const staged = path.join(storage.stagingDir, 'x.part');
    await fs.writeFile(staged, 'staged bytes');
    await storage.put('3/staged.ogg', { file: staged, move: true });
    await expect(fs.stat(staged)).rejects.toThrow();
    expect((await bytesOf(await storage.get('3/staged.ogg'))).toString()).toBe('staged bytes');
    // The staging folder is never listed.
    expect(await keysOf(storage, '3/')).toEqual(['3/staged.ogg']);
  });

  it('replaces an object whole', async () => {
    await storage.put('replace.m3u8', Readable.from([Buffer.from('first version, longer')]));
    await storage.put('replace.m3u8', Readable.from([Buffer.from('second')]));
    expect((await bytesOf(await storage.get('replace.m3u8'))).toString()).toBe('second');
    expect((await storage.stat('replace.m3u8'))?.size).toBe(6);
  });

  it('a missing key: get and toLocalFile throw StorageNotFoundError, stat is null, delete is fine', async () => {
    await expect(storage.get('9/missing.webm')).rejects.toBeInstanceOf(StorageNotFoundError);
    await expect(storage.toLocalFile('9/missing.webm')).rejects.toBeInstanceOf(StorageNotFoundError);
    await expect(storage.get('9/missing.webm')).rejects.toThrow(/9\/missing\.webm: no such file in /);
    expect(await storage.stat('9/missing.webm')).toBeNull();
    await storage.delete('9/missing.webm');
  });

  it('gives a local file with the bytes for ffmpeg; release leaves the object', async () => {
    const bytes = someBytes(30_000, 7);
    await storage.put('4/00001-bbbbbbbbbbbbbbbb.webm', Readable.from([bytes]));
    const local = await storage.toLocalFile('4/00001-bbbbbbbbbbbbbbbb.webm');
    expect(sha(await fs.readFile(local.path))).toBe(sha(bytes));
    await local.release();
    if (storage.kind === 's3') await expect(fs.stat(local.path)).rejects.toThrow();
    expect((await storage.stat('4/00001-bbbbbbbbbbbbbbbb.webm'))?.size).toBe(bytes.length);
  });

  it('deletes one object', async () => {
    await storage.put('5/a.wav', Readable.from([Buffer.from('a')]));
    await storage.delete('5/a.wav');
    expect(await storage.stat('5/a.wav')).toBeNull();
  });

  it('deletes a prefix (one recording) and nothing beside it', async () => {
    for (const key of ['7/a.wav', '7/b.wav', '7/sub/c.wav', '70/d.wav', '8/e.wav']) {
      await storage.put(key, Readable.from([Buffer.from(key)]));
    }
    await storage.deletePrefix('7/');
    expect(await keysOf(storage, '7/')).toEqual([]);
    expect(await storage.stat('70/d.wav')).not.toBeNull();
    expect(await storage.stat('8/e.wav')).not.toBeNull();
    await storage.deletePrefix('7/'); // already gone: fine
    await expect(storage.deletePrefix('')).rejects.toThrow(/whole store/);
    await expect(storage.deletePrefix('8')).rejects.toThrow(/no final/);
    expect(await storage.stat('8/e.wav')).not.toBeNull();
  });

  it('lists every key under a prefix, across pages, with sizes', async () => {
    const keys = Array.from({ length: 8 }, (_, i) => `list/${i}/x-${i}.wav`);
    for (const [i, key] of keys.entries()) await storage.put(key, Readable.from([someBytes(i + 1)]));
    const listed: Array<{ key: string; size: number }> = [];
    for await (const object of storage.list('list/')) listed.push({ key: object.key, size: object.size });
    expect(listed.sort((a, b) => a.key.localeCompare(b.key))).toEqual(
      keys.map((key, i) => ({ key, size: i + 1 })),
    );
    expect(await keysOf(storage, 'list/3/')).toEqual(['list/3/x-3.wav']);
    expect(await keysOf(storage, 'nothing-here/')).toEqual([]);
    expect(await keysOf(storage, '')).toEqual(expect.arrayContaining(keys));
  });

  it.each([
    '../outside.wav',
    '/etc/passwd',
    'a//b.wav',
    '.incoming/x.part',
    'a/../b.wav',
    'a/./b.wav',
    'a\\..\\b.wav',
    '',
    'a/',
    'nul\u0000.wav',
  ])('refuses the key %j before any I/O', async (key) => {
    await expect(storage.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(/Not a storage key/);
    await expect(storage.get(key)).rejects.toThrow(/Not a storage key/);
    await expect(storage.stat(key)).rejects.toThrow(/Not a storage key/);
    await expect(storage.delete(key)).rejects.toThrow(/Not a storage key/);
    await expect(storage.toLocalFile(key)).rejects.toThrow(/Not a storage key/);
    await expect(storage.deletePrefix(`${key}/`)).rejects.toThrow(/Not a storage key|whole store/);
  });

  it('a source that fails mid-stream stores nothing and leaves nothing behind', async () => {
    const failing = new Readable({
      read() {
        this.push(someBytes(PART_SIZE + 1000, 11));
        this.destroy(new Error('the client went away'));
      },
    });
    await expect(storage.put('6/broken.webm', failing)).rejects.toThrow(/went away/);
    expect(await storage.stat('6/broken.webm')).toBeNull();
    expect(await keysOf(storage, '6/')).toEqual([]);
    if (storage instanceof LocalStorage) {
      // No temporary file is left in the target's folder either.
      expect(await fs.readdir(path.join(storage.root, '6')).catch(() => [])).toEqual([]);
    } else {
      expect(fake.openUploads()).toBe(0);
    }
  });

  it('streams an object larger than a part (multipart on S3), bytes intact', async () => {
    const big = Buffer.concat([someBytes(PART_SIZE, 13), someBytes(PART_SIZE, 17), someBytes(1_000_000, 19)]);
    const before = fake.requests.length;
    // Fed in 64 KB pieces, as a socket or a file stream gives them.
    const pieces = Array.from({ length: Math.ceil(big.length / 65_536) }, (_, i) =>
      big.subarray(i * 65_536, (i + 1) * 65_536),
    );
    expect(await storage.put('big/one.flac', Readable.from(pieces))).toEqual({ size: big.length });
    expect(sha(await bytesOf(await storage.get('big/one.flac')))).toBe(sha(big));
    if (storage.kind === 's3') {
      const parts = fake.requests.slice(before).filter((request) => request.operation === 'UploadPart');
      expect(parts).toHaveLength(3);
      for (const part of parts) expect(part.bodyBytes).toBeLessThanOrEqual(PART_SIZE);
      expect(fake.openUploads()).toBe(0);
    }
  });
});

describe('S3 backend against the protocol', () => {
  it('signs every request (the fake checks Signature Version 4) and keys live under s3://bucket/prefix/area/', async () => {
    const storage = await s3Store();
    await storage.put('10/00000-cccccccccccccccc.webm', Readable.from([Buffer.from('signed')]));
    expect(storage.location).toBe(`s3://${fake.bucket}/contract-${storeCount}/recordings/`);
    expect(fake.objects.has(`contract-${storeCount}/recordings/10/00000-cccccccccccccccc.webm`)).toBe(true);
    expect(fake.requests.every((request) => request.status !== 403)).toBe(true);
  });

  it('a wrong secret is refused by the server, and the put rejects', async () => {
    const config = loadConfig(
      { ...fake.env('wrong-secret'), AWS_SECRET_ACCESS_KEY: 'not-the-secret' },
      { dataDir: await tempFolder() },
    );
    const storage = await openStorage('recordings', config.recordingsDir, config.storage);
    await expect(storage.put('1/x.wav', Readable.from([Buffer.from('x')]))).rejects.toThrow(/signature/i);
    expect([...fake.objects.keys()].some((key) => key.startsWith('wrong-secret/'))).toBe(false);
  });

  it('a put is not acknowledged while the store fails, and stores nothing', async () => {
    const storage = await s3Store();
    const lift = fake.fail(
      (request) => request.operation === 'PutObject' && request.key.endsWith('/fails.wav'),
      503,
    );
    try {
      await expect(storage.put('1/fails.wav', Readable.from([Buffer.from('x')]))).rejects.toThrow();
    } finally {
      lift();
    }
    expect(await storage.stat('1/fails.wav')).toBeNull();
  });

  it('a multipart upload whose completion fails is aborted, nothing stored', async () => {
    const storage = await s3Store();
    const lift = fake.fail((request) => request.operation === 'CompleteMultipartUpload', 500);
    try {
      await expect(
        storage.put('1/big.wav', Readable.from([someBytes(PART_SIZE + 10, 23)])),
      ).rejects.toThrow();
    } finally {
      lift();
    }
    expect(await storage.stat('1/big.wav')).toBeNull();
    expect(fake.openUploads()).toBe(0);
  });
});

describe('WCS_STORAGE', () => {
  it('defaults to the local folders', () => {
    expect(loadConfig({}).storage).toEqual({ kind: 'local' });
    expect(loadConfig({ WCS_STORAGE: 'local' }).storage).toEqual({ kind: 'local' });
  });

  it('reads s3://bucket/prefix with the endpoint, region, keys and path style', () => {
    expect(
      loadConfig({
        WCS_STORAGE: 's3://my-bucket/wcs/prod/',
        WCS_S3_ENDPOINT: 'http://minio:9000',
        AWS_REGION: 'eu-west-3',
        AWS_ACCESS_KEY_ID: 'AK',
        AWS_SECRET_ACCESS_KEY: 'SK',
      }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'my-bucket',
      prefix: 'wcs/prod',
      endpoint: 'http://minio:9000',
      region: 'eu-west-3',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' },
    });
    expect(loadConfig({ WCS_STORAGE: 's3://bucket' }).storage).toMatchObject({
      prefix: '',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
      credentials: undefined,
    });
    expect(
      loadConfig({
        WCS_STORAGE: 's3://bucket',
        WCS_S3_ENDPOINT: 'https://s3.example',
        WCS_S3_FORCE_PATH_STYLE: 'false',
      }).storage,
    ).toMatchObject({ forcePathStyle: false });
  });

  it.each([
    ['gs://bucket', /WCS_STORAGE must be/],
    ['s3://', /WCS_STORAGE must be/],
    ['s3://Upper_Case', /WCS_STORAGE must be/],
    ['s3://bucket/../up', /prefix/],
    ['s3://bucket/.hidden', /prefix/],
  ])('refuses %s', (value, message) => {
    expect(() => loadConfig({ WCS_STORAGE: value })).toThrow(message);
  });

  it('refuses half a key pair and an endpoint that is not http(s)', () => {
    expect(() => loadConfig({ WCS_STORAGE: 's3://bucket', AWS_ACCESS_KEY_ID: 'AK' })).toThrow(/go together/);
    expect(() => loadConfig({ WCS_STORAGE: 's3://bucket', WCS_S3_ENDPOINT: 'minio:9000' })).toThrow(
      /WCS_S3_ENDPOINT must be an http/,
    );
  });
});
