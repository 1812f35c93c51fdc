import {
  type AgeCategory,
  ENERGY_BANDS,
  type Genre,
  type Play,
  POPULARITY_BANDS,
  type Song,
  type SongFilterQuery,
  type SongUpdate,
  type TimeWindow,
} from '@wcs/contract';
import {
  and,
  asc,
  between,
  count,
  desc,
  eq,
  gt,
  gte,
  isNotNull,
  isNull,
  lt,
  lte,
  type SQL,
  sql,
} from 'drizzle-orm';
import { KEY_CONFIDENCE_MIN } from '../audio/analysis/index.js';
import type { Db } from '../db/client.js';
import { events, plays, socials, songs } from '../db/schema.js';
import type { JobQueue } from '../deps.js';
import { foldText, songSearchKey } from '../text.js';
import { ageCategory, ageCutoffs, localDate } from './age.js';
import { notFound } from './errors.js';
import { BPM_SAME_FRACTION } from './library/analysis.js';
import { replaceSources } from './metadata/sources.js';
import { scheduleScoreRecompute } from './recompute-schedule.js';
import { songTotal } from './song-counts.js';

export type SongRow = typeof songs.$inferSelect;

export type SongFilter = { [K in keyof SongFilterQuery]?: SongFilterQuery[K] | undefined };

export interface SongListQuery extends SongFilter {
  skip: number;
  limit: number;
}

/**
 * Number of plays of the song in the current row of `songs`; select it beside the row for `toSong`.
 * Qualified by hand: in a select list drizzle renders columns without their table, and the
 * correlated subquery would then compare plays.id with itself.
 */
export const songPlayCount =
  sql<number>`(select count(*) from ${plays} where ${plays}.song_id = ${songs}.id)`.mapWith(Number);

/** The columns `toSong` needs: `db.select(songWithPlayCount).from(songs)...`. */
export const songWithPlayCount = { song: songs, playCount: songPlayCount };

/**
 * Maps a songs row to the contract's Song. The age category is derived from the release date
 * and `today` (YYYY-MM-DD, default the server's local date), never stored.
 */
export function toSong(row: SongRow, playCount: number, today: string = localDate()): Song {
  return {
    song_id: row.id,
    title: row.title,
    artist: row.artist,
    album: row.album,
    genre: row.genre as Genre | null,
    release_date: row.releaseDate,
    age_category: ageCategory(row.releaseDate, today),
    bpm: row.bpm === null ? null : Math.round(row.bpm * 10) / 10,
    bpm_alt: row.bpmAlt === null ? null : Math.round(row.bpmAlt * 10) / 10,
    key: row.musicalKey,
    key_confidence: row.keyConfidence === null ? null : Math.round(row.keyConfidence * 1000) / 1000,
    key_uncertain:
      row.fieldSources?.key !== 'dj' &&
      row.musicalKey !== null &&
      row.keyConfidence !== null &&
      row.keyConfidence < KEY_CONFIDENCE_MIN,
    energy_level: row.energyLevel,
    danceability: row.danceability,
    valence: row.valence,
    spotify_popularity: row.spotifyPopularity,
    duration_ms: row.durationMs,
    analyzed_at: row.analyzedAt?.toISOString() ?? null,
    analysis_version: row.analysisVersion,
    file_present: row.filePresent,
    file_path: row.filePath,
    overplay_score: row.overplayScore,
    play_count: playCount,
    isrc: row.isrc,
    artwork_url: row.artworkUrl,
    preview_url: row.previewUrl,
    sources: (row.fieldSources ?? {}) as Song['sources'],
  };
}

/**
 * SQL condition for songs of an age category on `today`: the same cutoff dates as `ageCategory`,
 * so the filtered rows, their total and each row's category agree.
 */
export function ageCategoryCondition(category: AgeCategory, today: string = localDate()): SQL {
  const { newAfter, oldBefore } = ageCutoffs(today);
  if (category === 'new') return gt(songs.releaseDate, newAfter);
  if (category === 'old') return lt(songs.releaseDate, oldBefore);
  return and(lte(songs.releaseDate, newAfter), gte(songs.releaseDate, oldBefore))!;
}

const songOrder = [asc(songs.artist), asc(songs.title), asc(songs.id)];

/**
 * The Songs screen's filters as one condition on `songs` (undefined: every song). The bands are
 * the contract's ENERGY_BANDS and POPULARITY_BANDS; a song without the value is in no band.
 */
/** Text matched literally inside a LIKE pattern (PostgreSQL's default escape character is \). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

export function songFilterCondition(filter: SongFilter, today: string = localDate()): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.genre) conditions.push(eq(songs.genre, filter.genre));
  if (filter.age_category) conditions.push(ageCategoryCondition(filter.age_category, today));
  if (filter.has_file !== undefined) conditions.push(eq(songs.filePresent, filter.has_file));
  if (filter.energy) {
    const band = ENERGY_BANDS[filter.energy];
    // Bands meet at whole numbers (399 | 400); a stored value is a whole number too.
    conditions.push(between(songs.energyLevel, band.min, band.max));
  }
  if (filter.popularity) {
    const band = POPULARITY_BANDS[filter.popularity];
    conditions.push(between(songs.spotifyPopularity, band.min, band.max));
  }
  if (filter.analysis === 'analyzed') conditions.push(isNotNull(songs.analyzedAt));
  if (filter.analysis === 'pending')
    conditions.push(and(isNull(songs.analyzedAt), eq(songs.filePresent, true))!);
  // LIKE with the needle's own \, % and _ escaped (they are plain text, never wildcards), so the
  // trigram index on search_key answers it (strpos read all 200,000 songs: 130-160 ms).
  if (filter.q) conditions.push(sql`${songs.searchKey} like ${`%${likeLiteral(foldText(filter.q))}%`}`);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

export async function listSongs(db: Db, query: SongListQuery): Promise<{ data: Song[]; total: number }> {
  const today = localDate();
  const where = songFilterCondition(query, today);
  const [rows, total] = await Promise.all([
    db
      .select(songWithPlayCount)
      .from(songs)
      .where(where)
      .orderBy(...songOrder)
      .offset(query.skip)
      .limit(query.limit),
    // Unfiltered: the summary song_counts (services/song-counts.ts), not a count of every song.
    where === undefined ? songTotal(db) : db.$count(songs, where),
  ]);
  return { data: rows.map(({ song, playCount }) => toSong(song, playCount, today)), total };
}

/** Songs whose title or artist contains `q`, ignoring case and accents (through `search_key`). */
export async function searchSongs(
  db: Db,
  query: { q: string; limit: number },
): Promise<{ data: Song[]; total: number }> {
  const today = localDate();
  const where = songFilterCondition({ q: query.q }, today);
  const [rows, total] = await Promise.all([
    db
      .select(songWithPlayCount)
      .from(songs)
      .where(where)
      .orderBy(...songOrder)
      .limit(query.limit),
    db.$count(songs, where),
  ]);
  return { data: rows.map(({ song, playCount }) => toSong(song, playCount, today)), total };
}

export async function getSong(db: Db, id: number): Promise<Song> {
  const [row] = await db.select(songWithPlayCount).from(songs).where(eq(songs.id, id));
  if (!row) throw notFound('Song', id);
  return toSong(row.song, row.playCount);
}

/** Changes the given fields; a new title or artist rewrites the search key. */
export async function updateSong(
  db: Db,
  id: number,
  update: SongUpdate,
  jobs?: Pick<JobQueue, 'send'>,
): Promise<Song> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(songs).where(eq(songs.id, id)).for('update');
    if (!current) throw notFound('Song', id);
    const title = update.title ?? current.title;
    const artist = update.artist ?? current.artist;
    // What the DJ sets is the DJ's; what the DJ clears has no source any more.
    const given = Object.entries(update).filter(([, value]) => value !== undefined);
    const set = Object.fromEntries(
      given.filter(([, value]) => value !== null && value !== '').map(([field]) => [field, 'dj' as const]),
    );
    const cleared = given.filter(([, value]) => value === null || value === '').map(([field]) => field);
    // Choosing bpm_alt swaps the analyser's two readings, so a second click returns. A BPM or key
    // the DJ sets gets the source 'dj' (above): a re-analysis keeps it (library/analysis.ts).
    const bpmAlt =
      update.bpm !== undefined &&
      update.bpm !== null &&
      current.bpm !== null &&
      current.bpmAlt !== null &&
      Math.abs(update.bpm - current.bpmAlt) <= BPM_SAME_FRACTION * current.bpmAlt
        ? current.bpm
        : undefined;
    await tx
      .update(songs)
      .set({
        title: update.title,
        artist: update.artist,
        album: update.album === '' ? null : update.album,
        genre: update.genre,
        releaseDate: update.release_date,
        bpm: update.bpm,
        ...(bpmAlt === undefined ? {} : { bpmAlt }),
        musicalKey: update.key === '' ? null : update.key,
        energyLevel: update.energy_level,
        danceability: update.danceability,
        valence: update.valence,
        spotifyPopularity: update.spotify_popularity,
        searchKey: songSearchKey(title, artist),
        fieldSources: replaceSources(set, cleared),
        updatedAt: new Date(),
      })
      .where(eq(songs.id, id));
  });
  // Genre, release date, BPM and energy place a song in its playlist; scores follow the library.
  if (jobs) await scheduleScoreRecompute(jobs, `song ${id} changed`);
  return getSong(db, id);
}

/** Deletes a song; its plays go with it (foreign key cascade). The audio file on disk stays. */
export async function deleteSong(
  db: Db,
  id: number,
  jobs?: Pick<JobQueue, 'send'>,
): Promise<{ message: string }> {
  const deleted = await db.delete(songs).where(eq(songs.id, id)).returning({ id: songs.id });
  if (deleted.length === 0) throw notFound('Song', id);
  // Ranks are relative to the other songs, and playlists may lose it.
  if (jobs) await scheduleScoreRecompute(jobs, `song ${id} deleted`);
  return { message: `Song ${id} was deleted` };
}

/** Every play of a song, newest first, with its event and social. */
/** A song's plays, newest first, a page at a time; total counts them all. */
export async function listSongPlays(
  db: Db,
  songId: number,
  page: { skip: number; limit: number },
): Promise<{ data: Play[]; total: number }> {
  const [song] = await db.select({ id: songs.id }).from(songs).where(eq(songs.id, songId));
  if (!song) throw notFound('Song', songId);
  const rows = await db
    .select({
      play: plays,
      eventName: events.name,
      eventDate: events.startDate,
      isFestival: events.isFestival,
      socialName: socials.name,
    })
    .from(plays)
    .innerJoin(events, eq(events.id, plays.eventId))
    .leftJoin(socials, eq(socials.id, plays.socialId))
    .where(eq(plays.songId, songId))
    .orderBy(desc(plays.startedAt), desc(plays.id))
    .offset(page.skip)
    .limit(page.limit);
  const [counted] = await db.select({ total: count() }).from(plays).where(eq(plays.songId, songId));
  const data = rows.map(({ play, eventName, eventDate, isFestival, socialName }) => ({
    play_id: play.id,
    song_id: play.songId,
    event_id: play.eventId,
    event_name: eventName,
    event_date: eventDate,
    is_festival: isFestival,
    social_id: play.socialId,
    social_name: socialName,
    started_at: play.startedAt.toISOString(),
    ended_at: play.endedAt?.toISOString() ?? null,
    time_window: play.timeWindow as TimeWindow | null,
    source: play.source as Play['source'],
    confidence: play.confidence,
    recording_id: play.recordingId,
  }));
  return { data, total: counted?.total ?? 0 };
}
