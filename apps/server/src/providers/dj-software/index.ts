/**
 * The DJ-software formats under one interface: `detectDjFormat` names the format of an uploaded
 * file from its name and first bytes, `DJ_READERS[format].read(bytes, options)` turns it into a
 * `DjLibrary`, and `DJ_WRITERS[format].write(library, options)` turns a library into a file for
 * that program. docs/interop.md lists what each format carries.
 */
import { csvReader, csvWriter } from './csv.js';
import { engineDjReader } from './engine-dj.js';
import { m3u8Writer, m3uReader, virtualDjM3uReader, virtualDjM3uWriter } from './m3u.js';
import { mixxxReader } from './mixxx.js';
import { baseName } from './paths.js';
import { rekordboxXmlReader, rekordboxXmlWriter } from './rekordbox-xml.js';
import { seratoCrateReader, seratoCrateWriter } from './serato-crate.js';
import { seratoDatabaseReader } from './serato-database.js';
import { seratoHistoryCsvReader } from './serato-history-csv.js';
import { seratoSessionReader } from './serato-session.js';
import { isSqlite } from './sqlite.js';
import { decodeText } from './text-input.js';
import { traktorNmlReader, traktorNmlWriter } from './traktor-nml.js';
import type { DjFormat, DjFormatReader, DjFormatWriter } from './types.js';
import { virtualDjDatabaseReader } from './virtualdj-database.js';

export { DEFAULT_CSV_MAPPING } from './csv.js';
export { seratoCrateFileName } from './serato-crate.js';
export * from './types.js';

export const DJ_READERS: Readonly<Record<DjFormat, DjFormatReader>> = {
  'rekordbox-xml': rekordboxXmlReader,
  'traktor-nml': traktorNmlReader,
  'virtualdj-database': virtualDjDatabaseReader,
  'virtualdj-m3u': virtualDjM3uReader,
  'serato-crate': seratoCrateReader,
  'serato-session': seratoSessionReader,
  'serato-history-csv': seratoHistoryCsvReader,
  'serato-database': seratoDatabaseReader,
  'engine-dj': engineDjReader,
  mixxx: mixxxReader,
  m3u8: m3uReader,
  csv: csvReader,
};

export const DJ_WRITERS: Readonly<Partial<Record<DjFormat, DjFormatWriter>>> = {
  'rekordbox-xml': rekordboxXmlWriter,
  'traktor-nml': traktorNmlWriter,
  'virtualdj-m3u': virtualDjM3uWriter,
  'serato-crate': seratoCrateWriter,
  m3u8: m3u8Writer,
  csv: csvWriter,
};

/** File extension each format's files have ('' for Serato's 'database V2', which has none). */
export const DJ_FILE_EXTENSIONS: Readonly<Record<DjFormat, string>> = {
  'rekordbox-xml': '.xml',
  'traktor-nml': '.nml',
  'virtualdj-database': '.xml',
  'virtualdj-m3u': '.m3u',
  'serato-crate': '.crate',
  'serato-session': '.session',
  'serato-history-csv': '.csv',
  'serato-database': '',
  'engine-dj': '.db',
  mixxx: '.sqlite',
  m3u8: '.m3u8',
  csv: '.csv',
};

/** How many leading bytes `detectDjFormat` looks at; pass at least this many when there are. */
export const DJ_DETECT_BYTES = 4096;

/**
 * The format of a file from its name and first bytes (a few kilobytes are enough), or null when
 * it is none of ours. The content decides where it can (the XML root element, Serato's 'vrsn'
 * chunk, VirtualDJ's '#EXTVDJ', Serato's CSV header, the SQLite header); the name decides the
 * rest ('m.db' and 'hm.db' are Engine DJ's, 'mixxxdb.sqlite' Mixxx's), then the table names
 * when the start of an SQLite file shows them.
 */
export function detectDjFormat(fileName: string, firstBytes: Buffer | string): DjFormat | null {
  const name = baseName(fileName).toLowerCase();
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.')) : '';
  const head = typeof firstBytes === 'string' ? firstBytes : firstBytes.subarray(0, DJ_DETECT_BYTES);

  if (Buffer.isBuffer(head) && head.subarray(0, 4).toString('latin1') === 'vrsn') {
    // The version string is UTF-16BE: 'Crate' marks a crate, 'Database' the library; a session
    // has 'oent' chunks.
    const ascii = head.toString('latin1').replace(/\0/g, '');
    if (ascii.includes('Crate') || extension === '.crate') return 'serato-crate';
    if (ascii.includes('Database') || name === 'database v2') return 'serato-database';
    if (extension === '.session' || head.includes('oent')) return 'serato-session';
    return null;
  }
  if (isSqlite(Buffer.isBuffer(head) ? head : Buffer.from(head, 'latin1'))) {
    if (name === 'm.db' || name === 'hm.db') return 'engine-dj';
    if (name === 'mixxxdb.sqlite') return 'mixxx';
    // The schema (CREATE statements) sits in the first page when it is small enough.
    const ascii = Buffer.isBuffer(head) ? head.toString('latin1') : head;
    if (/\b(?:PlaylistEntity|HistorylistEntity)\b/.test(ascii)) return 'engine-dj';
    if (/\b(?:track_locations|PlaylistTracks)\b/.test(ascii)) return 'mixxx';
    return null;
  }
  if (extension === '.crate') return 'serato-crate';
  if (extension === '.session') return 'serato-session';

  const text = decodeText(head);
  const root = /<(?!\?|!)([A-Za-z_][\w.-]*)/.exec(text)?.[1];
  if (root === 'DJ_PLAYLISTS') return 'rekordbox-xml';
  if (root === 'NML') return 'traktor-nml';
  if (root === 'VirtualDJ_Database') return 'virtualdj-database';
  if (extension === '.nml') return 'traktor-nml';

  if (extension === '.m3u' || extension === '.m3u8' || /^#EXTM3U/.test(text)) {
    return /#EXTVDJ:/i.test(text) ? 'virtualdj-m3u' : 'm3u8';
  }
  if (extension === '.csv') {
    const firstLine = (text.split(/\r?\n/, 1)[0] ?? '').toLowerCase().replace(/"/g, '');
    const columns = firstLine.split(/[,;\t]/).map((column) => column.trim());
    return columns.includes('name') && columns.includes('start time') ? 'serato-history-csv' : 'csv';
  }
  return null;
}
