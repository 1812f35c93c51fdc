import type { DjExportFormat, PathMapping } from '@wcs/contract';
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { playlistSongs, playlists, songs } from '../../db/schema.js';
import {
  DJ_FILE_EXTENSIONS,
  DJ_WRITERS,
  type DjPlaylist,
  type DjTrack,
  seratoCrateFileName,
} from '../../providers/dj-software/index.js';
import { keyNameOfTraktorIndex, traktorKeyIndex } from '../../providers/dj-software/keys.js';
import { notFound } from '../errors.js';
import { mapServerPath } from './path-mapping.js';

/**
 * Songs written back for a DJ program (docs/interop.md, "Exporting"): one generated playlist, or
 * the whole library, with the analysed BPM and key, each song's play count in the product, and
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

export async function exportSongs(
  db: Db,
  format: DjExportFormat,
  options: { playlistId?: number; mappings?: readonly PathMapping[] } = {},
): Promise<ExportedFile> {
  const mappings = options.mappings ?? [];
  let listName = 'WCS library';
  let songFilter = sql`true`;
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
    songFilter = sql`${songs.id} in (select song_id from playlist_songs where playlist_id = ${playlist.id})`;
  }

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
    lists = [{ name: listName, path: [], trackKeys: order.map(String) }];
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
  const content = writer.write({ tracks, playlists: lists }, order ? { listName } : {});
  const fileName =
    format === 'serato-crate'
      ? seratoCrateFileName([], safeFileName(listName))
      : `${safeFileName(listName)}${DJ_FILE_EXTENSIONS[format]}`;
  return { fileName, contentType: CONTENT_TYPES[format], content };
}
