import { Readable } from 'node:stream';
import type { Config } from '../../config.js';
import { openStorage, type Storage, StorageNotFoundError } from '../../storage/index.js';

/**
 * The M3U8 files of the playlists store: the playlists folder (WCS_PLAYLISTS_DIR), or the
 * `playlists/` prefix of object storage (WCS_STORAGE). A DJ program may read a file at any moment,
 * so a file is never half-written: the local backend writes the text to a hidden temporary file in
 * the same folder (same file system, so the rename is atomic), fsyncs it, renames it over the old
 * one and fsyncs the folder; object storage replaces an object whole.
 */

/** Where the playlists go: the folder, and the storage setting when it is not the local folders. */
export type PlaylistFolder = Pick<Config, 'playlistsDir'> & Partial<Pick<Config, 'storage'>>;

/** Only a plain file name: never a path that climbs out of the folder, never a hidden file. */
function playlistKey(fileName: string): string {
  if (fileName === '' || fileName.includes('/') || fileName.includes('\\') || fileName.startsWith('.')) {
    throw new Error(`Not a playlist file name: "${fileName}"`);
  }
  return fileName;
}

const storeOf = (folder: PlaylistFolder): Promise<Storage> =>
  openStorage('playlists', folder.playlistsDir, folder.storage);

export interface PlaylistFileChanges {
  /** Files to hold exactly this text. */
  write: Array<{ fileName: string; content: string }>;
  /** Files to remove (already gone is fine). */
  remove: string[];
}

async function read(store: Storage, fileName: string): Promise<Buffer | null> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await store.get(playlistKey(fileName))) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } catch (error) {
    if (error instanceof StorageNotFoundError) return null;
    throw error;
  }
}

/**
 * Brings the store to the given state. A file that already holds the same bytes is left alone
 * (most playlists do not change from one regeneration to the next, and each write costs an
 * fsync or a request); each write and removal is durable when this returns.
 */
export async function applyPlaylistFileChanges(
  folder: PlaylistFolder,
  changes: PlaylistFileChanges,
): Promise<{ written: number; unchanged: number; removed: number }> {
  const store = await storeOf(folder);
  const kept = new Set(changes.write.map((file) => file.fileName));
  let written = 0;
  let unchanged = 0;
  let removed = 0;
  for (const file of changes.write) {
    const content = Buffer.from(file.content, 'utf8');
    const current = await read(store, file.fileName);
    if (current?.equals(content)) {
      unchanged += 1;
      continue;
    }
    await store.put(playlistKey(file.fileName), Readable.from([content]));
    written += 1;
  }
  // A name that is also written (a playlist that took over another's name) must stay.
  for (const fileName of changes.remove) {
    if (kept.has(fileName)) continue;
    await store.delete(playlistKey(fileName));
    removed += 1;
  }
  return { written, unchanged, removed };
}

/** The bytes of a playlist file, or null when it does not exist. */
export async function readPlaylistFile(folder: PlaylistFolder, fileName: string): Promise<Buffer | null> {
  return read(await storeOf(folder), fileName);
}
