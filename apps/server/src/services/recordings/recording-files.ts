import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type AudioContainer, sniffAudioContainer } from '../../audio/sniff.js';

/**
 * The audio files of recordings: <recordings>/<recording_id>/<chunk>-<sha>.<ext>. Every part of a
 * path is made by the server (the recording's database id, the chunk number, the content hash and
 * a container name from a fixed list); nothing a client sends ever names a file or a folder, so no
 * request can write or delete outside the folder (docs/operations.md, "Recordings on disk").
 *
 * A chunk is written to a temporary file in <recordings>/.incoming, fsync'd, then renamed into
 * place, so a file under its final name is always complete. Names carry the content hash, so two
 * different uploads never overwrite each other.
 */

export interface ReceivedFile {
  tempPath: string;
  sizeBytes: number;
  sha256: string;
  container: AudioContainer | null;
  /** The stream was cut at the size limit. */
  isTruncated: boolean;
}

/** Half-received uploads. */
export const INCOMING_DIR = '.incoming';
/** Files found at start that no database row claims (docs/operations.md). */
export const LOST_AND_FOUND_DIR = 'lost+found';

/** `00042-0123456789abcdef.webm`: chunk number, the first 16 hex digits of its SHA-256, container. */
export const CHUNK_FILE_NAME = /^(\d{5,6})-([0-9a-f]{16})\.(webm|ogg|wav|mp3|flac|m4a|aiff|bin)$/;

const incomingDir = (root: string) => path.join(root, INCOMING_DIR);

/** A database id as a folder name; anything else is a programming error, never a path. */
export function recordingFolderName(recordingId: number): string {
  if (!Number.isSafeInteger(recordingId) || recordingId <= 0) {
    throw new Error(`Not a recording id: ${String(recordingId)}`);
  }
  return String(recordingId);
}

/**
 * The absolute path of `relativePath` under `root`, refusing any path that is not strictly inside
 * it (absolute paths, `..` segments, the root itself). Every write, read and delete goes through it.
 */
export function insideRoot(root: string, relativePath: string): string {
  const base = path.resolve(root);
  const target = path.resolve(base, relativePath);
  const relative = path.relative(base, target);
  if (
    relative === '' ||
    path.isAbsolute(relativePath) ||
    relative.startsWith('..') ||
    path.isAbsolute(relative) ||
    relative.split(path.sep).some((part) => part === '..' || part === '.' || part === '')
  ) {
    throw new Error(`Refusing a path outside the recordings folder: ${JSON.stringify(relativePath)}`);
  }
  return target;
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
  return path.join(recordingFolderName(recordingId), name);
}

/** Where a stored chunk's file is (its row's file_path is relative to the recordings folder). */
export function chunkFilePath(root: string, relativePath: string): string {
  return insideRoot(root, relativePath);
}

/** Streams an upload to a temporary file while hashing it and reading its first bytes. */
export async function receiveToTempFile(root: string, stream: Readable): Promise<ReceivedFile> {
  await fs.mkdir(incomingDir(root), { recursive: true });
  const tempPath = path.join(incomingDir(root), `${randomUUID()}.part`);
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

export async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Moves a received file under its final name and makes the rename durable. */
export async function commitTempFile(root: string, tempPath: string, relativePath: string): Promise<void> {
  const target = insideRoot(root, relativePath);
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.rename(tempPath, target);
  await fsyncDir(path.dirname(target));
}

export async function removeFile(root: string, relativePath: string): Promise<void> {
  await fs.rm(insideRoot(root, relativePath), { force: true });
}

export async function discardTempFile(tempPath: string): Promise<void> {
  await fs.rm(tempPath, { force: true });
}

/**
 * Removes the folder of one recording. The only recursive delete of the recordings folder: its
 * target is `<root>/<id>`, a direct child named by a database id, checked again after resolving.
 */
export async function removeRecordingFiles(root: string, recordingId: number): Promise<void> {
  const folder = insideRoot(root, recordingFolderName(recordingId));
  if (path.dirname(folder) !== path.resolve(root)) throw new Error(`Not a recording folder: ${folder}`);
  await fs.rm(folder, { recursive: true, force: true });
}
