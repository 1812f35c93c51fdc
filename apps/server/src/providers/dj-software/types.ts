/**
 * The common shapes of the DJ-software readers and writers: one library (tracks, playlists,
 * history sessions) whatever program wrote the file. Each format module turns its file into a
 * `DjLibrary` and, where it can, a `DjLibrary` back into its file. Nothing here touches the
 * database; the services that import a DJ's history call these modules and store what they give.
 */

import { DJ_IMPORT_FORMATS } from '@wcs/contract';

/**
 * Every format this folder reads or writes (docs/interop.md says what each carries): the
 * contract's list, which the API and the web app offer.
 */
export const DJ_FORMATS = DJ_IMPORT_FORMATS;
export type DjFormat = (typeof DJ_FORMATS)[number];

export interface DjTrack {
  /** Stable id of the track within the file (rekordbox TrackID, Traktor's primary key, the path...). */
  key: string;
  title: string;
  artist: string;
  album?: string;
  genre?: string;
  /**
   * Absolute path of the audio file as the software wrote it, decoded from file:// URLs
   * ('/Users/dj/Music/a.mp3', 'C:/Music/a.mp3'; Windows paths keep the separator the file used).
   */
  location?: string;
  durationSeconds?: number;
  bpm?: number;
  /** The key as written by the software: '8A', 'Am', 'F#m', '1m'. */
  musicalKey?: string;
  playCount?: number;
  /** YYYY-MM-DD. */
  dateAdded?: string;
  /** Stars, 1 to 5; absent when the track is unrated. */
  rating?: number;
}

export interface DjPlaylist {
  name: string;
  /** The folders above the playlist, outermost first; [] at the top level. */
  path: string[];
  /** `DjTrack.key`s in playlist order; a key may repeat. */
  trackKeys: string[];
}

export interface DjHistoryEntry {
  trackKey: string;
  /** When the track started, ISO 8601 in UTC ('2024-05-03T21:02:10Z'); absent when not recorded. */
  playedAt?: string;
}

export interface DjHistorySession {
  name: string;
  /** When the session started, ISO 8601 in UTC; absent when the file gives no time. */
  startedAt?: string;
  /** The local calendar day of the session (YYYY-MM-DD), when the file gives one. */
  date?: string;
  entries: DjHistoryEntry[];
}

export interface DjLibrary {
  format: DjFormat;
  tracks: DjTrack[];
  playlists: DjPlaylist[];
  history: DjHistorySession[];
}

/** Columns of a CSV file: the header of the column holding each field. */
export interface DjCsvMapping {
  title: string;
  artist: string;
  album?: string;
  genre?: string;
  location?: string;
  durationSeconds?: string;
  bpm?: string;
  musicalKey?: string;
  playCount?: string;
  dateAdded?: string;
  rating?: string;
  /** With this column the file is read as one history session; without it, as one playlist. */
  playedAt?: string;
}

export interface DjReadOptions {
  /**
   * The file's name (a path is fine): names the session or playlist of formats that carry no name
   * inside (VirtualDJ 'History/2024-05-03.m3u', Traktor 'history_2024y05m03d_21h02m10s.nml',
   * Serato 'Subcrates/WCS%%Friday.crate').
   */
  fileName?: string;
  /**
   * IANA zone of the DJ's computer ('America/Chicago'). Files that write wall-clock times without
   * an offset (Traktor history, VirtualDJ `<time>`, Serato CSV without a known zone, CSV
   * `playedAt` without an offset) are read in it; default 'UTC'.
   */
  timeZone?: string;
  /**
   * Keep history entries the file marks as not played to the room (Traktor `PLAYEDPUBLIC="0"`,
   * a Serato session entry with its played flag off). Default false.
   */
  includeUnplayed?: boolean;
  /** Traktor: the volume name that is the Mac's start-up disk, read as '/' (default 'Macintosh HD'). */
  rootVolume?: string;
  /**
   * Serato crates, sessions and 'database V2' store paths relative to the drive holding the
   * `_Serato_` folder; this is that drive's root, prefixed to them (default '/'; 'C:/' or
   * '/Volumes/USB/' for others).
   */
  root?: string;
  /**
   * Engine DJ stores track paths relative to its 'Engine Library' folder ('../Music/a.mp3'); this
   * is that folder's absolute path ('/Users/dj/Music/Engine Library', 'E:/Engine Library'). By
   * default it is taken from `fileName` when that is an absolute path to the database
   * ('.../Engine Library/Database2/m.db'); without either, tracks keep their relative path as
   * `key` and have no `location`.
   */
  libraryFolder?: string;
  /** CSV: which column holds which field (required for the 'csv' format). */
  csvMapping?: DjCsvMapping;
  /** CSV: the field delimiter; by default the one of ',', ';' and tab found most in the header. */
  csvDelimiter?: string;
  /** Serato history CSV: order of the date in the session row; by default from its separator. */
  dateOrder?: 'dmy' | 'mdy' | 'ymd';
}

/** What a writer takes: a `DjLibrary` does, and so does a bare list of tracks. */
export interface DjWriteInput {
  tracks: DjTrack[];
  playlists?: DjPlaylist[];
  history?: DjHistorySession[];
}

export interface DjWriteOptions {
  /**
   * Formats holding one list (M3U, Serato crate, CSV) write the playlist, or else the history
   * session, of this name; by default the first playlist, else the first history session, else
   * every track in collection order.
   */
  listName?: string;
  /** IANA zone in which to write wall-clock times (Traktor history, VirtualDJ `<time>`); default 'UTC'. */
  timeZone?: string;
  /** Traktor: volume name for paths on the start-up disk (default 'Macintosh HD'). */
  rootVolume?: string;
  /** Serato crate: the drive root stripped from paths (default '/'; Windows drive letters are always stripped). */
  root?: string;
  /** CSV: the columns to write (default: every field under a plain English header). */
  csvMapping?: DjCsvMapping;
}

export interface DjFormatReader {
  format: DjFormat;
  read(input: Buffer | string, options?: DjReadOptions): DjLibrary;
}

export interface DjFormatWriter {
  format: DjFormat;
  write(input: DjWriteInput, options?: DjWriteOptions): Buffer | string;
  /**
   * The same file made a track at a time, for tracks read in batches (a library of 200,000 songs
   * is not held whole): the tracks of `write`'s collection, or of its one list, in their order.
   */
  stream?(options?: DjWriteOptions): DjStreamWriter;
}

/**
 * A file written a track at a time: `head`, then `track` of every track in order, then `tail`
 * are the bytes `write` makes of those tracks. A one-list format writes one list, named
 * `options.listName` (else 'Tracks', as `write` names every track); an XML format writes a
 * collection, then `tail`'s playlists.
 */
export interface DjStreamWriter {
  /** Whether `track` writes anything for this track: the XML formats count them for their head. */
  writes(track: DjTrack): boolean;
  /** What comes before the tracks; `count` is how many of them `writes` (XML heads say it). */
  head(count: number): Buffer | string;
  /** One track's part: empty when the format leaves it out (no location). */
  track(track: DjTrack): Buffer | string;
  /**
   * What comes after the tracks, in parts (a playlist at a time): the XML formats' playlists, of
   * `input.playlists` and the tracks they name (as read with the others: those without a
   * location are left out of them).
   */
  tail(input: DjWriteInput): Iterable<Buffer | string>;
}

/** A file that is not what its reader expects, or options that cannot be honoured; the message says which. */
export class DjFormatError extends Error {
  constructor(
    readonly format: DjFormat | null,
    message: string,
  ) {
    super(message);
    this.name = 'DjFormatError';
  }
}
