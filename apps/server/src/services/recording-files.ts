import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type AudioContainer, sniffAudioContainer } from '../audio/sniff.js';

/**
 * The audio files of recordings: <recordings>/<session_id>/<chunk>-<sha>.<ext>. A chunk is written
 * to a temporary file, fsync'd, then renamed into place, so a file under its final name is always
 * complete. Names carry the content hash, so two different uploads never overwrite each other.
 */

export interface ReceivedFile {
  tempPath: string;
  sizeBytes: number;
  sha256: string;
  container: AudioContainer | null;
  /** The stream was cut at the size limit. */
  isTruncated: boolean;
}

const incomingDir = (root: string) => path.join(root, '.incoming');

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

export function chunkRelativePath(
  sessionId: string,
  chunkNumber: number,
  sha256: string,
  ext: string,
): string {
  return path.join(sessionId, `${String(chunkNumber).padStart(5, '0')}-${sha256.slice(0, 16)}.${ext}`);
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Moves a received file under its final name and makes the rename durable. */
export async function commitTempFile(root: string, tempPath: string, relativePath: string): Promise<void> {
  const target = path.join(root, relativePath);
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.rename(tempPath, target);
  await fsyncDir(path.dirname(target));
}

export async function removeFile(root: string, relativePath: string): Promise<void> {
  await fs.rm(path.join(root, relativePath), { force: true });
}

export async function discardTempFile(tempPath: string): Promise<void> {
  await fs.rm(tempPath, { force: true });
}

/** Removes every audio file of a session. */
export async function removeSessionFiles(root: string, sessionId: string): Promise<void> {
  await fs.rm(path.join(root, sessionId), { recursive: true, force: true });
}

/** Temporary files left by a process that died mid-upload; nothing refers to them. */
export async function sweepIncoming(root: string, olderThanMs = 60 * 60 * 1000): Promise<number> {
  const dir = incomingDir(root);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > olderThanMs) {
      await fs.rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}
