/**
 * Serato history sessions ('_Serato_/History/Sessions/<n>.session'), one file per session. Serato
 * publishes no description; this follows the layout that two independent, long-used open-source
 * readers agree on (SSL Scrobbler's SSLAdatChunk and What's Now Playing's Serato input; links in
 * docs/interop.md):
 *
 *   vrsn  version string (UTF-16BE)
 *   oent  one deck event, holding one 'adat' chunk whose payload is a run of numbered fields:
 *         4-byte field id, 4-byte big-endian length, value
 *   oren  (other events, skipped)
 *
 * Fields read (strings are UTF-16BE ending in a NUL; numbers are big-endian unsigned):
 *   2 full path   6 title   7 artist   8 album   9 genre   10 length (text)   15 BPM (number)
 *   28 start time (Unix)   50 played flag (1 byte)   51 key (text)
 * The sources disagree on field 17 (comments or key); it is not read. Entries whose played flag
 * is 0 were loaded but not played to the room and are left out unless `includeUnplayed`.
 */
import { fileStem } from './paths.js';
import { readChunks, utf16be } from './serato-chunks.js';
import { seratoAbsolutePath } from './serato-crate.js';
import { isoFromUnix, localDateOfIso, zoneOption } from './time.js';
import type { DjFormatReader, DjHistoryEntry, DjLibrary, DjReadOptions, DjTrack } from './types.js';
import { DjFormatError } from './types.js';
import { compactTrack, durationSeconds, text } from './values.js';

const FORMAT = 'serato-session';

export const SESSION_FIELDS = {
  path: 2,
  title: 6,
  artist: 7,
  album: 8,
  genre: 9,
  length: 10,
  bpm: 15,
  startTime: 28,
  played: 50,
  key: 51,
} as const;

/** The numbered fields of an 'adat' payload; a DjFormatError when a length runs past the end. */
function readFields(data: Buffer): Map<number, Buffer> {
  const fields = new Map<number, Buffer>();
  let offset = 0;
  while (offset + 8 <= data.length) {
    const id = data.readUInt32BE(offset);
    const length = data.readUInt32BE(offset + 4);
    const end = offset + 8 + length;
    if (end > data.length) {
      throw new DjFormatError(
        FORMAT,
        `Truncated Serato session: field ${id} claims ${length} bytes, ${data.length - offset - 8} remain.`,
      );
    }
    fields.set(id, data.subarray(offset + 8, end));
    offset = end;
  }
  return fields;
}

function numberField(value: Buffer | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (value.length === 4) return value.readUInt32BE(0);
  if (value.length === 8) return Number(value.readBigUInt64BE(0));
  if (value.length === 1) return value[0];
  return undefined;
}

function stringField(value: Buffer | undefined): string | undefined {
  return value === undefined ? undefined : text(utf16be(value));
}

function read(input: Buffer | string, options: DjReadOptions = {}): DjLibrary {
  if (typeof input === 'string')
    throw new DjFormatError(FORMAT, 'A Serato session is binary: pass the file as a Buffer.');
  const chunks = readChunks(input, FORMAT);
  if (chunks[0]?.tag !== 'vrsn') {
    throw new DjFormatError(
      FORMAT,
      `Not a Serato session: it starts with '${chunks[0]?.tag ?? ''}', not 'vrsn'.`,
    );
  }
  const timeZone = zoneOption(options.timeZone);
  const tracks: DjTrack[] = [];
  const seen = new Set<string>();
  const entries: DjHistoryEntry[] = [];
  for (const event of chunks) {
    if (event.tag !== 'oent') continue;
    const adat = readChunks(event.data, FORMAT).find((inner) => inner.tag === 'adat');
    if (!adat) continue;
    const fields = readFields(adat.data);
    const path = stringField(fields.get(SESSION_FIELDS.path));
    if (path === undefined) continue;
    if (numberField(fields.get(SESSION_FIELDS.played)) === 0 && !options.includeUnplayed) continue;
    if (!seen.has(path)) {
      seen.add(path);
      const bpm = numberField(fields.get(SESSION_FIELDS.bpm));
      tracks.push(
        compactTrack({
          key: path,
          title: stringField(fields.get(SESSION_FIELDS.title)) ?? fileStem(path),
          artist: stringField(fields.get(SESSION_FIELDS.artist)) ?? '',
          album: stringField(fields.get(SESSION_FIELDS.album)),
          genre: stringField(fields.get(SESSION_FIELDS.genre)),
          location: seratoAbsolutePath(path, options.root),
          durationSeconds: durationSeconds(stringField(fields.get(SESSION_FIELDS.length))),
          bpm: bpm !== undefined && bpm > 0 ? bpm : undefined,
          musicalKey: stringField(fields.get(SESSION_FIELDS.key)),
        }),
      );
    }
    const start = numberField(fields.get(SESSION_FIELDS.startTime));
    entries.push(
      start !== undefined && start > 0
        ? { trackKey: path, playedAt: isoFromUnix(start) }
        : { trackKey: path },
    );
  }
  const times = entries.flatMap((entry) => (entry.playedAt === undefined ? [] : [entry.playedAt])).sort();
  const startedAt = times[0];
  return {
    format: FORMAT,
    tracks,
    playlists: [],
    history: [
      {
        name: options.fileName === undefined ? 'Serato session' : fileStem(options.fileName),
        ...(startedAt !== undefined ? { startedAt, date: localDateOfIso(startedAt, timeZone) } : {}),
        entries,
      },
    ],
  };
}

export const seratoSessionReader: DjFormatReader = { format: FORMAT, read };
