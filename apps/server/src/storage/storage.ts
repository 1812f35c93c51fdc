import type { Readable } from 'node:stream';

/**
 * Where the server keeps the files it makes (recordings' chunks, playlists' M3U8 files): one
 * interface, two backends (a local folder, S3-compatible object storage). Keys are made by the
 * server from database ids, numbers and hashes, never from a request string; both backends refuse
 * a key that is not made of plain segments (see `checkKey`).
 */

/** One stored object. */
export interface StoredObject {
  /** Its key in the store, e.g. `12/00003-0123456789abcdef.webm`. */
  key: string;
  size: number;
  modifiedAt: Date;
}

/** A stored object as a file on this machine, for programs that need a path (ffmpeg). */
export interface LocalFile {
  path: string;
  /** Removes the temporary copy, if one was made; the stored object stays. */
  release(): Promise<void>;
}

/** What `put` stores: a stream, or a local file (`move`: the file may be consumed, e.g. renamed). */
export type PutSource = Readable | { file: string; move?: boolean };

export interface Storage {
  /** `local` or `s3`. */
  readonly kind: 'local' | 's3';
  /** Where the objects are, for messages: a folder, or `s3://bucket/prefix/`. */
  readonly location: string;
  /**
   * A folder on this machine for files on their way in or out (uploads being received, copies
   * for ffmpeg). The local backend's is inside its root (same file system, so a put of a staged
   * file is a rename); the S3 backend's is in the data folder.
   */
  readonly stagingDir: string;
  /** Stores the object; resolves only once it is durably stored (fsync'd, or the store said 200). */
  put(key: string, source: PutSource): Promise<{ size: number }>;
  /** The object's bytes, streamed. A missing key is a `StorageNotFoundError`. */
  get(key: string): Promise<Readable>;
  /** The object as a local file (the file itself, or a temporary copy); call `release` after use. */
  toLocalFile(key: string): Promise<LocalFile>;
  /** Its size and time, or null when there is no such object. */
  stat(key: string): Promise<StoredObject | null>;
  /** Removes the object; an absent one is fine. */
  delete(key: string): Promise<void>;
  /** Removes every object under `prefix` (whole segments, ending in `/`, never empty). */
  deletePrefix(prefix: string): Promise<void>;
  /** Every object whose key starts with `prefix` ('' or whole segments ending in `/`), any order. */
  list(prefix: string): AsyncIterable<StoredObject>;
}

/** A key or prefix that names no object in the store. */
export class StorageNotFoundError extends Error {
  override name = 'StorageNotFoundError';
  constructor(
    readonly key: string,
    location: string,
  ) {
    super(`${key}: no such file in ${location}`);
  }
}

export const isNotFound = (error: unknown): boolean =>
  error instanceof StorageNotFoundError || (error as NodeJS.ErrnoException)?.code === 'ENOENT';

/**
 * A key is made of `/`-separated segments of printable characters, none empty, none starting with
 * a dot (the backends' own temporary files do, so no key can name one), no backslash. Anything else
 * is a programming error, thrown before any I/O.
 */
export function checkKey(key: string): string {
  const segments = key.split('/');
  if (
    key.length === 0 ||
    key.length > 900 ||
    segments.some(
      (segment) =>
        segment === '' ||
        segment.startsWith('.') ||
        segment.includes('\\') ||
        // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
        /[\u0000-\u001f\u007f]/.test(segment),
    )
  ) {
    throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** A prefix: '' (everything) or whole segments followed by `/`. */
export function checkPrefix(prefix: string, options: { allowEmpty: boolean }): string {
  if (prefix === '') {
    if (options.allowEmpty) return prefix;
    throw new Error('Refusing an empty prefix: that would be the whole store');
  }
  if (!prefix.endsWith('/')) throw new Error(`Not a storage prefix (no final /): ${JSON.stringify(prefix)}`);
  checkKey(prefix.slice(0, -1));
  return prefix;
}
