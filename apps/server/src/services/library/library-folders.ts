import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { LibraryImportResult } from '@wcs/contract';
import { badRequest } from '../errors.js';

/** Extensions of the audio files an import picks up (lower case, with the dot). */
export const AUDIO_EXTENSIONS: ReadonlySet<string> = new Set([
  '.mp3',
  '.flac',
  '.ogg',
  '.opus',
  '.m4a',
  '.aac',
  '.wav',
  '.aiff',
  '.aif',
]);

export type LibraryImportFailure = LibraryImportResult['failed'][number];

/**
 * The audio files under a folder, sorted, and the folders that could not be read. Hidden entries
 * (names starting with '.', such as macOS '._x.mp3' resource files) and symbolic links are
 * skipped: a link could lead out of the library roots, or in a circle.
 */
export async function listAudioFiles(
  folder: string,
): Promise<{ files: string[]; unreadable: LibraryImportFailure[] }> {
  const files: string[] = [];
  const unreadable: LibraryImportFailure[] = [];
  const walk = async (dir: string) => {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      unreadable.push({ file: dir, reason: `the folder could not be read: ${(error as Error).message}` });
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && AUDIO_EXTENSIONS.has(path.extname(entry.name).toLowerCase()))
        files.push(full);
    }
  };
  await walk(folder);
  files.sort();
  return { files, unreadable };
}

/** Roots as they are on disk: a root that is itself a symbolic link compares by its target. */
async function realRoots(roots: readonly string[]): Promise<string[]> {
  return Promise.all(roots.map((root) => fs.realpath(root).catch(() => path.resolve(root))));
}

const isInside = (child: string, parent: string) =>
  child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

/**
 * The real path of a folder the API was asked to import, after checking that it is absolute,
 * exists, is a folder, and lies inside a library root once '..' and symbolic links are resolved.
 */
export async function resolveFolderInRoots(folder: string, roots: readonly string[]): Promise<string> {
  if (!path.isAbsolute(folder)) {
    throw badRequest(
      `folder must be an absolute path (for example ${roots[0] ?? '/music'}); got "${folder}"`,
    );
  }
  const real = await resolveExistingFolder(folder);
  const realRootList = await realRoots(roots);
  if (!realRootList.some((root) => isInside(real, root))) {
    throw badRequest(
      `Folder ${folder} is outside the library roots (${roots.join(', ')}). Import a folder inside one of them, or add its parent folder to WCS_LIBRARY_ROOTS.`,
    );
  }
  return real;
}

/** The real path of an existing folder; a missing path or a file is the caller's mistake. */
export async function resolveExistingFolder(folder: string): Promise<string> {
  let real: string;
  try {
    real = await fs.realpath(folder);
  } catch {
    throw badRequest(`Folder ${folder} does not exist`);
  }
  if (!(await fs.stat(real)).isDirectory()) throw badRequest(`${folder} is a file, not a folder`);
  return real;
}
