/**
 * Mixxx's library database ('mixxxdb.sqlite' in Mixxx's settings folder), SQLite, schema
 * versions 3 (the minimum compatible version of every later revision) to 41, per Mixxx's
 * 'res/schema.xml' and its library DAOs (docs/interop.md links them):
 *
 *   settings        name 'mixxx.schema.version' -> value
 *   library         id, artist, title, album, genre, location (-> track_locations.id),
 *                   duration (seconds, real), bpm (real), key (text as Mixxx shows it),
 *                   rating (0-5 stars), timesplayed, datetime_added (UTC text), mixxx_deleted
 *   track_locations id, location (absolute path, '/' separators), filename
 *   Playlists       id, name, position, hidden: 0 a playlist, 1 the Auto DJ queue, 2 a history
 *                   "set log" (one per Mixxx session, named by the local date), date_created (UTC)
 *   PlaylistTracks  playlist_id, track_id, position (from 1), pl_datetime_added: when the track
 *                   was added, which for a set log is when it was played (UTC, 'YYYY-MM-DD HH:MM:SS')
 *   crates, crate_tracks   id, name; crate_id, track_id (a crate has no order)
 *
 * Tracks are keyed by their library id. Tracks removed from the library (mixxx_deleted = 1) are
 * left out unless a playlist, crate or set log still holds them. The Auto DJ queue is left out:
 * it is a queue, not a list the DJ made.
 */
import type { SqlValue } from 'sql.js';
import { fileStem } from './paths.js';
import { openSqlite, type SqliteFile, sqlNumber, sqlText } from './sqlite.js';
import { isoFromMs, localDateOfIso, parseDateTime, zoneOption } from './time.js';
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
import { compactTrack, count, positive, stars, text } from './values.js';

const FORMAT = 'mixxx';

/** `Playlists.hidden` values (Mixxx's PlaylistDAO::HiddenType). */
const PLAYLIST = 0;
const SET_LOG = 2;

/** The folder crates are listed under, beside the playlists at the top level. */
export const MIXXX_CRATES_FOLDER = 'Crates';

const TRACK_OPTIONAL = [
  'album',
  'genre',
  'duration',
  'bpm',
  'key',
  'rating',
  'timesplayed',
  'datetime_added',
  'mixxx_deleted',
];

function schemaOf(db: SqliteFile): string {
  if (!db.columns('settings').has('name')) return 'no schema version';
  const row = db.rows("SELECT value FROM settings WHERE name = 'mixxx.schema.version'")[0];
  const version = text(sqlText(row?.value));
  return version === undefined ? 'no schema version' : `schema ${version}`;
}

function requireColumns(db: SqliteFile, table: string, needed: string[], schema: string): void {
  if (!db.hasTable(table)) {
    throw new DjFormatError(FORMAT, `Mixxx library (${schema}) has no '${table}' table.`);
  }
  const columns = db.columns(table);
  const missing = needed.filter((column) => !columns.has(column.toLowerCase()));
  if (missing.length > 0) {
    throw new DjFormatError(
      FORMAT,
      `Mixxx library (${schema}): table '${table}' has no column ${missing.map((c) => `'${c}'`).join(', ')}.`,
    );
  }
}

function has(db: SqliteFile, table: string, column: string): boolean {
  return db.columns(table).has(column.toLowerCase());
}

/** An instant from Mixxx's UTC texts ('2024-05-03 21:02:10', '2024-05-03T21:02:10.123Z'). */
function instantIso(value: SqlValue | undefined): string | undefined {
  const seconds = sqlNumber(value);
  if (seconds !== undefined)
    return seconds > 0 ? isoFromMs(seconds > 1e11 ? seconds : seconds * 1000) : undefined;
  const raw = text(sqlText(value));
  return (raw === undefined ? null : parseDateTime(raw, 'UTC')) ?? undefined;
}

interface TrackRow {
  track: DjTrack;
  deleted: boolean;
}

function readTracks(db: SqliteFile, schema: string, timeZone: string): Map<string, TrackRow> {
  requireColumns(db, 'library', ['id', 'artist', 'title', 'location'], schema);
  requireColumns(db, 'track_locations', ['id', 'location'], schema);
  const optional = TRACK_OPTIONAL.filter((column) => has(db, 'library', column));
  const select = [
    'l.id AS id',
    'l.artist AS artist',
    'l.title AS title',
    ...optional.map((column) => `l."${column}" AS "${column}"`),
    'tl.location AS file_location',
    ...(has(db, 'track_locations', 'filename') ? ['tl.filename AS file_name'] : []),
  ];
  const rows = db.rows(
    `SELECT ${select.join(', ')} FROM library l LEFT JOIN track_locations tl ON tl.id = l.location ORDER BY l.id`,
  );
  const tracks = new Map<string, TrackRow>();
  for (const row of rows) {
    const id = sqlNumber(row.id);
    if (id === undefined) continue;
    const location = text(sqlText(row.file_location));
    const added = instantIso(row.datetime_added);
    const bpm = positive(row.bpm);
    const key = String(id);
    tracks.set(key, {
      deleted: (sqlNumber(row.mixxx_deleted) ?? 0) !== 0,
      track: compactTrack({
        key,
        title: text(sqlText(row.title)) ?? fileStem(sqlText(row.file_name) ?? location ?? ''),
        artist: text(sqlText(row.artist)) ?? '',
        album: text(sqlText(row.album)),
        genre: text(sqlText(row.genre)),
        location,
        durationSeconds: positive(row.duration),
        bpm: bpm === undefined ? undefined : Number(bpm.toFixed(3)),
        musicalKey: text(sqlText(row.key)),
        playCount: count(row.timesplayed),
        dateAdded: added === undefined ? undefined : localDateOfIso(added, timeZone),
        rating: stars(row.rating),
      }),
    });
  }
  return tracks;
}

function read(input: Buffer | string, options: DjReadOptions = {}): DjLibrary {
  const timeZone = zoneOption(options.timeZone);
  const db = openSqlite(input, FORMAT, 'a Mixxx library');
  try {
    const schema = schemaOf(db);
    if (!db.hasTable('library')) {
      throw new DjFormatError(FORMAT, `Not a Mixxx library (${schema}): it has no 'library' table.`);
    }
    const trackRows = readTracks(db, schema, timeZone);
    requireColumns(db, 'Playlists', ['id', 'name', 'hidden'], schema);
    requireColumns(db, 'PlaylistTracks', ['playlist_id', 'track_id', 'position'], schema);

    const keyOf = (value: SqlValue | undefined): string | undefined => {
      const id = sqlNumber(value);
      const key = id === undefined ? undefined : String(id);
      return key !== undefined && trackRows.has(key) ? key : undefined;
    };
    // Tracks held by a list that is read, kept even when removed from the library.
    const used = new Set<string>();
    const use = (keys: string[]) => {
      for (const key of keys) used.add(key);
      return keys;
    };

    const timed = has(db, 'PlaylistTracks', 'pl_datetime_added');
    const entriesOf = new Map<number, DjHistoryEntry[]>();
    for (const row of db.rows(
      `SELECT playlist_id, track_id${timed ? ', pl_datetime_added' : ''} FROM PlaylistTracks ORDER BY playlist_id, position, id`,
    )) {
      const playlistId = sqlNumber(row.playlist_id);
      const trackKey = keyOf(row.track_id);
      if (playlistId === undefined || trackKey === undefined) continue;
      const playedAt = instantIso(row.pl_datetime_added);
      const entries = entriesOf.get(playlistId) ?? [];
      entries.push(playedAt === undefined ? { trackKey } : { trackKey, playedAt });
      entriesOf.set(playlistId, entries);
    }

    const playlists: DjPlaylist[] = [];
    const history: DjHistorySession[] = [];
    const listColumns = [
      'id',
      'name',
      'hidden',
      ...(['position', 'date_created'] as const).filter((c) => has(db, 'Playlists', c)),
    ];
    const order = has(db, 'Playlists', 'position') ? 'position, id' : 'id';
    for (const row of db.rows(`SELECT ${listColumns.join(', ')} FROM Playlists ORDER BY ${order}`)) {
      const id = sqlNumber(row.id);
      if (id === undefined) continue;
      const name = sqlText(row.name) ?? '';
      const entries = entriesOf.get(id) ?? [];
      const hidden = sqlNumber(row.hidden) ?? PLAYLIST;
      if (hidden === PLAYLIST) {
        playlists.push({ name, path: [], trackKeys: use(entries.map((entry) => entry.trackKey)) });
      } else if (hidden === SET_LOG && entries.length > 0) {
        const times = entries
          .flatMap((entry) => (entry.playedAt === undefined ? [] : [entry.playedAt]))
          .sort();
        const startedAt = times[0] ?? instantIso(row.date_created);
        use(entries.map((entry) => entry.trackKey));
        history.push({
          name,
          ...(startedAt !== undefined ? { startedAt, date: localDateOfIso(startedAt, timeZone) } : {}),
          entries,
        });
      }
    }
    const sortKey = (session: DjHistorySession) => session.startedAt ?? '~';
    history.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));

    if (db.hasTable('crates') && db.hasTable('crate_tracks')) {
      requireColumns(db, 'crates', ['id', 'name'], schema);
      requireColumns(db, 'crate_tracks', ['crate_id', 'track_id'], schema);
      const crateTracks = new Map<number, string[]>();
      for (const row of db.rows('SELECT crate_id, track_id FROM crate_tracks ORDER BY rowid')) {
        const crateId = sqlNumber(row.crate_id);
        const trackKey = keyOf(row.track_id);
        if (crateId === undefined || trackKey === undefined) continue;
        const keys = crateTracks.get(crateId) ?? [];
        keys.push(trackKey);
        crateTracks.set(crateId, keys);
      }
      for (const row of db.rows('SELECT id, name FROM crates ORDER BY name COLLATE NOCASE, id')) {
        const id = sqlNumber(row.id);
        if (id === undefined) continue;
        playlists.push({
          name: sqlText(row.name) ?? '',
          path: [MIXXX_CRATES_FOLDER],
          trackKeys: use(crateTracks.get(id) ?? []),
        });
      }
    }

    const tracks = [...trackRows.values()]
      .filter(({ track, deleted }) => !deleted || used.has(track.key))
      .map(({ track }) => track);
    return { format: FORMAT, tracks, playlists, history };
  } finally {
    db.close();
  }
}

export const mixxxReader: DjFormatReader = { format: FORMAT, read };
