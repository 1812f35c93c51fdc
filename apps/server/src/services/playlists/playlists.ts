import type {
  AgeCategory,
  CreatedBy,
  EnergyBand,
  Genre,
  Identity,
  Playlist,
  PlaylistDetail,
  RegenerateResult,
  Song,
  TimeWindow,
} from '@wcs/contract';
import { PLAYLIST_SONGS_LIMIT } from '@wcs/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { playlistSongs, playlists, plays, songs } from '../../db/schema.js';
import { type CreatorColumns, creatorColumns, describeCreators } from '../accounts/creators.js';
import { ageCategory, localDate } from '../age.js';
import { AppError, notFound } from '../errors.js';
import { getEditableSettings } from '../settings.js';
import { songWithPlayCount, toSong } from '../songs.js';
import { writeM3u8 } from './m3u8.js';
import {
  applyPlaylistFileChanges,
  type PlaylistFileChanges,
  type PlaylistFolder,
  readPlaylistFile,
} from './playlist-files.js';
import {
  assignPlaylistGroups,
  type OverplayThresholds,
  PLAYLIST_MIN_SONGS,
  type PlaylistGroup,
  type PlaylistSong,
  playlistFileName,
  type WindowAverage,
} from './playlist-groups.js';

/**
 * Generated playlists (docs/metrics.md "Playlists"): one per group of (age category, genre, time
 * window, energy band) with at least 5 eligible songs, kept in the database by group key and
 * written as an M3U8 file into the playlists folder. The grouping rules are in
 * playlist-groups.ts; this module loads the library, stores the result and writes the files.
 */

type PlaylistRow = typeof playlists.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** The playlists folder, or object storage when the configuration names it (playlist-files.ts). */
type Folder = PlaylistFolder;

/** Serialises regenerations (the job and the HTTP calls), so two never interleave their writes. */
const REGENERATE_LOCK = 0x77_63_73_70; // 'wcsp'

function toPlaylist(row: PlaylistRow, maker: (row: CreatorColumns) => CreatedBy): Playlist {
  return {
    playlist_id: row.id,
    playlist_name: row.name,
    age_category: row.ageCategory as AgeCategory | null,
    genre: row.genre,
    time_window: row.timeWindow as TimeWindow | null,
    energy_level: row.energyLevel as EnergyBand | null,
    song_count: row.songCount,
    total_duration_seconds: row.totalDurationSeconds,
    is_active: row.isActive,
    generated_at: row.generatedAt.toISOString(),
    m3u8_url: `/api/playlists/${row.id}/m3u8`,
    created_by: maker(row),
  };
}

/** Generated playlists by name; active ones unless `is_active` is false. */
export async function listPlaylists(
  db: Db,
  query: {
    is_active: boolean;
    created_by_user_id?: number | undefined;
    created_by_token_id?: number | undefined;
  },
): Promise<{ data: Playlist[]; total: number }> {
  const rows = await db
    .select()
    .from(playlists)
    .where(
      and(
        eq(playlists.isActive, query.is_active),
        query.created_by_user_id ? eq(playlists.createdByUserId, query.created_by_user_id) : undefined,
        query.created_by_token_id ? eq(playlists.createdByTokenId, query.created_by_token_id) : undefined,
      ),
    )
    .orderBy(asc(playlists.name), asc(playlists.id));
  const maker = await describeCreators(db, rows);
  return { data: rows.map((row) => toPlaylist(row, maker)), total: rows.length };
}

/**
 * A playlist with its first `limit` songs in playlist order (an inactive one has none);
 * `song_count` counts them all and `listPlaylistSongs` pages them.
 */
export async function getPlaylist(db: Db, id: number, limit = PLAYLIST_SONGS_LIMIT): Promise<PlaylistDetail> {
  const [row] = await db.select().from(playlists).where(eq(playlists.id, id));
  if (!row) throw notFound('Playlist', id);
  return {
    ...toPlaylist(row, await describeCreators(db, [row])),
    songs: await playlistSongPage(db, id, 0, limit),
  };
}

/** A page of a playlist's songs in playlist order, with how many it has. */
export async function listPlaylistSongs(
  db: Db,
  id: number,
  page: { skip: number; limit: number },
): Promise<{ data: Song[]; total: number }> {
  const [row] = await db.select({ id: playlists.id }).from(playlists).where(eq(playlists.id, id));
  if (!row) throw notFound('Playlist', id);
  const [data, total] = await Promise.all([
    playlistSongPage(db, id, page.skip, page.limit),
    db.$count(playlistSongs, eq(playlistSongs.playlistId, id)),
  ]);
  return { data, total };
}

async function playlistSongPage(db: Db, id: number, skip: number, limit: number): Promise<Song[]> {
  const today = localDate();
  const songRows = await db
    .select(songWithPlayCount)
    .from(playlistSongs)
    .innerJoin(songs, eq(songs.id, playlistSongs.songId))
    .where(eq(playlistSongs.playlistId, id))
    .orderBy(asc(playlistSongs.position))
    .offset(skip)
    .limit(limit);
  return songRows.map(({ song, playCount }) => toSong(song, playCount, today));
}

interface LibraryForPlaylists {
  songs: PlaylistSong[];
  averages: WindowAverage[];
  /** File path and duration of each eligible song, for the M3U8 text. */
  files: Map<number, { artist: string; path: string; durationMs: number | null }>;
}

/** Eligible songs (a file and an analysis), their plays per window, and the window averages. */
async function loadLibrary(tx: Tx): Promise<LibraryForPlaylists> {
  const today = localDate();
  const eligible = sql`${songs.filePresent} and ${songs.analyzedAt} is not null`;
  // One after the other: a transaction has one connection, which runs one query at a time.
  const songRows = await tx
    .select({
      id: songs.id,
      title: songs.title,
      artist: songs.artist,
      bpm: songs.bpm,
      energyLevel: songs.energyLevel,
      genre: songs.genre,
      releaseDate: songs.releaseDate,
      overplayScore: songs.overplayScore,
      filePath: songs.filePath,
      durationMs: songs.durationMs,
    })
    .from(songs)
    .where(eligible);
  const windowRows = await tx
    .select({ songId: plays.songId, window: plays.timeWindow, count: sql<number>`count(*)`.mapWith(Number) })
    .from(plays)
    .innerJoin(songs, eq(songs.id, plays.songId))
    .where(sql`${eligible} and ${plays.timeWindow} is not null`)
    .groupBy(plays.songId, plays.timeWindow);
  // Over every play, not only eligible songs: "the average of played songs" of the window.
  const averageRows = await tx
    .select({
      window: plays.timeWindow,
      bpm: sql<number | null>`avg(${songs.bpm})`.mapWith((v) => (v === null ? null : Number(v))),
      energy: sql<number | null>`avg(${songs.energyLevel})`.mapWith((v) => (v === null ? null : Number(v))),
    })
    .from(plays)
    .innerJoin(songs, eq(songs.id, plays.songId))
    .where(sql`${plays.timeWindow} is not null`)
    .groupBy(plays.timeWindow);
  const windowPlays = new Map<number, Partial<Record<TimeWindow, number>>>();
  for (const row of windowRows) {
    const counts = windowPlays.get(row.songId) ?? {};
    counts[row.window as TimeWindow] = row.count;
    windowPlays.set(row.songId, counts);
  }
  const averages: WindowAverage[] = [];
  for (const row of averageRows) {
    if (row.bpm !== null && row.energy !== null) {
      averages.push({ window: row.window as TimeWindow, bpm: row.bpm, energy: row.energy });
    }
  }
  const files = new Map<number, { artist: string; path: string; durationMs: number | null }>();
  const library = songRows.map((row): PlaylistSong => {
    files.set(row.id, { artist: row.artist, path: row.filePath!, durationMs: row.durationMs });
    return {
      id: row.id,
      title: row.title,
      bpm: row.bpm,
      energy: row.energyLevel,
      genre: row.genre as Genre | null,
      ageCategory: ageCategory(row.releaseDate, today),
      overplayScore: row.overplayScore,
      windowPlays: windowPlays.get(row.id) ?? {},
    };
  });
  return { songs: library, averages, files };
}

async function currentGroups(
  tx: Tx,
  thresholds: OverplayThresholds,
): Promise<{ groups: Map<string, PlaylistGroup>; library: LibraryForPlaylists }> {
  const library = await loadLibrary(tx);
  const groups = assignPlaylistGroups(library.songs, library.averages, thresholds);
  return { groups: new Map(groups.map((group) => [group.key, group])), library };
}

/** Song ids of each playlist in order (of one playlist when `id` is given). */
async function storedSongIds(tx: Tx, id?: number): Promise<Map<number, number[]>> {
  const rows = await tx
    .select({ playlistId: playlistSongs.playlistId, songId: playlistSongs.songId })
    .from(playlistSongs)
    .where(id === undefined ? undefined : eq(playlistSongs.playlistId, id))
    .orderBy(asc(playlistSongs.playlistId), asc(playlistSongs.position));
  const byPlaylist = new Map<number, number[]>();
  for (const row of rows) {
    const list = byPlaylist.get(row.playlistId) ?? [];
    list.push(row.songId);
    byPlaylist.set(row.playlistId, list);
  }
  return byPlaylist;
}

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, index) => id === b[index]);

/**
 * Stores a qualifying group as an active playlist (new or existing); its song list is rewritten
 * only when it changed. Adds the playlist's file, and an outdated file name, to `files`.
 */
async function storeGroup(
  tx: Tx,
  group: PlaylistGroup,
  library: LibraryForPlaylists,
  existing: PlaylistRow | undefined,
  existingSongIds: readonly number[],
  files: PlaylistFileChanges,
  by: Identity | undefined,
): Promise<void> {
  const entries = group.songs.map((song) => {
    const file = library.files.get(song.id)!;
    return { artist: file.artist, title: song.title, durationMs: file.durationMs, path: file.path };
  });
  const totalMs = entries.reduce((sum, entry) => sum + (entry.durationMs ?? 0), 0);
  const fileName = playlistFileName(group.name);
  const values = {
    name: group.name,
    ageCategory: group.ageCategory,
    genre: group.genre,
    timeWindow: group.window,
    energyLevel: group.energyBand,
    groupKey: group.key,
    songCount: entries.length,
    totalDurationSeconds: Math.round(totalMs / 1000),
    isActive: true,
    fileName,
    generatedAt: new Date(),
    ...creatorColumns(by),
  };
  const [row] = existing
    ? await tx.update(playlists).set(values).where(eq(playlists.id, existing.id)).returning()
    : await tx.insert(playlists).values(values).returning();
  const songIds = group.songs.map((song) => song.id);
  if (!sameIds(songIds, existingSongIds)) {
    await tx.delete(playlistSongs).where(eq(playlistSongs.playlistId, row!.id));
    await tx
      .insert(playlistSongs)
      .values(songIds.map((songId, position) => ({ playlistId: row!.id, position, songId })));
  }
  files.write.push({ fileName, content: writeM3u8(entries) });
  if (existing?.fileName && existing.fileName !== fileName) files.remove.push(existing.fileName);
}

/** A group that no longer qualifies: the playlist turns inactive and loses its songs and its file. */
async function deactivate(tx: Tx, row: PlaylistRow, files: PlaylistFileChanges): Promise<void> {
  await tx.delete(playlistSongs).where(eq(playlistSongs.playlistId, row.id));
  await tx
    .update(playlists)
    .set({ isActive: false, songCount: 0, totalDurationSeconds: 0, fileName: null, generatedAt: new Date() })
    .where(eq(playlists.id, row.id));
  if (row.fileName) files.remove.push(row.fileName);
}

/**
 * Regenerates every playlist: groups with at least 5 songs become (or stay) active playlists and
 * their files are rewritten; every other playlist becomes inactive and its file is removed.
 * The files change inside the transaction, while the lock keeps any other regeneration out.
 */
export async function regenerateAllPlaylists(
  db: Db,
  folder: Folder,
  by?: Identity,
): Promise<RegenerateResult> {
  const thresholds = await getEditableSettings(db);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${REGENERATE_LOCK})`);
    const { groups, library } = await currentGroups(tx, thresholds);
    const existing = new Map((await tx.select().from(playlists)).map((row) => [row.groupKey, row]));
    const songIds = await storedSongIds(tx);
    const files: PlaylistFileChanges = { write: [], remove: [] };
    let created = 0;
    let updated = 0;
    let deactivated = 0;
    let active = 0;
    for (const group of groups.values()) {
      if (group.songs.length < PLAYLIST_MIN_SONGS) continue;
      const row = existing.get(group.key);
      await storeGroup(tx, group, library, row, row ? (songIds.get(row.id) ?? []) : [], files, by);
      active += 1;
      if (row) updated += 1;
      else created += 1;
    }
    for (const row of existing.values()) {
      const group = groups.get(row.groupKey);
      if (group && group.songs.length >= PLAYLIST_MIN_SONGS) continue;
      if (row.isActive) deactivated += 1;
      // Inactive rows too: a file left behind by an interrupted run goes now.
      if (row.isActive || row.fileName) await deactivate(tx, row, files);
    }
    await applyPlaylistFileChanges(folder, files);
    return {
      message: `${active} active playlists (${created} new, ${updated} updated, ${deactivated} deactivated)`,
      active,
      created,
      updated,
      deactivated,
    };
  });
}

/**
 * Regenerates one playlist from its group as the library stands now. When the group has fewer
 * than 5 songs the playlist becomes inactive (the answer's is_active is false, with no songs).
 */
export async function regeneratePlaylist(
  db: Db,
  folder: Folder,
  id: number,
  by?: Identity,
): Promise<PlaylistDetail> {
  const thresholds = await getEditableSettings(db);
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${REGENERATE_LOCK})`);
    const [row] = await tx.select().from(playlists).where(eq(playlists.id, id));
    if (!row) throw notFound('Playlist', id);
    const { groups, library } = await currentGroups(tx, thresholds);
    const group = groups.get(row.groupKey);
    const files: PlaylistFileChanges = { write: [], remove: [] };
    if (group && group.songs.length >= PLAYLIST_MIN_SONGS) {
      const songIds = await storedSongIds(tx, id);
      await storeGroup(tx, group, library, row, songIds.get(id) ?? [], files, by);
    } else {
      await deactivate(tx, row, files);
    }
    await applyPlaylistFileChanges(folder, files);
  });
  return getPlaylist(db, id);
}

/** The stored M3U8 file of an active playlist, for download. */
export async function getPlaylistFile(
  db: Db,
  folder: Folder,
  id: number,
): Promise<{ fileName: string; content: Buffer }> {
  const [row] = await db.select().from(playlists).where(eq(playlists.id, id));
  if (!row) throw notFound('Playlist', id);
  if (!row.isActive || !row.fileName) {
    throw new AppError(
      404,
      `Playlist ${id} ("${row.name}") is inactive: its group has fewer than ${PLAYLIST_MIN_SONGS} songs now, so it has no file`,
    );
  }
  const content = await readPlaylistFile(folder, row.fileName);
  if (!content) {
    throw new AppError(
      404,
      `The file of playlist ${id} (${row.fileName}) is missing from the playlists folder; regenerate the playlists to write it again`,
    );
  }
  return { fileName: row.fileName, content };
}
