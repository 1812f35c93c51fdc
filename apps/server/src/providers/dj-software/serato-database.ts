/**
 * Serato's library, '_Serato_/database V2' (one per drive). Tagged chunks (serato-chunks.ts), in
 * the layout Mixxx's Serato importer and serato-tools read (docs/interop.md links them):
 *
 *   vrsn  '2.0/Serato Scratch LIVE Database' (UTF-16BE)
 *   otrk  one track, a run of fields:
 *         pfil  path relative to the root of the drive holding '_Serato_' (as a crate's ptrk)
 *         tsng title   tart artist   talb album   tgen genre   tkey key (as Serato shows it)
 *         tlen  length (text: seconds, or 'mm:ss.cc')   tbpm BPM (text, '128.00')
 *         uadd  date added (4-byte Unix time)   tadd the same as text
 *         ttyp, tbit, tsmp, tcom, tgrp, tlbl, ttyr, utme, bmis, bply, bbgl...: not read
 *
 * Tracks are keyed by their `pfil` path, the same string a crate's `ptrk` holds, so the tracks
 * of a crate read with serato-crate.ts find their titles and artists here by key. The database
 * carries no play count, rating, playlists or history (crates and 'History/Sessions' do).
 */
import { wallTimeAt } from '../../zoned-time.js';
import { fileStem } from './paths.js';
import { readChunks, utf16be } from './serato-chunks.js';
import { seratoAbsolutePath } from './serato-crate.js';
import { dateOf, zoneOption } from './time.js';
import type { DjFormatReader, DjLibrary, DjReadOptions, DjTrack } from './types.js';
import { DjFormatError } from './types.js';
import { compactTrack, durationSeconds, positive, text } from './values.js';

const FORMAT = 'serato-database';
export const DATABASE_VERSION = '2.0/Serato Scratch LIVE Database';

function read(input: Buffer | string, options: DjReadOptions = {}): DjLibrary {
  if (typeof input === 'string')
    throw new DjFormatError(FORMAT, "Serato's database V2 is binary: pass the file as a Buffer.");
  const chunks = readChunks(input, FORMAT);
  const version = chunks[0]?.tag === 'vrsn' ? utf16be(chunks[0].data) : undefined;
  if (version === undefined || !version.includes('Database')) {
    throw new DjFormatError(
      FORMAT,
      `Not a Serato database V2: it starts with '${chunks[0]?.tag ?? ''}' '${version ?? ''}'.`,
    );
  }
  const timeZone = zoneOption(options.timeZone);
  const tracks: DjTrack[] = [];
  const seen = new Set<string>();
  for (const entry of chunks) {
    if (entry.tag !== 'otrk') continue;
    const fields = new Map<string, Buffer>();
    for (const field of readChunks(entry.data, FORMAT)) {
      if (!fields.has(field.tag)) fields.set(field.tag, field.data);
    }
    const textOf = (tag: string) => {
      const data = fields.get(tag);
      return data === undefined ? undefined : text(utf16be(data));
    };
    const key = textOf('pfil');
    if (key === undefined || seen.has(key)) continue;
    seen.add(key);
    const uadd = fields.get('uadd');
    const addedSeconds =
      uadd !== undefined && uadd.length === 4 ? uadd.readUInt32BE(0) : positive(textOf('tadd'));
    tracks.push(
      compactTrack({
        key,
        title: textOf('tsng') ?? fileStem(key),
        artist: textOf('tart') ?? '',
        album: textOf('talb'),
        genre: textOf('tgen'),
        location: seratoAbsolutePath(key, options.root),
        durationSeconds: durationSeconds(textOf('tlen')),
        bpm: positive(textOf('tbpm')),
        musicalKey: textOf('tkey'),
        dateAdded:
          addedSeconds === undefined || addedSeconds <= 0
            ? undefined
            : dateOf(wallTimeAt(addedSeconds * 1000, timeZone)),
      }),
    );
  }
  return { format: FORMAT, tracks, playlists: [], history: [] };
}

export const seratoDatabaseReader: DjFormatReader = { format: FORMAT, read };
