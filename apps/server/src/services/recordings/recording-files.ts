import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type AudioContainer, sniffAudioContainer } from '../../audio/sniff.js';
import { STAGING_DIR, type Storage } from '../../storage/index.js';

export { fsyncDir, insideRoot } from '../../storage/index.js';

/**
 * The audio files of recordings, in the recordings store (`deps.storage.recordings`: the
 * recordings folder, or its prefix in object storage): `<recording_id>/<chunk>-<sha>.<ext>`. Every
 * part of a key is made by the server (the recording's database id, the chunk number, the content
 * hash and a container name from a fixed list); nothing a client sends ever names a file or a
 * folder, so no request can write or delete outside the store (docs/operations.md, "Recordings on
 * disk"), and the local backend checks every resolved path stays inside its folder.
 *
 * A chunk is received into the store's staging folder (`<recordings>/.incoming` on this machine),
 * fsync'd and decoded there, then put under its key: a rename on the local backend (then the
 * folder fsync'd), an upload to object storage. Names carry the content hash, so two different
 * uploads never overwrite each other.
 */

export interface ReceivedFile {
  tempPath: string;
  sizeBytes: number;
  sha256: string;
  container: AudioContainer | null;
  /** The stream was cut at the size limit. */
  isTruncated: boolean;
}

/** Half-received uploads (the stores' staging folder). */
export const INCOMING_DIR = STAGING_DIR;
/** Files found at start that no database row claims (docs/operations.md). */
export const LOST_AND_FOUND_DIR = 'lost+found';

/** `00042-0123456789abcdef.webm`: chunk number, the first 16 hex digits of its SHA-256, container. */
export const CHUNK_FILE_NAME = /^(\d{5,6})-([0-9a-f]{16})\.(webm|ogg|wav|mp3|flac|m4a|aiff|bin)$/;

/** A database id as a folder name; anything else is a programming error, never a path. */
export function recordingFolderName(recordingId: number): string {
  if (!Number.isSafeInteger(recordingId) || recordingId <= 0) {
    throw new Error(`Not a recording id: ${String(recordingId)}`);
  }
  return String(recordingId);
}

export function chunkRelativePath(
  recordingId: number,
  chunkNumber: number,
  sha256: string,
  container: AudioContainer,
): string {
  if (!Number.isSafeInteger(chunkNumber) || chunkNumber < 0)
    throw new Error(`Not a chunk number: ${chunkNumber}`);
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('Not a SHA-256 digest');
  const name = `${String(chunkNumber).padStart(5, '0')}-${sha256.slice(0, 16)}.${container}`;
  return `${recordingFolderName(recordingId)}/${name}`;
}

/**
 * Streams an upload to a temporary file in `stagingDir` (the store's, on this machine) while
 * hashing it and reading its first bytes.
 */
export async function receiveToTempFile(stagingDir: string, stream: Readable): Promise<ReceivedFile> {
  await fs.mkdir(stagingDir, { recursive: true });
  const tempPath = path.join(stagingDir, `${randomUUID()}.part`);
  const hash = createHash('sha256');
  let sizeBytes = 0;
  let head = Buffer.alloc(0);
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      if (head.length < 16) head = Buffer.concat([head, chunk.subarray(0, 16 - head.length)]);
      callback(null, chunk);
    },
  });
  const handle = await fs.open(tempPath, 'wx');
  try {
    await pipeline(stream, tap, createWriteStream('', { fd: handle.fd, autoClose: false }));
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.rm(tempPath, { force: true });
    throw error;
  }
  await handle.close();
  return {
    tempPath,
    sizeBytes,
    sha256: hash.digest('hex'),
    container: sniffAudioContainer(head),
    isTruncated: (stream as Readable & { truncated?: boolean }).truncated === true,
  };
}

/**
 * Stores a received file under its key and makes it durable (fsync'd and renamed into place, or
 * uploaded and acknowledged by the object store); the temporary file is consumed.
 */
export async function commitTempFile(storage: Storage, tempPath: string, key: string): Promise<void> {
  await storage.put(key, { file: tempPath, move: true });
}

export async function removeFile(storage: Storage, key: string): Promise<void> {
  await storage.delete(key);
}

export async function discardTempFile(tempPath: string): Promise<void> {
  await fs.rm(tempPath, { force: true });
}

/**
 * Removes the files of one recording. The only recursive delete of the recordings store: its
 * target is `<id>/`, a direct child named by a database id (the local backend resolves it and
 * checks it stays strictly inside the folder).
 */
export async function removeRecordingFiles(storage: Storage, recordingId: number): Promise<void> {
  await storage.deletePrefix(`${recordingFolderName(recordingId)}/`);
}
