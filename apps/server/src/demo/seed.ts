import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { monoWav } from '../audio/wav.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import {
  downloadQueue,
  events,
  recordings,
  scrapedEvents,
  scrapeRuns,
  songs,
  spotifyPopularityHistory,
} from '../db/schema.js';
import { enqueueDownloadCandidates } from '../services/downloads.js';
import { sourcesOf } from '../services/metadata/sources.js';
import { regenerateAllPlaylists } from '../services/playlists/playlists.js';
import { type NewPlay, recordPlays } from '../services/plays.js';
import { recomputeScores } from '../services/scores.js';
import { getEditableSettings } from '../services/settings.js';
import { songSearchKey } from '../text.js';
import {
  DEMO_ANALYSIS_VERSION,
  DEMO_CALENDAR_URL,
  DEMO_SCRAPE_AGE_MS,
  type DemoPlan,
  type PlannedSong,
} from './generate.js';
import { Random } from './random.js';

/**
 * Writes a demo plan into an empty database through the product's own services: plays go through
 * `recordPlays` (which makes the nightly socials), scores through `recomputeScores`, playlists
 * through `regenerateAllPlaylists`. Songs with a file get a real, tiny WAV placeholder in the
 * library folder, so every path the database names exists on disk.
 */

export interface SeedFolders extends Pick<Config, 'playlistsDir'> {
  /** Where the placeholder song files go (the demo's library root). */
  libraryDir: string;
}

export interface SeedResult {
  songs: number;
  songFiles: number;
  events: number;
  socials: number;
  plays: number;
  recordings: number;
  popularityReadings: number;
  scrapedEvents: number;
  playlists: number;
  /** Milliseconds per step, in order. */
  timings: Record<string, number>;
}

/** A demo never lands on top of someone's data: the database must have no songs and no events. */
export class DatabaseNotEmptyError extends Error {
  override name = 'DatabaseNotEmptyError';
}

/** Placeholder audio: half a second of a quiet tone at 8 kHz, 16-bit mono (8 KB). */
const PLACEHOLDER_SECONDS = 0.5;
const PLACEHOLDER_RATE = 8000;

/**
 * A real PCM WAV file unique to one song: a tone whose pitch depends on the song's index, with a
 * little seeded noise so no two files share a hash (the library identifies songs by hash).
 */
export function placeholderWav(index: number): Buffer {
  const frequency = 220 + (index % 660);
  const noise = new Random(index + 1);
  return monoWav(
    PLACEHOLDER_RATE,
    Math.round(PLACEHOLDER_SECONDS * PLACEHOLDER_RATE),
    (i) => Math.sin((2 * Math.PI * frequency * i) / PLACEHOLDER_RATE) * 3000 + noise.normal(0, 40),
  );
}

/** A file or folder name from a title or artist: no separators, nothing hidden, not too long. */
export function safeFileName(text: string): string {
  const cleaned = [...text]
    // Control characters (below U+0020) and the characters file systems reserve become '_'.
    .map((char) => (char.charCodeAt(0) < 0x20 || '/\\:*?"<>|'.includes(char) ? '_' : char))
    .join('')
    .replace(/^\.+/, '_')
    .trim()
    .slice(0, 80);
  return cleaned === '' ? '_' : cleaned;
}

/** `<library>/<artist>/<nnnn> <title>.wav`: the number keeps two titles that clean alike apart. */
export function placeholderPath(libraryDir: string, song: PlannedSong, index: number): string {
  return path.join(
    libraryDir,
    safeFileName(song.artist),
    `${String(index + 1).padStart(5, '0')} ${safeFileName(song.title)}.wav`,
  );
}

export interface SongFile {
  path: string;
  sha256: string;
  sizeBytes: number;
}

/** Writes the placeholder files of the songs that have one; returns them by song index. */
export async function writePlaceholderFiles(
  plan: DemoPlan,
  libraryDir: string,
): Promise<Map<number, SongFile>> {
  const files = new Map<number, SongFile>();
  const made = new Set<string>();
  for (const [index, song] of plan.songs.entries()) {
    if (!song.hasFile) continue;
    const file = placeholderPath(libraryDir, song, index);
    const dir = path.dirname(file);
    if (!made.has(dir)) {
      await fs.mkdir(dir, { recursive: true });
      made.add(dir);
    }
    const audio = placeholderWav(index);
    await fs.writeFile(file, audio);
    files.set(index, {
      path: file,
      sha256: createHash('sha256').update(audio).digest('hex'),
      sizeBytes: audio.length,
    });
  }
  return files;
}

/** The songs rows of a plan, as an import of the placeholder files plus an analysis would leave them. */
export function songRows(
  plan: DemoPlan,
  files: ReadonlyMap<number, SongFile>,
): Array<typeof songs.$inferInsert> {
  return plan.songs.map((song, index) => {
    const file = files.get(index);
    return {
      title: song.title,
      artist: song.artist,
      album: song.album,
      genre: song.genre,
      releaseDate: song.releaseDate,
      searchKey: songSearchKey(song.title, song.artist),
      bpm: song.bpm,
      // The other octave, as the analyser offers it (double under 100 BPM, else half).
      bpmAlt: Math.round((song.bpm < 100 ? song.bpm * 2 : song.bpm / 2) * 10) / 10,
      musicalKey: song.key,
      energyLevel: song.energy,
      danceability: song.danceability,
      valence: song.valence,
      spotifyPopularity: song.spotifyPopularity,
      durationMs: song.durationMs,
      analyzedAt: file && song.analyzedAtMs !== null ? new Date(song.analyzedAtMs) : null,
      analysisVersion: file ? DEMO_ANALYSIS_VERSION : null,
      analysisDurationMs: file ? song.analysisDurationMs : null,
      tags: file
        ? {
            album_artist: song.album ? song.artist : null,
            track: song.track,
            year: Number(song.releaseDate.slice(0, 4)),
            genre: song.genreTag,
          }
        : null,
      filePath: file?.path ?? null,
      filePresent: file !== undefined,
      // Every value of a demo song is invented, popularity included: none of it is Spotify's.
      fieldSources: sourcesOf(
        {
          title: song.title,
          artist: song.artist,
          album: song.album,
          genre: song.genre,
          release_date: song.releaseDate,
          bpm: song.bpm,
          key: song.key,
          energy_level: song.energy,
          danceability: song.danceability,
          valence: song.valence,
          spotify_popularity: song.spotifyPopularity,
          duration_ms: song.durationMs,
        },
        'demo',
      ),
      contentHash: file?.sha256 ?? null,
      fileSizeBytes: file?.sizeBytes ?? null,
    };
  });
}

/** The events rows of a plan. */
/** The plan's scraped calendar rows, some already reviewed. */
export function scrapedEventRows(plan: DemoPlan): Array<typeof scrapedEvents.$inferInsert> {
  return plan.scrapedEvents.map((row) => ({
    sourceKey: row.sourceKey,
    name: row.name,
    url: row.url,
    dateText: row.dateText,
    startDate: row.startDate,
    endDate: row.endDate,
    location: row.location,
    countryCode: row.countryCode,
    continent: row.continent,
    isReviewed: row.review !== null,
    reviewedAction: row.review?.action ?? null,
    reviewedNotes: row.review?.notes ?? null,
    reviewedAt: row.review ? new Date(row.review.atMs) : null,
    scrapedAt: new Date(row.scrapedAtMs),
  }));
}

export function eventRows(plan: DemoPlan): Array<typeof events.$inferInsert> {
  return plan.events.map((event) => ({
    name: event.name,
    startDate: event.startDate,
    endDate: event.endDate,
    location: event.location,
    countryCode: event.countryCode,
    isFestival: event.isFestival,
    weightOverride: event.weightOverride,
    timezone: event.timezone,
  }));
}

/** Recordings have no audio in the demo: no chunk rows, no bytes; their span is the night's. */
export function recordingRows(
  plan: DemoPlan,
  eventIds: readonly number[],
): Array<typeof recordings.$inferInsert> {
  return plan.recordings.map((recording) => {
    const night = plan.nights[recording.night]!;
    const first = night.firstPlay;
    const last = night.firstPlay + night.playCount - 1;
    const recordedAt = new Date(plan.plays.startedAtMs[first]! - 120_000);
    const endedAt = plan.plays.endedAtMs[last]!;
    return {
      sessionId: recording.sessionId,
      filename: recording.filename,
      source: recording.source,
      eventId: eventIds[night.event]!,
      recordedAt,
      uploadedAt: new Date(endedAt),
      lastChunkAt: new Date(endedAt),
      durationSeconds: Math.round((endedAt - recordedAt.getTime()) / 1000),
      sizeBytes: 0,
      chunkCount: 0,
      processed: true,
      processedAt: new Date(endedAt + 300_000),
    };
  });
}

async function insertInBatches<T>(
  rows: T[],
  size: number,
  insert: (batch: T[]) => Promise<number[]>,
): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += size)
    ids.push(...(await insert(rows.slice(start, start + size))));
  return ids;
}

/**
 * Seeds an empty database with a plan (see the module comment). Throws DatabaseNotEmptyError when
 * the database already has songs or events. `log` gets one line per step.
 */
export async function seedDemoData(
  db: Db,
  plan: DemoPlan,
  folders: SeedFolders,
  log: (message: string) => void = () => {},
): Promise<SeedResult> {
  const [existingSongs, existingEvents] = await Promise.all([db.$count(songs), db.$count(events)]);
  if (existingSongs > 0 || existingEvents > 0) {
    throw new DatabaseNotEmptyError(
      `The database already holds ${existingSongs} songs and ${existingEvents} events; demo data goes only into an empty one.`,
    );
  }
  const timings: Record<string, number> = {};
  let stepStartedAt = performance.now();
  const step = (name: string, message: string) => {
    timings[name] = Math.round(performance.now() - stepStartedAt);
    log(`${message} (${(timings[name] / 1000).toFixed(1)} s)`);
    stepStartedAt = performance.now();
  };

  const files = await writePlaceholderFiles(plan, folders.libraryDir);
  step('songFiles', `Wrote ${files.size} placeholder song files to ${folders.libraryDir}`);

  // RETURNING gives the ids in the order of the VALUES list, so ids[i] belongs to plan row i.
  const songIds = await insertInBatches(songRows(plan, files), 1000, async (batch) =>
    (await db.insert(songs).values(batch).returning({ id: songs.id })).map((row) => row.id),
  );
  const eventIds = (await db.insert(events).values(eventRows(plan)).returning({ id: events.id })).map(
    (row) => row.id,
  );
  const recordingIds =
    plan.recordings.length === 0
      ? []
      : (
          await db.insert(recordings).values(recordingRows(plan, eventIds)).returning({ id: recordings.id })
        ).map((row) => row.id);
  step(
    'songsAndEvents',
    `Stored ${songIds.length} songs, ${eventIds.length} events, ${recordingIds.length} recordings`,
  );

  const newPlays: NewPlay[] = [];
  for (let p = 0; p < plan.plays.count; p += 1) {
    const night = plan.nights[plan.plays.night[p]!]!;
    const recording = plan.plays.recording[p]!;
    newPlays.push({
      songId: songIds[plan.plays.song[p]!]!,
      eventId: eventIds[night.event]!,
      startedAt: new Date(plan.plays.startedAtMs[p]!),
      endedAt: new Date(plan.plays.endedAtMs[p]!),
      source: recording >= 0 ? 'recording' : 'demo',
      confidence: recording >= 0 ? plan.plays.confidence[p]! : null,
      recordingId: recording >= 0 ? recordingIds[recording]! : null,
    });
  }
  const playIds = await recordPlays(db, newPlays);
  const socialCount = Number(
    ((await db.execute(sql`select count(*)::int as total from socials`)).rows[0] as { total: number }).total,
  );
  step('plays', `Recorded ${playIds.length} plays in ${socialCount} socials`);

  const readings = plan.popularityHistory.map((reading) => ({
    songId: songIds[reading.song]!,
    fetchedAt: new Date(reading.fetchedAtMs),
    popularity: reading.popularity,
    source: 'demo',
  }));
  await insertInBatches(readings, 5000, async (batch) => {
    await db.insert(spotifyPopularityHistory).values(batch);
    return [];
  });
  if (plan.scrapedEvents.length > 0) {
    await db.insert(scrapedEvents).values(scrapedEventRows(plan));
  }
  // The one calendar fetch those rows came from, so the review screen can say when it was.
  const scrapedAt = plan.nowMs - DEMO_SCRAPE_AGE_MS;
  await db.insert(scrapeRuns).values({
    sourceUrl: DEMO_CALENDAR_URL,
    startedAt: new Date(scrapedAt - 4000),
    finishedAt: new Date(scrapedAt),
    rowsFound: plan.scrapedEvents.length,
    inserted: plan.scrapedEvents.length,
    updated: 0,
    unparsedDates: plan.scrapedEvents.filter((row) => row.startDate === null).length,
  });
  step(
    'history',
    `Stored ${readings.length} popularity readings and ${plan.scrapedEvents.length} scraped events`,
  );

  const scores = await recomputeScores(db, new Date(plan.nowMs));
  step('scores', `Recomputed the scores of ${scores.songsUpdated} songs`);
  const playlists = await regenerateAllPlaylists(db, { playlistsDir: folders.playlistsDir });
  step('playlists', `Generated playlists: ${playlists.message}`);

  // The download queue as the enqueue job would fill it with the default settings. No download
  // provider exists, so nothing is ever completed; every seventh entry shows how a failed attempt
  // looks, with the reason stated as what it is.
  const queue = await enqueueDownloadCandidates(db, await getEditableSettings(db));
  const failedEntries = await db.execute<{ id: number }>(sql`
    update ${downloadQueue} set status = 'failed', download_attempts = 1 + (id % 3),
      started_at = ${new Date(plan.nowMs - 86_400_000).toISOString()}::timestamptz,
      last_error = 'Demo data: no download provider is configured on this server'
    where id % 7 = 0 returning id`);
  step('downloads', `Queued ${queue.queued} downloads (${failedEntries.rows.length} shown as failed)`);

  return {
    songs: songIds.length,
    songFiles: files.size,
    events: eventIds.length,
    socials: socialCount,
    plays: playIds.length,
    recordings: recordingIds.length,
    popularityReadings: readings.length,
    scrapedEvents: plan.scrapedEvents.length,
    playlists: playlists.active,
    timings,
  };
}
