/**
 * Serato crates ('_Serato_/Subcrates/<name>.crate'; a crate inside another is named
 * 'Parent%%Child.crate'). Tagged chunks (serato-chunks.ts):
 *
 *   vrsn  '1.0/Serato ScratchLive Crate' (UTF-16BE; Serato DJ 4 ignores a crate with any other)
 *   osrt  sort column (tvcn name, brev reverse flag)      ovct  a shown column (tvcn, tvcw)
 *   otrk  one track: ptrk, its path (UTF-16BE) relative to the root of the drive holding the
 *         '_Serato_' folder: 'Users/dj/Music/a.mp3' on a Mac, 'Music/a.mp3' for 'D:\Music\a.mp3'
 *
 * A crate carries paths only: titles and artists live in 'database V2' (serato-database.ts, whose
 * track keys are these same paths), so a track read from a crate alone has the file name as its
 * title and no artist.
 */
import { pickList } from './lists.js';
import { fileStem } from './paths.js';
import { chunk, encodeUtf16be, readChunks, utf16be } from './serato-chunks.js';
import type {
  DjFormatReader,
  DjFormatWriter,
  DjLibrary,
  DjReadOptions,
  DjTrack,
  DjWriteInput,
  DjWriteOptions,
} from './types.js';
import { DjFormatError } from './types.js';

const FORMAT = 'serato-crate';
export const CRATE_VERSION = '1.0/Serato ScratchLive Crate';
const COLUMNS = ['song', 'artist', 'bpm', 'key', 'album', 'length'];

/** An absolute path from a crate path and the drive root ('/', 'C:/', '/Volumes/USB/'). */
export function seratoAbsolutePath(relative: string, root = '/'): string {
  if (/^(?:\/|[A-Za-z]:[/\\])/.test(relative)) return relative;
  return `${root.endsWith('/') || root.endsWith('\\') ? root : `${root}/`}${relative}`;
}

function read(input: Buffer | string, options: DjReadOptions = {}): DjLibrary {
  if (typeof input === 'string')
    throw new DjFormatError(FORMAT, 'A Serato crate is binary: pass the file as a Buffer.');
  const chunks = readChunks(input, FORMAT);
  const version = chunks[0]?.tag === 'vrsn' ? utf16be(chunks[0].data) : undefined;
  if (version === undefined || !version.includes('Crate')) {
    throw new DjFormatError(
      FORMAT,
      `Not a Serato crate: it starts with '${chunks[0]?.tag ?? ''}' '${version ?? ''}'.`,
    );
  }
  const tracks: DjTrack[] = [];
  const seen = new Set<string>();
  const trackKeys: string[] = [];
  for (const entry of chunks) {
    if (entry.tag !== 'otrk') continue;
    const pathChunk = readChunks(entry.data, FORMAT).find((field) => field.tag === 'ptrk');
    if (!pathChunk) continue;
    const key = utf16be(pathChunk.data);
    if (key === '') continue;
    trackKeys.push(key);
    if (seen.has(key)) continue;
    seen.add(key);
    tracks.push({ key, title: fileStem(key), artist: '', location: seratoAbsolutePath(key, options.root) });
  }
  const names = options.fileName === undefined ? ['Crate'] : fileStem(options.fileName).split('%%');
  const name = names.pop() ?? 'Crate';
  return { format: FORMAT, tracks, playlists: [{ name, path: names, trackKeys }], history: [] };
}

export const seratoCrateReader: DjFormatReader = { format: FORMAT, read };

/** A crate path from an absolute path: the drive root (or a Windows drive letter) is stripped. */
function cratePath(location: string, root: string): string {
  const drive = /^[A-Za-z]:[/\\](.*)$/.exec(location);
  if (drive) return drive[1]!.replace(/\\/g, '/');
  if (location.startsWith(root)) return location.slice(root.length);
  return location.replace(/^\/+/, '');
}

/** The crate's file name for a playlist: folders joined with '%%' ('WCS%%Friday.crate'). */
export function seratoCrateFileName(path: string[], name: string): string {
  return `${[...path, name].map((part) => part.replace(/[/\\:*?"<>|]|%%/g, '_')).join('%%')}.crate`;
}

/** A crate's start: the version and the usual columns. */
function crateHead(): Buffer {
  const parts: Buffer[] = [chunk('vrsn', encodeUtf16be(CRATE_VERSION))];
  for (const column of COLUMNS) {
    parts.push(
      chunk('ovct', Buffer.concat([chunk('tvcn', encodeUtf16be(column)), chunk('tvcw', encodeUtf16be('0'))])),
    );
  }
  return Buffer.concat(parts);
}

/** A track's chunk in a crate; none without a location. */
function crateTrack(track: DjTrack, root: string): Buffer {
  if (track.location === undefined) return Buffer.alloc(0);
  return chunk('otrk', chunk('ptrk', encodeUtf16be(cratePath(track.location, root))));
}

/** One crate: the version, the usual columns, and the tracks of one list that have a location. */
function write(input: DjWriteInput, options: DjWriteOptions = {}): Buffer {
  const list = pickList(input, options, FORMAT);
  const root = options.root ?? '/';
  return Buffer.concat([crateHead(), ...list.rows.map(({ track }) => crateTrack(track, root))]);
}

export const seratoCrateWriter: DjFormatWriter = {
  format: FORMAT,
  write,
  stream: (options = {}) => {
    const root = options.root ?? '/';
    return {
      writes: (track) => track.location !== undefined,
      head: crateHead,
      track: (track) => crateTrack(track, root),
      tail: () => [],
    };
  },
};
