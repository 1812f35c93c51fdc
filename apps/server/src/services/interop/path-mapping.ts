import fs from 'node:fs/promises';
import path from 'node:path';
import type { PathMapping } from '@wcs/contract';
import { resolveFolderInRoots } from '../library/library-folders.js';

/**
 * Paths written by a DJ program on another computer, mapped to where the same files are on this
 * server: `C:\Music\WCS\a.mp3` with the mapping `C:/Music/` → `/srv/music/` is
 * `/srv/music/WCS/a.mp3`. Windows paths (a drive letter, or `\\server\share`) use either slash and
 * ignore case, as Windows does; others compare exactly.
 */

/** A drive letter or a UNC share: a path written on Windows. */
export function isWindowsPath(location: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(location) || /^\\\\[^\\]/.test(location) || /^\/\/[^/]/.test(location);
}

/** Windows paths with '/' throughout; others as they are. */
function withSlashes(location: string): string {
  return isWindowsPath(location) ? location.replace(/\\/g, '/') : location;
}

const withTrailingSlash = (prefix: string) => (prefix.endsWith('/') ? prefix : `${prefix}/`);

export interface MappedLocation {
  /** The path on this server (the location itself when no mapping applies). */
  path: string;
  /** Compare without regard to case: the location was written on Windows. */
  caseInsensitive: boolean;
}

/**
 * The server path of a location: the longest mapping whose `from` starts it (a whole folder
 * name: `C:/Music` maps `C:/Music/a.mp3`, never `C:/Musicals/a.mp3`), else the location with
 * Windows separators made '/'.
 */
export function mapLocation(location: string, mappings: readonly PathMapping[]): MappedLocation {
  const source = withSlashes(location);
  const caseInsensitive = isWindowsPath(location);
  const ordered = [...mappings].sort((a, b) => b.from.length - a.from.length);
  for (const mapping of ordered) {
    const from = withTrailingSlash(withSlashes(mapping.from));
    const starts = caseInsensitive
      ? source.toLowerCase().startsWith(from.toLowerCase())
      : source.startsWith(from) || `${source}/` === from;
    if (!starts) continue;
    const rest = source.slice(Math.min(from.length, source.length));
    const target = withTrailingSlash(mapping.to.replace(/\\/g, '/'));
    return { path: `${target}${rest}`, caseInsensitive };
  }
  return { path: source, caseInsensitive };
}

/** The mappings turned round (server → DJ's computer), for exports. */
export function mapServerPath(file: string, mappings: readonly PathMapping[]): string {
  return mapLocation(file, mappings).path;
}

const isInside = (child: string, parent: string) =>
  child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

/**
 * Checks the library roots for files whose paths come from a DJ's file (not from the caller
 * directly): the real path of an existing regular file inside a root, else null. Paths outside
 * every root are never touched on disk (not even to see whether they exist), so an uploaded file
 * cannot probe the server's disk; the roots check itself is the library import's
 * (`resolveFolderInRoots`), applied to the file's real folder.
 */
export function libraryFileChecker(roots: readonly string[]): (file: string) => Promise<string | null> {
  const lexicalRoots = roots.map((root) => path.resolve(root));
  return async (file) => {
    if (!path.isAbsolute(file)) return null;
    const resolved = path.resolve(file);
    if (!lexicalRoots.some((root) => isInside(resolved, root))) return null;
    try {
      const real = await fs.realpath(resolved);
      const stat = await fs.stat(real);
      if (!stat.isFile()) return null;
      await resolveFolderInRoots(path.dirname(real), roots);
      return real;
    } catch {
      return null;
    }
  };
}
