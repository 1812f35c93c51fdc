/**
 * Engine DJ (Denon DJ, Numark, Rane, SoundSwitch hardware and the Engine DJ desktop program), the
 * 'Database2' layout of Engine DJ 2.0 and later: SQLite schemas 2.18.0 to 2.21.x (Engine DJ
 * 2.0 to 4.0.x) and 3.0.x (Engine DJ 4.1 and later). Two files in 'Engine Library/Database2/':
 *
 *   m.db   Information (uuid, schemaVersionMajor/Minor/Patch)
 *          Track (id, path relative to the 'Engine Library' folder, filename, title, artist,
 *            album, genre, length in seconds, bpm (whole) and bpmAnalyzed (real), key 0-23 in
 *            Engine's order (keys.ts), rating 0-100 in steps of 20 per star, dateAdded in Unix
 *            seconds, uri for streamed tracks, blobs and flags not read)
 *          Playlist (id, title, parentListId: 0 at the top, nextListId: the next sibling, 0 for
 *            the last), PlaylistEntity (listId, trackId, nextEntityId: the next entry, 0 last)
 *   hm.db  the play history: Historylist (id, title, startTime in Unix seconds, isDeleted...),
 *          HistorylistEntity (listId, trackId, startTime in Unix seconds), and its own copy of
 *          the Track table that HistorylistEntity.trackId points into
 *
 * Either file is read by this one reader: the tables present decide what comes out (tracks and
 * playlists from m.db; tracks and history sessions from hm.db, leaving out deleted and empty
 * sessions). Tracks are keyed by their path
 * as Engine wrote it (the `uri` of a streamed track), which is the same in both files, so a
 * caller reading both can join hm.db's history to m.db's library by key. Layout per
 * libdjinterop's schema definitions and the open-source readers docs/interop.md lists.
 * The Engine 1.x layout ('Engine Library/m.db' with 'List' tables) is refused with its version.
 */

import type { SqlValue } from 'sql.js';
import { wallTimeAt } from '../../zoned-time.js';
import { keyNameOfEngineIndex } from './keys.js';
import { baseName, fileStem, isAbsolutePath, resolvePath } from './paths.js';
import { openSqlite, type SqliteFile, type SqliteRow, sqlNumber, sqlText } from './sqlite.js';
import { dateOf, isoFromMs, localDateOfIso, parseDateTime, zoneOption } from './time.js';
import type {
  DjFormatReader,
  DjHistoryEntry,
  DjHistorySession,
  DjLibrary,
  DjPlaylist,
  DjReadOptions,
  DjTrack,
} from './types.js';
import { DjFormatError } from './types.js';
import { compactTrack, positive, text } from './values.js';

const FORMAT = 'engine-dj';

/** Engine's "no parent" and "no next" value in Playlist and PlaylistEntity. */
const NONE = 0;

const TRACK_COLUMNS = ['id', 'path', 'filename', 'title', 'artist'];
const TRACK_OPTIONAL = [
  'album',
  'genre',
  'length',
  'bpm',
  'bpmAnalyzed',
  'key',
  'rating',
  'dateAdded',
  'uri',
];

/** 'schema 3.0.2', from the Information table when it has one. */
function schemaOf(db: SqliteFile): { label: string; major: number | undefined } {
  const columns = db.columns('Information');
  if (!columns.has('schemaversionmajor')) return { label: 'no schema version', major: undefined };
  const row = db.rows(
    'SELECT schemaVersionMajor AS major, schemaVersionMinor AS minor, schemaVersionPatch AS patch FROM Information ORDER BY id LIMIT 1',
  )[0];
  const major = sqlNumber(row?.major);
  if (major === undefined) return { label: 'no schema version', major: undefined };
  return {
    label: `schema ${major}.${sqlNumber(row?.minor) ?? 0}.${sqlNumber(row?.patch) ?? 0}`,
    major,
  };
}

function requireColumns(db: SqliteFile, table: string, needed: string[], schema: string): void {
  if (!db.hasTable(table)) {
    throw new DjFormatError(FORMAT, `Engine DJ database (${schema}) has no '${table}' table.`);
  }
  const columns = db.columns(table);
  const missing = needed.filter((column) => !columns.has(column.toLowerCase()));
  if (missing.length > 0) {
    throw new DjFormatError(
      FORMAT,
      `Engine DJ database (${schema}): table '${table}' has no column ${missing.map((c) => `'${c}'`).join(', ')}.`,
    );
  }
}

/** The columns of `wanted` that the table has (optional columns of older schemas). */
function presentColumns(db: SqliteFile, table: string, wanted: string[]): string[] {
  const columns = db.columns(table);
  return wanted.filter((column) => columns.has(column.toLowerCase()));
}

function selectList(columns: string[]): string {
  return columns.map((column) => `"${column}"`).join(', ');
}

/** Milliseconds since 1970 from Unix seconds (Engine's DATETIME columns) or a date text in UTC. */
function instantMs(value: SqlValue | undefined): number | undefined {
  const seconds = sqlNumber(value);
  if (seconds !== undefined) return seconds > 0 ? (seconds > 1e11 ? seconds : seconds * 1000) : undefined;
  const raw = sqlText(value);
  const iso = raw === undefined ? null : parseDateTime(raw, 'UTC');
  return iso === null ? undefined : Date.parse(iso);
}

/** The 'Engine Library' folder: the option, else two levels above an absolute `.../Database2/m.db`. */
function libraryFolderOf(options: DjReadOptions): string | undefined {
  if (options.libraryFolder !== undefined) return options.libraryFolder;
  const fileName = options.fileName;
  if (fileName === undefined || !isAbsolutePath(fileName)) return undefined;
  const folder = resolvePath(fileName, '..');
  return baseName(folder).toLowerCase() === 'database2' ? resolvePath(folder, '..') : folder;
}

/**
 * Items of a linked list in order: each item names the id of the one after it (0 for the last).
 * Heads are the items nobody points to; a broken or cyclic chain keeps the rest in id order.
 */
function chainOrder<T>(items: T[], idOf: (item: T) => number, nextOf: (item: T) => number): T[] {
  const byId = new Map(items.map((item) => [idOf(item), item]));
  const pointedTo = new Set(items.map(nextOf).filter((next) => next !== NONE && byId.has(next)));
  const sorted = [...items].sort((a, b) => idOf(a) - idOf(b));
  const out: T[] = [];
  const seen = new Set<number>();
  const walk = (start: T) => {
    let item: T | undefined = start;
    while (item !== undefined && !seen.has(idOf(item))) {
      seen.add(idOf(item));
      out.push(item);
      item = byId.get(nextOf(item));
    }
  };
  for (const item of sorted) if (!pointedTo.has(idOf(item))) walk(item);
  for (const item of sorted) walk(item);
  return out;
}

function readTracks(
  db: SqliteFile,
  schema: string,
  options: DjReadOptions,
  timeZone: string,
): { tracks: DjTrack[]; keyOfId: Map<number, string> } {
  requireColumns(db, 'Track', TRACK_COLUMNS, schema);
  const columns = [...TRACK_COLUMNS, ...presentColumns(db, 'Track', TRACK_OPTIONAL)];
  const folder = libraryFolderOf(options);
  const tracks: DjTrack[] = [];
  const keyOfId = new Map<number, string>();
  const keys = new Set<string>();
  for (const row of db.rows(`SELECT ${selectList(columns)} FROM Track ORDER BY id`)) {
    const id = sqlNumber(row.id);
    if (id === undefined) continue;
    const path = text(sqlText(row.path));
    const uri = text(sqlText(row.uri));
    let key = path ?? uri ?? `track:${id}`;
    if (keys.has(key)) key = `${key}#${id}`;
    keys.add(key);
    keyOfId.set(id, key);
    const added = instantMs(row.dateAdded);
    const rating = sqlNumber(row.rating);
    const bpm = positive(row.bpmAnalyzed) ?? positive(row.bpm);
    const engineKey = sqlNumber(row.key);
    tracks.push(
      compactTrack({
        key,
        title: text(sqlText(row.title)) ?? fileStem(sqlText(row.filename) ?? path ?? uri ?? ''),
        artist: text(sqlText(row.artist)) ?? '',
        album: text(sqlText(row.album)),
        genre: text(sqlText(row.genre)),
        location:
          path === undefined
            ? undefined
            : isAbsolutePath(path)
              ? path
              : folder === undefined
                ? undefined
                : resolvePath(folder, path),
        durationSeconds: positive(row.length),
        bpm: bpm === undefined ? undefined : Number(bpm.toFixed(3)),
        musicalKey: engineKey === undefined ? undefined : (keyNameOfEngineIndex(engineKey) ?? undefined),
        dateAdded: added === undefined ? undefined : dateOf(wallTimeAt(added, timeZone)),
        rating:
          rating !== undefined && rating > 0 ? Math.min(5, Math.max(1, Math.round(rating / 20))) : undefined,
      }),
    );
  }
  return { tracks, keyOfId };
}

function readPlaylists(db: SqliteFile, schema: string, keyOfId: Map<number, string>): DjPlaylist[] {
  requireColumns(db, 'Playlist', ['id', 'title', 'parentListId', 'nextListId'], schema);
  requireColumns(db, 'PlaylistEntity', ['id', 'listId', 'trackId', 'nextEntityId'], schema);
  const lists = db.rows('SELECT id, title, parentListId, nextListId FROM Playlist');
  const ids = new Set(lists.map((row) => sqlNumber(row.id)));
  const parentOf = (row: SqliteRow) => {
    const parent = sqlNumber(row.parentListId) ?? NONE;
    return ids.has(parent) ? parent : NONE;
  };
  const childrenOf = new Map<number, SqliteRow[]>();
  for (const row of lists) {
    const siblings = childrenOf.get(parentOf(row)) ?? [];
    siblings.push(row);
    childrenOf.set(parentOf(row), siblings);
  }
  const entriesOf = new Map<number, SqliteRow[]>();
  for (const row of db.rows('SELECT id, listId, trackId, nextEntityId FROM PlaylistEntity')) {
    const listId = sqlNumber(row.listId);
    if (listId === undefined) continue;
    const entries = entriesOf.get(listId) ?? [];
    entries.push(row);
    entriesOf.set(listId, entries);
  }
  const idOf = (row: SqliteRow) => sqlNumber(row.id) ?? NONE;

  const playlists: DjPlaylist[] = [];
  const walk = (parent: number, path: string[]) => {
    const siblings = chainOrder(
      childrenOf.get(parent) ?? [],
      idOf,
      (row) => sqlNumber(row.nextListId) ?? NONE,
    );
    for (const row of siblings) {
      const id = idOf(row);
      const name = sqlText(row.title) ?? '';
      const entries = entriesOf.get(id) ?? [];
      const children = childrenOf.get(id) ?? [];
      // A list with sub-lists and no tracks is a folder; any other list is a playlist.
      if (entries.length > 0 || children.length === 0) {
        const trackKeys = chainOrder(entries, idOf, (entry) => sqlNumber(entry.nextEntityId) ?? NONE).flatMap(
          (entry) => keyOfId.get(sqlNumber(entry.trackId) ?? NONE) ?? [],
        );
        playlists.push({ name, path, trackKeys });
      }
      if (children.length > 0) walk(id, [...path, name]);
    }
  };
  walk(NONE, []);
  return playlists;
}

function readHistory(
  db: SqliteFile,
  schema: string,
  keyOfId: Map<number, string>,
  timeZone: string,
): DjHistorySession[] {
  requireColumns(db, 'Historylist', ['id'], schema);
  requireColumns(db, 'HistorylistEntity', ['listId', 'trackId', 'startTime'], schema);
  const listColumns = ['id', ...presentColumns(db, 'Historylist', ['title', 'startTime', 'isDeleted'])];
  const lists = db.rows(`SELECT ${selectList(listColumns)} FROM Historylist ORDER BY id`);
  const entriesOf = new Map<number, DjHistoryEntry[]>();
  for (const row of db.rows(
    'SELECT listId, trackId, startTime FROM HistorylistEntity ORDER BY startTime, id',
  )) {
    const listId = sqlNumber(row.listId);
    const trackKey = keyOfId.get(sqlNumber(row.trackId) ?? NONE);
    if (listId === undefined || trackKey === undefined) continue;
    const start = instantMs(row.startTime);
    const entries = entriesOf.get(listId) ?? [];
    entries.push(start === undefined ? { trackKey } : { trackKey, playedAt: isoFromMs(start) });
    entriesOf.set(listId, entries);
  }
  const sessions: DjHistorySession[] = [];
  for (const row of lists) {
    if ((sqlNumber(row.isDeleted) ?? 0) !== 0) continue;
    const id = sqlNumber(row.id) ?? NONE;
    const entries = entriesOf.get(id) ?? [];
    if (entries.length === 0) continue;
    const listStart = instantMs(row.startTime);
    const startedAt =
      listStart !== undefined ? isoFromMs(listStart) : entries.find((entry) => entry.playedAt)?.playedAt;
    const date = startedAt === undefined ? undefined : localDateOfIso(startedAt, timeZone);
    sessions.push({
      name: text(sqlText(row.title)) ?? `Engine DJ history ${date ?? id}`,
      ...(startedAt !== undefined ? { startedAt, date } : {}),
      entries,
    });
  }
  // Oldest first (ISO times in UTC sort as text); sessions without a time last, in id order.
  const sortKey = (session: DjHistorySession) => session.startedAt ?? '~';
  return sessions.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
}

function read(input: Buffer | string, options: DjReadOptions = {}): DjLibrary {
  const timeZone = zoneOption(options.timeZone);
  const db = openSqlite(input, FORMAT, 'an Engine DJ database');
  try {
    const schema = schemaOf(db);
    if (schema.major !== undefined && schema.major < 2) {
      throw new DjFormatError(
        FORMAT,
        `Engine DJ database (${schema.label}) is in the Engine Prime / Engine OS 1.x layout, which is not read: ` +
          "give the 'Database2/m.db' (or 'hm.db') of Engine DJ 2.0 or later.",
      );
    }
    if (!db.hasTable('Track')) {
      throw new DjFormatError(
        FORMAT,
        `Not an Engine DJ database (${schema.label}): it has no 'Track' table.`,
      );
    }
    const hasPlaylists = db.hasTable('Playlist');
    const hasHistory = db.hasTable('Historylist');
    if (!hasPlaylists && !hasHistory) {
      throw new DjFormatError(
        FORMAT,
        `Engine DJ database (${schema.label}) has neither a 'Playlist' table (m.db) nor a 'Historylist' table (hm.db).`,
      );
    }
    const { tracks, keyOfId } = readTracks(db, schema.label, options, timeZone);
    return {
      format: FORMAT,
      tracks,
      playlists: hasPlaylists ? readPlaylists(db, schema.label, keyOfId) : [],
      history: hasHistory ? readHistory(db, schema.label, keyOfId, timeZone) : [],
    };
  } finally {
    db.close();
  }
}

export const engineDjReader: DjFormatReader = { format: FORMAT, read };
