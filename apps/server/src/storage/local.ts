import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
 * The local backend: one folder (today's `WCS_RECORDINGS_DIR`, `WCS_PLAYLISTS_DIR`), which may be a
 * mount that several processes share. A key is a path relative to the folder; every resolved path
 * is checked to stay strictly inside it (`insideRoot`) before any write, read or delete.
 *
 * A put is acknowledged once the bytes are fsync'd under their final name and the rename is
 * fsync'd too: the bytes go to a temporary file in the target's folder (or, for a file received
 * into `stagingDir`, stay where they are), which is fsync'd and renamed into place, and the folder
 * is fsync'd. A file under its final name is always complete.
 */

/** Where files being received wait, inside the root (same file system: a put is a rename). */
export const STAGING_DIR = '.incoming';

/**
 * The absolute path of `relativePath` under `root`, refusing any path that is not strictly inside
 * it (absolute paths, `..` or `.` segments, empty segments, the root itself).
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
    throw new Error(`Refusing a path outside ${base}: ${JSON.stringify(relativePath)}`);
  }
  return target;
}

export async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const isReadable = (source: PutSource): source is Readable => source instanceof Readable;

export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  readonly root: string;
  readonly location: string;
  readonly stagingDir: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.location = this.root;
    this.stagingDir = path.join(this.root, STAGING_DIR);
  }

  /** The file of a key, checked to be inside the root. */
  pathOf(key: string): string {
    return insideRoot(this.root, checkKey(key));
  }

  async put(key: string, source: PutSource): Promise<{ size: number }> {
    const target = this.pathOf(key);
    const folder = path.dirname(target);
    await fs.mkdir(folder, { recursive: true });
    if (!isReadable(source) && source.move) {
      // Its bytes reach the disk first, then the rename, then the folder entry.
      const handle = await fs.open(source.file, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      const moved = await fs.rename(source.file, target).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'EXDEV') return false; // another file system: copied below
          throw error;
        },
      );
      if (moved) {
        await fsyncDir(folder);
        return { size: (await fs.stat(target)).size };
      }
    }
    // Hidden, so that a program scanning the folder (a DJ program, `list`) never sees it.
    const temporary = path.join(folder, `.${path.basename(target)}.${randomUUID()}.tmp`);
    const input = isReadable(source) ? source : createReadStream(source.file);
    const counter = byteCounter();
    const handle = await fs.open(temporary, 'wx');
    try {
      try {
        await pipeline(input, counter, createWriteStream('', { fd: handle.fd, autoClose: false }));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temporary, target);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
    await fsyncDir(folder);
    if (!isReadable(source) && source.move) await fs.rm(source.file, { force: true });
    return { size: counter.bytes };
  }

  async get(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    try {
      const handle = await fs.open(file, 'r');
      return handle.createReadStream();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new StorageNotFoundError(key, this.location);
      throw error;
    }
  }

  async toLocalFile(key: string): Promise<LocalFile> {
    const file = this.pathOf(key);
    if (!(await this.stat(key))) throw new StorageNotFoundError(key, this.location);
    return { path: file, release: async () => {} };
  }

  async stat(key: string): Promise<StoredObject | null> {
    const stat = await fs.lstat(this.pathOf(key)).catch(() => null);
    return stat?.isFile() ? { key, size: stat.size, modifiedAt: stat.mtime } : null;
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    await fs.rm(file, { force: true });
    await fsyncDir(path.dirname(file)).catch(() => {});
  }

  /** The recursive delete: a folder strictly inside the root, never the root itself. */
  async deletePrefix(prefix: string): Promise<void> {
    checkPrefix(prefix, { allowEmpty: false });
    await fs.rm(insideRoot(this.root, prefix.slice(0, -1)), { recursive: true, force: true });
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    checkPrefix(prefix, { allowEmpty: true });
    const folder = prefix === '' ? this.root : insideRoot(this.root, prefix.slice(0, -1));
    const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      // Regular files only: never a symlink's target.
      if (!entry.isFile()) continue;
      const relative = path.relative(this.root, path.join(entry.parentPath, entry.name));
      const parts = relative.split(path.sep);
      // Temporary files and the staging folder start with a dot; no key does.
      if (parts.some((part) => part.startsWith('.'))) continue;
      const stat = await fs.lstat(path.join(this.root, relative)).catch(() => null);
      if (stat?.isFile()) yield { key: parts.join('/'), size: stat.size, modifiedAt: stat.mtime };
    }
  }
}
