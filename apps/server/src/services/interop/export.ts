import type { DjExportFormat, PathMapping } from '@wcs/contract';
import { and, asc, eq, min, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { events, playlistSongs, playlists, plays, songs } from '../../db/schema.js';
import {
  DJ_FILE_EXTENSIONS,
  DJ_WRITERS,
  type DjPlaylist,
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

export async function exportSongs(
  db: Db,
  format: DjExportFormat,
  options: ExportSelection = {},
): Promise<ExportedFile> {
  const mappings = options.mappings ?? [];
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
  let order: number[] | null = null;
  if (options.playlistId !== undefined) {
    const [playlist] = await db.select().from(playlists).where(eq(playlists.id, options.playlistId));
    if (!playlist) throw notFound('Playlist', options.playlistId);
    listName = playlist.name;
    const rows = await db
      .select({ songId: playlistSongs.songId })
      .from(playlistSongs)
      .where(eq(playlistSongs.playlistId, playlist.id))
      .orderBy(asc(playlistSongs.position));
    order = rows.map((row) => row.songId);
    conditions.push(
      sql`${songs.id} in (select song_id from playlist_songs where playlist_id = ${playlist.id})`,
    );
  }
  if (options.eventId !== undefined) {
    const [event] = await db.select({ name: events.name }).from(events).where(eq(events.id, options.eventId));
    if (!event) throw notFound('Event', options.eventId);
    listName = `${event.name} (played)`;
    const firstPlay = min(plays.startedAt);
    const rows = await db
      .select({ songId: plays.songId })
      .from(plays)
      .where(eq(plays.eventId, options.eventId))
      .groupBy(plays.songId)
      .orderBy(asc(firstPlay), asc(plays.songId));
    order = rows.map((row) => row.songId);
    conditions.push(sql`${songs.id} in (select song_id from plays where event_id = ${options.eventId})`);
  }
  if (options.freshPool) {
    listName = 'Fresh songs pool';
    const fresh = freshPoolCondition();
    // The pool's own order, over the whole pool (not the screen's first 100).
    const rows = await db
      .select({ songId: songs.id })
      .from(songs)
      .where(fresh)
      .orderBy(...freshPoolOrder());
    order = rows.map((row) => row.songId);
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
      plays: sql<number>`(select count(*) from plays p where p.song_id = ${songs.id})::int`,
    })
    .from(songs)
    .where(songFilter)
    .orderBy(asc(songs.artist), asc(songs.title), asc(songs.id));

  const tracks: DjTrack[] = rows.map((row) => {
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
  });

  let lists: DjPlaylist[] = [];
  if (order) {
    // A filter may have left out some of the list's songs: the list names only those exported.
    const exported = new Set(rows.map((row) => row.id));
    lists = [{ name: listName, path: [], trackKeys: order.filter((id) => exported.has(id)).map(String) }];
  } else if (filtered) {
    lists = [{ name: listName, path: [], trackKeys: rows.map((row) => String(row.id)) }];
  } else if (format === 'rekordbox-xml' || format === 'traktor-nml') {
    const active = await db
      .select({ id: playlists.id, name: playlists.name })
      .from(playlists)
      .where(eq(playlists.isActive, true))
      .orderBy(asc(playlists.name));
    const entries = await db
      .select({ playlistId: playlistSongs.playlistId, songId: playlistSongs.songId })
      .from(playlistSongs)
      .orderBy(asc(playlistSongs.playlistId), asc(playlistSongs.position));
    lists = active.map((playlist) => ({
      name: playlist.name,
      path: ['WCS playlists'],
      trackKeys: entries
        .filter((entry) => entry.playlistId === playlist.id)
        .map((entry) => String(entry.songId)),
    }));
  }

  const writer = DJ_WRITERS[format]!;
  const isOneList = order !== null || filtered !== undefined;
  const content = writer.write({ tracks, playlists: lists }, isOneList ? { listName } : {});
  const fileName =
    format === 'serato-crate'
      ? seratoCrateFileName([], safeFileName(listName))
      : `${safeFileName(listName)}${DJ_FILE_EXTENSIONS[format]}`;
  return { fileName, contentType: CONTENT_TYPES[format], content };
}
