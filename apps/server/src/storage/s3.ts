import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline as pipelineCallback, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import type { S3Settings } from '../config.js';
import { byteCounter } from './byte-counter.js';
import {
  checkKey,
  checkPrefix,
  type LocalFile,
  type PutSource,
  type Storage,
  StorageNotFoundError,
  type StoredObject,
} from './storage.js';

/**
 * The S3 backend: any S3-compatible object storage (AWS S3, MinIO, Garage, Ceph, R2, ...) through
 * the AWS SDK, under `s3://bucket/prefix/<area>/`. Everything is streamed: a put goes through
 * lib-storage's Upload (one PUT for a small object, else a multipart upload of 5 MiB parts, two in
 * flight, so at most about 10 MB of a file is in memory at once), a get is the response stream. A
 * put resolves once S3 has answered 200 to the PUT or to the multipart completion: the object is
 * then stored (S3's durability promise); a failed multipart upload is aborted.
 */

// The SDK's CommonJS build, which Node itself picks (its `node` export condition), loaded on first
// use. Vite and Vitest prefer the `module` condition, whose build imports files without extensions
// that Node's own ESM loader cannot run; `require` takes the Node build everywhere.
const require = createRequire(import.meta.url);
let loaded: { s3: typeof ClientS3; storage: typeof LibStorage } | undefined;
function sdk() {
  loaded ??= {
    s3: require('@aws-sdk/client-s3') as typeof ClientS3,
    storage: require('@aws-sdk/lib-storage') as typeof LibStorage,
  };
  return loaded;
}
type S3Client = ClientS3.S3Client;

/** lib-storage's part size: S3's smallest allowed part (5 MiB), so little is held in memory. */
export const PART_SIZE = 5 * 1024 * 1024;
/** Parts uploaded at once per put. */
const QUEUE_SIZE = 2;
/** Connecting to the store, and a request's silence (no byte either way), before it fails. */
const CONNECT_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 60_000;
/** DeleteObjects takes at most 1,000 keys a request. */
const DELETE_BATCH = 1000;

const clients = new Map<string, S3Client>();

/** One client per configuration and process (it holds the connection pool). */
function clientFor(settings: S3Settings): S3Client {
  const id = JSON.stringify(settings);
  let client = clients.get(id);
  if (!client) {
    // The SDK warns on Node 20 that its releases after January 2027 need Node 22; this repository
    // pins a release that runs on Node 20 (docs/decisions.md), so the warning is noise at start.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    client = new (sdk().s3.S3Client)({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      // An upload is stored inside the transaction of its row: a store that stops answering must
      // fail the request (the recorder retries it) rather than hold the row's lock for ever.
      requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
    });
    clients.set(id, client);
  }
  return client;
}

const statusOf = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const isMissing = (error: unknown) =>
  ['NoSuchKey', 'NotFound'].includes((error as Error).name) || statusOf(error) === 404;

export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  readonly location: string;
  private readonly client: S3Client;
  /** The SDK's commands. */
  private readonly api = sdk().s3;
  private readonly bucket: string;
  /** Every key of this store starts with it: `<prefix>/<area>/`. */
  private readonly base: string;

  constructor(
    settings: S3Settings,
    area: string,
    readonly stagingDir: string,
  ) {
    this.client = clientFor(settings);
    this.bucket = settings.bucket;
    this.base = `${[settings.prefix, area].filter((part) => part !== '').join('/')}/`;
    this.location = `s3://${settings.bucket}/${this.base}`;
  }

  private objectKey(key: string): string {
    return this.base + checkKey(key);
  }

  async put(key: string, source: PutSource): Promise<{ size: number }> {
    const objectKey = this.objectKey(key);
    const input = source instanceof Readable ? source : createReadStream(source.file);
    const counter = byteCounter();
    // An error of the input destroys the counter too, which fails the upload (and aborts it).
    const body = pipelineCallback(input, counter, () => {});
    const upload = new (sdk().storage.Upload)({
      client: this.client,
      params: { Bucket: this.bucket, Key: objectKey, Body: body },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // The rest of the input is not read: let go of it (a file, a request body).
      body.destroy();
      input.destroy();
      throw error;
    }
    if (!(source instanceof Readable) && source.move) await fs.rm(source.file, { force: true });
    return { size: counter.bytes };
  }

  async get(key: string): Promise<Readable> {
    try {
      const answer = await this.client.send(
        new this.api.GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) throw new StorageNotFoundError(key, this.location);
      throw error;
    }
  }

  /** A temporary copy in the staging folder, removed by `release`. */
  async toLocalFile(key: string): Promise<LocalFile> {
    const body = await this.get(key);
    await fs.mkdir(this.stagingDir, { recursive: true });
    const file = path.join(this.stagingDir, `${randomUUID()}.download-${path.basename(key)}`);
    try {
      await pipeline(body, createWriteStream(file, { flags: 'wx' }));
    } catch (error) {
      await fs.rm(file, { force: true });
      throw error;
    }
    return { path: file, release: () => fs.rm(file, { force: true }) };
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(
        new this.api.HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return { key, size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(
      new this.api.DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
    );
  }

  async deletePrefix(prefix: string): Promise<void> {
    checkPrefix(prefix, { allowEmpty: false });
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const answer = await this.client.send(
        new this.api.DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((key) => ({ Key: key })), Quiet: true },
        }),
      );
      const failed = answer.Errors ?? [];
      if (failed.length > 0) {
        throw new Error(
          `${failed.length} object(s) under ${this.location}${prefix} were not deleted: ${failed[0]?.Code} ${failed[0]?.Message ?? ''}`,
        );
      }
      batch = [];
    };
    for await (const object of this.list(prefix)) {
      batch.push(this.base + object.key);
      if (batch.length === DELETE_BATCH) await flush();
    }
    await flush();
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    checkPrefix(prefix, { allowEmpty: true });
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new this.api.ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.base + prefix,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key?.startsWith(this.base)) continue;
        yield {
          key: object.Key.slice(this.base.length),
          size: object.Size ?? 0,
          modifiedAt: object.LastModified ?? new Date(0),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}
