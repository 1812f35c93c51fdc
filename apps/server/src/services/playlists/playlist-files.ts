import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The M3U8 files of the playlists folder. A DJ program may read a file at any moment, so a file
 * is never half-written: the text goes to a temporary file in the same folder (same file system,
 * so the rename is atomic), is fsync'd, and renamed over the old one; the folder is fsync'd after
 * the renames, so that they survive a crash.
 */

/** Only a plain file name inside the folder: never a path that climbs out of it. */
function insideFolder(folder: string, fileName: string): string {
  if (fileName !== path.basename(fileName) || fileName === '' || fileName.startsWith('.')) {
    throw new Error(`Not a playlist file name: "${fileName}"`);
  }
  return path.join(folder, fileName);
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await fs.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes `content` (UTF-8) to a temporary file beside `target`, fsync'd, and renames it over `target`. */
async function replaceFile(folder: string, target: string, content: Buffer): Promise<void> {
  // Hidden, so that a program scanning the folder does not list it while it exists.
  const temporary = path.join(folder, `.${path.basename(target)}.${randomUUID()}.tmp`);
  try {
    const handle = await fs.open(temporary, 'w');
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, target);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

export interface PlaylistFileChanges {
  /** Files to hold exactly this text. */
  write: Array<{ fileName: string; content: string }>;
  /** Files to remove (already gone is fine). */
  remove: string[];
}

/**
 * Brings the folder to the given state. A file that already holds the same bytes is left alone
 * (most playlists do not change from one regeneration to the next, and each write costs an
 * fsync); the folder is fsync'd once at the end, which makes every rename and removal durable.
 */
export async function applyPlaylistFileChanges(
  folder: string,
  changes: PlaylistFileChanges,
): Promise<{ written: number; unchanged: number; removed: number }> {
  const kept = new Set(changes.write.map((file) => file.fileName));
  await fs.mkdir(folder, { recursive: true });
  let written = 0;
  let unchanged = 0;
  let removed = 0;
  for (const file of changes.write) {
    const target = insideFolder(folder, file.fileName);
    const content = Buffer.from(file.content, 'utf8');
    const current = await readPlaylistFile(folder, file.fileName);
    if (current?.equals(content)) {
      unchanged += 1;
      continue;
    }
    await replaceFile(folder, target, content);
    written += 1;
  }
  // A name that is also written (a playlist that took over another's name) must stay.
  for (const fileName of changes.remove) {
    if (kept.has(fileName)) continue;
    await fs.rm(insideFolder(folder, fileName), { force: true });
    removed += 1;
  }
  if (written + removed > 0) await syncFolder(folder);
  return { written, unchanged, removed };
}

/** The bytes of a playlist file, or null when it does not exist. */
export async function readPlaylistFile(folder: string, fileName: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(insideFolder(folder, fileName));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
