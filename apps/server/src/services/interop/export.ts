import { Readable } from 'node:stream';
import type { DjExportFormat, PathMapping } from '@wcs/contract';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Db } from '../../db/client.js';
import { events, playlistSongs, playlists, plays, songs } from '../../db/schema.js';
import {
  DJ_FILE_EXTENSIONS,
  DJ_WRITERS,
  type DjPlaylist,
  type DjStreamWriter,
  type DjTrack,
  seratoCrateFileName,
} from '../../providers/dj-software/index.js';
import { keyNameOfTraktorIndex, traktorKeyIndex } from '../../providers/dj-software/keys.js';
import { freshPoolCondition, freshPoolOrder } from '../analytics/fresh-songs-pool.js';
import { badRequest, notFound } from '../errors.js';
import { type SongFilter, songFilterCondition } from '../songs.js';
import { mapServerPath } from './path-mapping.js';

/**
 * Songs written back for a DJ program (docs/interop.md, "Exporting"): one generated playlist, the
 * songs played at one event, the fresh songs pool, or the whole library, any of them narrowed by the Songs screen's
 * filters, with the analysed BPM and key, each song's play count in the product, and
 * its file's path on this server, rewritten by `mappings` for the DJ's computer. Formats that
 * find tracks by their file (rekordbox, Traktor, crates, M3U) leave out songs without a file;
 * CSV keeps them. The whole library in rekordbox XML and Traktor NML carries the active generated
 * playlists too.
 */

export interface ExportedFile {
  fileName: string;
  contentType: string;
  content: Buffer | string;
}

const CONTENT_TYPES: Record<DjExportFormat, string> = {
  'rekordbox-xml': 'application/xml; charset=utf-8',
  'traktor-nml': 'application/xml; charset=utf-8',
  'serato-crate': 'application/octet-stream',
  'virtualdj-m3u': 'audio/x-mpegurl; charset=utf-8',
  m3u8: 'audio/x-mpegurl; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/** The library's key ('F# minor') as DJ programs show it ('F#m', 'Db'). */
const shortKey = (key: string | null) => {
  if (!key) return undefined;
  const index = traktorKeyIndex(key);
  return index === null ? undefined : (keyNameOfTraktorIndex(index) ?? undefined);
};

/** A name safe as a file name on every system: no separators, reserved or control characters. */
const safeFileName = (name: string) =>
  [...name]
    .map((char) => (char.charCodeAt(0) < 32 || '/\\:*?"<>|'.includes(char) ? '_' : char))
    .join('')
    .trim() || 'wcs';

export interface ExportSelection {
  /** One generated playlist, in its order. */
  playlistId?: number;
  /** The songs played at one event, in the order of their first play there. */
  eventId?: number;
  /** The fresh songs pool (overplay under OVERPLAY.freshBelow), least overplayed first. */
  freshPool?: boolean;
  /** The Songs screen's filters, narrowing whichever list is exported. */
  filter?: SongFilter;
  mappings?: readonly PathMapping[];
}

/** A short description of the filters for the list's name: 'Pop, new, high energy'. */
function filterLabel(filter: SongFilter): string {
  const parts = [
    filter.genre,
    filter.age_category,
    filter.energy && `${filter.energy} energy`,
    filter.popularity,
    filter.analysis,
    filter.has_file === undefined ? undefined : filter.has_file ? 'with file' : 'without file',
    filter.q && `"${filter.q}"`,
  ].filter((part): part is string => Boolean(part));
  return parts.join(', ');
}

interface ExportPlan {
  listName: string;
  /** The songs exported: the list's, narrowed by the filters (`true` for every song). */
  songFilter: SQL;
  /**
   * The list's songs in its order (a playlist, an event, the fresh pool) as a query of
   * `(song_id, position)` rows; null in library order. A query rather than ids read first: the
   * CSV stream joins it in its one statement, a round trip and a list of ids less.
   */
  list: SQL | null;
  /** The Songs screen's filters, when any were given. */
  filtered: SQL | undefined;
}

/** Which songs, in which order, under which name: everything but the rows themselves. */
async function planExport(db: Db, options: ExportSelection): Promise<ExportPlan> {
  const chosen = [
    options.playlistId !== undefined,
    options.eventId !== undefined,
    options.freshPool === true,
  ];
  if (chosen.filter(Boolean).length > 1) {
    throw badRequest(
      'Export one list at a time: a playlist, an event or the fresh songs pool',
      'querystring.event_id',
    );
  }
  let listName = 'WCS library';
  const conditions: SQL[] = [];
  let list: SQL | null = null;
  if (options.playlistId !== undefined) {
    const [playlist] = await db.select().from(playlists).where(eq(playlists.id, options.playlistId));
    if (!playlist) throw notFound('Playlist', options.playlistId);
    listName = playlist.name;
    list = sql`select ${playlistSongs.songId} as song_id, ${playlistSongs.position} as position
      from ${playlistSongs} where ${playlistSongs.playlistId} = ${playlist.id}`;
    conditions.push(
      sql`${songs.id} in (select song_id from playlist_songs where playlist_id = ${playlist.id})`,
    );
  }
  if (options.eventId !== undefined) {
    const [event] = await db.select({ name: events.name }).from(events).where(eq(events.id, options.eventId));
    if (!event) throw notFound('Event', options.eventId);
    listName = `${event.name} (played)`;
    // In the order of each song's first play there.
    list = sql`select ${plays.songId} as song_id,
        row_number() over (order by min(${plays.startedAt}), ${plays.songId}) as position
      from ${plays} where ${plays.eventId} = ${options.eventId} group by ${plays.songId}`;
    conditions.push(sql`${songs.id} in (select song_id from plays where event_id = ${options.eventId})`);
  }
  if (options.freshPool) {
    listName = 'Fresh songs pool';
    const fresh = freshPoolCondition();
    // The pool's own order, over the whole pool (not the screen's first 100).
    list = sql`select ${songs.id} as song_id, row_number() over (order by ${sql.join(freshPoolOrder(), sql`, `)}) as position
      from ${songs} where ${fresh}`;
    conditions.push(fresh);
  }
  const filter = options.filter ?? {};
  const filtered = songFilterCondition(filter);
  if (filtered) {
    conditions.push(filtered);
    const label = filterLabel(filter);
    if (label) listName = `${listName} (${label})`;
  }
  const songFilter = conditions.length > 0 ? and(...conditions)! : sql`true`;
  return { listName, songFilter, list, filtered };
}

/** A song's row as exported; `plays` is its number of plays. */
interface ExportRow {
  id: number;
  title: string;
  artist: string;
  album: string | null;
  genre: string | null;
  bpm: number | null;
  musicalKey: string | null;
  durationMs: number | null;
  filePath: string | null;
  filePresent: boolean;
  createdAt: Date;
  plays: number;
}

function toTrack(row: ExportRow, mappings: readonly PathMapping[]): DjTrack {
  const track: DjTrack = { key: String(row.id), title: row.title, artist: row.artist };
  if (row.album) track.album = row.album;
  if (row.genre) track.genre = row.genre;
  if (row.filePresent && row.filePath) track.location = mapServerPath(row.filePath, mappings);
  if (row.durationMs) track.durationSeconds = row.durationMs / 1000;
  if (row.bpm !== null) track.bpm = row.bpm;
  const key = shortKey(row.musicalKey);
  if (key) track.musicalKey = key;
  track.playCount = row.plays;
  track.dateAdded = row.createdAt.toISOString().slice(0, 10);
  return track;
}

/**
 * A song's number of plays: the sum of its rows in song_window_plays, which the triggers of
 * migration 0003 keep equal to its plays (counting 10,000,000 plays one song at a time took
 * seconds).
 */
const playCount = sql<number>`(select coalesce(sum(w.play_count), 0) from song_window_plays w where w.song_id = ${songs.id})::int`;

/**
 * A song's number of plays in the CSV stream's query, which joins `play_summary_songs` as
 * `summary` and the dirty songs as `dirty`: a song folded and unchanged since has its plays in its
 * row of the play summary (one row per song; none for a song without plays), a dirty song (changed
 * since the last fold) in song_window_plays as they are now, as Top Songs reads them
 * (docs/metrics.md, "Calls over all plays"), all in the stream's one snapshot. Summing
 * song_window_plays (about 4 rows a song) took 13 of the 26 ms of the busiest event's songs at
 * 10,000,000 plays, and hashing every song's rows made the whole library's query 3.7-4.1 s
 * against 1.1-1.4 s now (EXPLAIN ANALYZE; docs/performance.md).
 */
const summedPlayCount = sql`(case when dirty.song_id is null then coalesce(summary.play_count, 0)
  else coalesce((select sum(w.play_count) from song_window_plays w where w.song_id = ${songs.id}), 0) end)::int`;

/**
 * The export built in one piece: its definition, which the file served and written by the CLI
 * (streamSongs) is checked against byte for byte (export-stream.int.test.ts). Not served: at
 * 200,000 songs it holds the event loop for seconds.
 */
export async function exportSongs(
  db: Db,
  format: DjExportFormat,
  options: ExportSelection = {},
): Promise<ExportedFile> {
  const mappings = options.mappings ?? [];
  const { listName, songFilter, list, filtered } = await planExport(db, options);
  const order = list
    ? (
        await db.execute<{ song_id: number }>(sql`select song_id from (${list}) list order by position`)
      ).rows.map((row) => row.song_id)
    : null;
  const rows = await db
    .select({
      id: songs.id,
      title: songs.title,
      artist: songs.artist,
      album: songs.album,
      genre: songs.genre,
      bpm: songs.bpm,
      musicalKey: songs.musicalKey,
      durationMs: songs.durationMs,
      filePath: songs.filePath,
      filePresent: songs.filePresent,
      createdAt: songs.createdAt,
      plays: playCount,
    })
    .from(songs)
    .where(songFilter)
    .orderBy(asc(songs.artist), asc(songs.title), asc(songs.id));

  const tracks: DjTrack[] = rows.map((row) => toTrack(row, mappings));

  let lists: DjPlaylist[] = [];
  if (order) {
    // A filter may have left out some of the list's songs: the list names only those exported.
    const exported = new Set(rows.map((row) => row.id));
    lists = [{ name: listName, path: [], trackKeys: order.filter((id) => exported.has(id)).map(String) }];
  } else if (filtered) {
    lists = [{ name: listName, path: [], trackKeys: rows.map((row) => String(row.id)) }];
  } else if (format === 'rekordbox-xml' || format === 'traktor-nml') {
    const active = (await db.execute<{ id: number; name: string }>(activePlaylistsQuery())).rows;
    const entries = (await db.execute<{ playlistId: number; songId: number }>(activeEntriesQuery())).rows;
    lists = libraryPlaylists(active, entries);
  }

  const writer = DJ_WRITERS[format]!;
  const isOneList = order !== null || filtered !== undefined;
  const content = writer.write({ tracks, playlists: lists }, isOneList ? { listName } : {});
  return { fileName: exportFileName(format, listName), contentType: CONTENT_TYPES[format], content };
}

function exportFileName(format: DjExportFormat, listName: string): string {
  return format === 'serato-crate'
    ? seratoCrateFileName([], safeFileName(listName))
    : `${safeFileName(listName)}${DJ_FILE_EXTENSIONS[format]}`;
}

/** Rows fetched from the cursor at a time: about 160 KB of CSV, a few ms of work each. */
const BATCH_ROWS = 1000;

/** Paths read at a time when an XML file's tracks are counted before its head. */
const COUNT_BATCH_ROWS = 10_000;

/** PostgreSQL's default `cursor_tuple_fraction`: a cursor's plan weighs its first tenth of rows. */
const FIRST_ROWS_FRACTION = 0.1;

export interface StreamedFile {
  fileName: string;
  contentType: string;
  stream: Readable;
}

/** The active generated playlists, as the whole library's XML carries them: name order. */
const activePlaylistsQuery = () =>
  sql`select ${playlists.id} as id, ${playlists.name} as name from ${playlists}
    where ${playlists.isActive} order by ${playlists.name}, ${playlists.id}`;

/** Their songs, playlist by playlist in each one's order (libraryPlaylists groups them). */
const activeEntriesQuery = () =>
  sql`select ${playlistSongs.playlistId} as "playlistId", ${playlistSongs.songId} as "songId"
    from ${playlistSongs} join ${playlists} on ${playlists.id} = ${playlistSongs.playlistId}
    where ${playlists.isActive} order by ${playlistSongs.playlistId}, ${playlistSongs.position}`;

/** The columns of an exported row (ExportRow), its play count given. */
const exportColumns = (plays: SQL) => sql`${songs.id} as id, ${songs.title} as title,
  ${songs.artist} as artist, ${songs.album} as album, ${songs.genre} as genre, ${songs.bpm} as bpm,
  ${songs.musicalKey} as "musicalKey", ${songs.durationMs} as "durationMs",
  ${songs.filePath} as "filePath", ${songs.filePresent} as "filePresent",
  ${songs.createdAt} as "createdAt", ${plays} as plays`;

/**
 * The same file as `exportSongs(db, format, options)`, byte for byte, written while it is read,
 * for every format and selection: the rows come from a cursor in one REPEATABLE READ
 * transaction (one snapshot, as the single query had: a song added or changed meanwhile is in the
 * file as it was when the export began, or not at all, and an XML file's count, collection and
 * playlists agree), BATCH_ROWS at a time; the next batch is fetched while one is written, and the
 * one after only when the reader has taken that (a stream's backpressure), so the event loop is
 * never held for more than one batch and memory stays at two batches whatever the library's
 * size (but for an XML file's playlists: see `end`). The whole library at 200,000 songs is 32.8 MB of CSV; built in one piece it held the
 * event loop for seconds, and the server's overload guard refused other calls meanwhile
 * (docs/performance.md). An XML file's head says how many tracks follow: they are counted first
 * from their paths (which ones have a location the format takes), in the same snapshot. The
 * connection is held until the file is sent or the download is abandoned (the transaction is then
 * rolled back).
 */
export async function streamSongs(
  deps: { db: Db; pool: pg.Pool },
  format: DjExportFormat,
  options: ExportSelection = {},
): Promise<StreamedFile> {
  const mappings = options.mappings ?? [];
  const { listName, songFilter, list, filtered } = await planExport(deps.db, options);
  const isOneList = list !== null || filtered !== undefined;
  const writer = DJ_WRITERS[format]!.stream!(isOneList ? { listName } : {});
  const isCollection = format === 'rekordbox-xml' || format === 'traktor-nml';
  const dialect = new PgDialect();
  // A list (a playlist, an event, the fresh pool) in its order; songs the filters leave out drop
  // out of it, as exportSongs's list does. An XML file's collection is in library order whatever
  // the selection (its list is a playlist after it, written by `end`).
  const inListOrder = list !== null && !isCollection;
  const query = dialect.sqlToQuery(sql`
    select ${exportColumns(summedPlayCount)}
    from ${songs}
    ${inListOrder ? sql`join (${list}) list on list.song_id = ${songs.id}` : sql``}
    left join play_summary_songs summary on summary.song_id = ${songs.id}
    left join (select distinct song_id from play_summary_dirty) dirty on dirty.song_id = ${songs.id}
    where ${songFilter}
    order by ${inListOrder ? sql`list.position` : sql`${songs.artist}, ${songs.title}, ${songs.id}`}`);

  const client = await deps.pool.connect();
  const fetchBatch = async () =>
    (await client.query<ExportRow>(`fetch ${BATCH_ROWS} from export_songs`)).rows;
  let first: ExportRow[];
  let head: Buffer | string;
  try {
    // In the library's order the songs come from songs_artist_title_id_idx alone, already in that
    // order (migration 0026), each joined to its play count as it is read: planned for its first
    // rows (a cursor's default fraction, stated here), the first batch is there at once and the
    // rest is read while the file is sent. Planned for the whole result instead (fraction 1), the
    // statement sorted every song before its first row: 0.8-1.3 s at 200,000 songs
    // (docs/performance.md). A list (a playlist, an event, the fresh pool) is ordered by its
    // position and a text search is answered by the trigram index, both sorted after: planned
    // for the whole result, as before; a first-rows plan of a search walked the library's index
    // reading every song's row for its search key.
    const fraction = list === null && !options.filter?.q ? FIRST_ROWS_FRACTION : 1;
    // Both in one round trip (no parameters: one simple query of two statements).
    await client.query(
      `begin isolation level repeatable read read only; set local cursor_tuple_fraction = ${fraction}`,
    );
    head = writer.head(
      format === 'rekordbox-xml'
        ? await countWithFile(client, songFilter)
        : format === 'traktor-nml'
          ? await countWritten(client, songFilter, writer, mappings)
          : 0,
    );
    await client.query(`declare export_songs no scroll cursor for ${query.sql}`, query.params);
    first = await fetchBatch();
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    client.release();
    throw error;
  }

  /**
   * After the last row: the XML formats' playlists and where their songs' files are (read in the
   * same snapshot), then the commit; the playlists are written from them a playlist at a time.
   */
  const end = async (): Promise<{ tail: Iterable<Buffer | string> }> => {
    let tail: Iterable<Buffer | string> = [];
    if (isCollection && isOneList) {
      // The one list, as exportSongs names it: a list's songs in its order (a song twice in a
      // playlist twice), a filtered library in library order; each song's key and file only.
      const members = dialect.sqlToQuery(sql`select ${songs.id} as id, ${songs.filePath} as "filePath",
          ${songs.filePresent} as "filePresent" from ${songs}
        ${list ? sql`join (${list}) list on list.song_id = ${songs.id}` : sql``}
        where ${songFilter}
        order by ${list ? sql`list.position` : sql`${songs.artist}, ${songs.title}, ${songs.id}`}`);
      const rows = (
        await client.query<Pick<ExportRow, 'id' | 'filePath' | 'filePresent'>>(members.sql, members.params)
      ).rows;
      tail = writer.tail({
        tracks: rows.map((row) => fileTrack(row, mappings)),
        playlists: [{ name: listName, path: [], trackKeys: rows.map((row) => String(row.id)) }],
      });
    } else if (isCollection) {
      const activeQuery = dialect.sqlToQuery(activePlaylistsQuery());
      const active = (await client.query<{ id: number; name: string }>(activeQuery.sql, activeQuery.params))
        .rows;
      const entries = dialect.sqlToQuery(activeEntriesQuery());
      const rows = (await client.query<{ playlistId: number; songId: number }>(entries.sql, entries.params))
        .rows;
      // Only what a playlist's entry needs of its song: its key and its file's mapped path.
      const files = dialect.sqlToQuery(sql`select ${songs.id} as id, ${songs.filePath} as "filePath",
          ${songs.filePresent} as "filePresent" from ${songs}
        where ${songs.id} in (select ps.song_id from playlist_songs ps
          join playlists p on p.id = ps.playlist_id where p.is_active) and ${songFilter}`);
      const tracks = (
        await client.query<Pick<ExportRow, 'id' | 'filePath' | 'filePresent'>>(files.sql, files.params)
      ).rows.map((row) => fileTrack(row, mappings));
      tail = writer.tail({ tracks, playlists: libraryPlaylists(active, rows) });
    }
    await client.query('commit');
    committed = true;
    return { tail };
  };

  let committed = false;
  async function* file(): AsyncGenerator<Buffer | string> {
    if (head.length > 0) yield head;
    let batch = first;
    for (;;) {
      // Nothing more once the reader went away: the connection is being rolled back and given
      // back (below), and a query sent now could run in the next borrower's transaction.
      if (stream.destroyed) return;
      // The next batch, or the end after the last, is asked for before this batch is written:
      // the database works while the file is made. At most one batch waits beyond the reader's.
      const next = batch.length < BATCH_ROWS ? end() : fetchBatch();
      // Awaited below; if the reader goes away first, its failure is not an unhandled rejection.
      next.catch(() => undefined);
      const chunk = joinParts(batch.map((row) => writer.track(toTrack(row, mappings))));
      if (chunk.length > 0) yield chunk;
      const fetched = await next;
      if (!Array.isArray(fetched)) {
        for (const part of fetched.tail) {
          if (stream.destroyed) return;
          if (part.length > 0) yield part;
        }
        return;
      }
      batch = fetched;
    }
  }

  const stream = Readable.from(file(), { objectMode: false });
  // The connection goes back once the stream closes, however: read to the end, failed, or
  // destroyed because the client went away, even before its first read (a generator that never
  // started runs no finally block, so this is not left to the generator). Not committed: rolled
  // back; a query the generator still awaits finishes first (a client runs its queries in order).
  stream.once('close', () => {
    const failed = stream.errored ?? undefined;
    void (async () => {
      if (!committed) await client.query('rollback').catch(() => undefined);
      client.release(failed ?? undefined);
    })();
  });
  return { fileName: exportFileName(format, listName), contentType: CONTENT_TYPES[format], stream };
}

/** What a playlist's entry needs of its song: its key and its file's path, mapped for the DJ. */
function fileTrack(
  row: Pick<ExportRow, 'id' | 'filePath' | 'filePresent'>,
  mappings: readonly PathMapping[],
): DjTrack {
  const track: DjTrack = { key: String(row.id), title: '', artist: '' };
  if (row.filePresent && row.filePath) track.location = mapServerPath(row.filePath, mappings);
  return track;
}

/** A batch's parts as one chunk: text joined, or bytes (a crate's). */
function joinParts(parts: Array<Buffer | string>): Buffer | string {
  if (parts.length > 0 && Buffer.isBuffer(parts[0])) return Buffer.concat(parts as Buffer[]);
  return (parts as string[]).join('');
}

/** The whole library's playlists in XML: the active ones under 'WCS playlists', in name order. */
function libraryPlaylists(
  active: ReadonlyArray<{ id: number; name: string }>,
  entries: ReadonlyArray<{ playlistId: number; songId: number }>,
): DjPlaylist[] {
  // Grouped once: 134,553 entries of 198 playlists at 200,000 songs.
  const keysOf = new Map<number, string[]>();
  for (const entry of entries) {
    let keys = keysOf.get(entry.playlistId);
    if (!keys) {
      keys = [];
      keysOf.set(entry.playlistId, keys);
    }
    keys.push(String(entry.songId));
  }
  return active.map((playlist) => ({
    name: playlist.name,
    path: ['WCS playlists'],
    trackKeys: keysOf.get(playlist.id) ?? [],
  }));
}

/** The selection's songs that have a file (toTrack gives those a location). */
const withFile = (songFilter: SQL) => sql`${songs.filePresent} and ${songs.filePath} <> '' and ${songFilter}`;

/**
 * How many of the selection's songs have a file: as many tracks as rekordbox XML writes (every
 * track with a location, whatever its path), counted in the transaction's snapshot.
 */
async function countWithFile(client: pg.PoolClient, songFilter: SQL): Promise<number> {
  const count = new PgDialect().sqlToQuery(
    sql`select count(*)::int as count from ${songs} where ${withFile(songFilter)}`,
  );
  return (await client.query<{ count: number }>(count.sql, count.params)).rows[0]!.count;
}

/**
 * How many of the selection's songs `writer` writes (those with a file whose path, mapped for the
 * DJ, the format takes: Traktor only absolute ones), read in the transaction's snapshot a path at
 * a time, COUNT_BATCH_ROWS at a time: an XML file's head says it before the first track.
 */
async function countWritten(
  client: pg.PoolClient,
  songFilter: SQL,
  writer: DjStreamWriter,
  mappings: readonly PathMapping[],
): Promise<number> {
  const paths = new PgDialect().sqlToQuery(
    sql`select ${songs.filePath} as path from ${songs} where ${withFile(songFilter)}`,
  );
  await client.query(`declare export_paths no scroll cursor for ${paths.sql}`, paths.params);
  let count = 0;
  for (;;) {
    const { rows } = await client.query<{ path: string }>(`fetch ${COUNT_BATCH_ROWS} from export_paths`);
    for (const row of rows) {
      const track = { key: '', title: '', artist: '', location: mapServerPath(row.path, mappings) };
      if (writer.writes(track)) count += 1;
    }
    if (rows.length < COUNT_BATCH_ROWS) break;
  }
  await client.query('close export_paths');
  return count;
}
