import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  time,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => tz('created_at').notNull().defaultNow();

const GENRE_CHECK = sql`('Acoustic', 'Hip-Hop/R&B', 'Pop', 'Contemporary', 'Blues/Jazz')`;
const WINDOW_CHECK = sql`('20-22', '22-00', '00-02', '02-04', '04-06')`;

/**
 * Starts the analysis_version of every generated song with a file (songs.analysis_version): its
 * values were made up and its file is a placeholder tone, so neither the analyser nor the
 * fingerprint index should take it up. The demo generator writes it; analysis and fingerprinting
 * skip it.
 */
export const DEMO_VERSION_PREFIX = 'demo-generator/';

/** One row (id = 1): the editable runtime settings, persisted across restarts. */
export const settings = pgTable(
  'settings',
  {
    id: smallint('id').primaryKey().default(1),
    downloadEnabled: boolean('download_enabled').notNull().default(false),
    downloadPriorityThreshold: real('download_priority_threshold').notNull().default(50),
    minimumPlaysToDownload: integer('minimum_plays_to_download').notNull().default(3),
    partyWeight: real('party_weight').notNull().default(1),
    festivalWeight: real('festival_weight').notNull().default(12),
    overplayNewThreshold: real('overplay_new_threshold').notNull().default(90),
    overplayMidThreshold: real('overplay_mid_threshold').notNull().default(70),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('settings_single_row', sql`${t.id} = 1`),
    check('settings_threshold_range', sql`${t.downloadPriorityThreshold} between 0 and 1000`),
    check('settings_min_plays_range', sql`${t.minimumPlaysToDownload} between 1 and 50`),
    check('settings_party_range', sql`${t.partyWeight} between 1 and 100`),
    check('settings_festival_range', sql`${t.festivalWeight} between 1 and 100`),
    check('settings_festival_ge_party', sql`${t.festivalWeight} >= ${t.partyWeight}`),
    check('settings_overplay_new_range', sql`${t.overplayNewThreshold} between 0 and 100`),
    check('settings_overplay_mid_range', sql`${t.overplayMidThreshold} between 0 and 100`),
  ],
);

export const events = pgTable(
  'events',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    location: text('location'),
    countryCode: text('country_code'),
    isFestival: boolean('is_festival').notNull().default(false),
    /** The event's own weight; null follows festival_weight / party_weight. */
    weightOverride: real('weight_override'),
    timezone: text('timezone').notNull(),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('events_name_not_blank', sql`length(trim(${t.name})) > 0`),
    check('events_dates_ordered', sql`${t.endDate} >= ${t.startDate}`),
    check('events_weight_range', sql`${t.weightOverride} is null or ${t.weightOverride} between 1 and 100`),
    check('events_country_code', sql`${t.countryCode} is null or ${t.countryCode} ~ '^[A-Z]{2}$'`),
    index('events_start_date_idx').on(t.startDate),
  ],
);

/** A night of an event, dated by the evening on which it began. */
export const socials = pgTable(
  'socials',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    socialDate: date('social_date', { mode: 'string' }).notNull(),
    startTime: time('start_time'),
    endTime: time('end_time'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('socials_event_date_uq').on(t.eventId, t.socialDate)],
);

export const songs = pgTable(
  'songs',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    artist: text('artist').notNull(),
    album: text('album'),
    genre: text('genre'),
    releaseDate: date('release_date', { mode: 'string' }),
    /** Lower-cased, accent-folded "title artist" for search. */
    searchKey: text('search_key').notNull(),
    bpm: real('bpm'),
    /** The analyser's other reading of the tempo (its octave), for a DJ to switch to in one click. */
    bpmAlt: real('bpm_alt'),
    musicalKey: text('key'),
    /** 0-1: how far the analyser's key stands above the next best; under KEY_CONFIDENCE_MIN it is uncertain. */
    keyConfidence: real('key_confidence'),
    energyLevel: smallint('energy_level'),
    danceability: smallint('danceability'),
    valence: smallint('valence'),
    spotifyPopularity: smallint('spotify_popularity'),
    durationMs: integer('duration_ms'),
    analyzedAt: tz('analyzed_at'),
    analysisVersion: text('analysis_version'),
    analysisError: text('analysis_error'),
    /** How long the last analysis took; the download preview estimates from the mean. */
    analysisDurationMs: integer('analysis_duration_ms'),
    /** Album artist, track number and other tags as read from the file. */
    tags: jsonb('tags'),
    /** Raw features behind energy, danceability and valence (added by the analyser). */
    features: jsonb('features'),
    filePath: text('file_path'),
    filePresent: boolean('file_present').notNull().default(false),
    /** sha256 of the audio file: a moved or re-imported file is the same song. */
    contentHash: text('content_hash'),
    fileSizeBytes: bigint('file_size_bytes', { mode: 'number' }),
    /** When the file's fingerprints entered the recognition index; null: not (yet) indexed. */
    fingerprintedAt: tz('fingerprinted_at'),
    /** Names the fingerprint algorithm and parameters, so a changed engine re-indexes only what is outdated. */
    fingerprintVersion: text('fingerprint_version'),
    /** Why the file could not be fingerprinted (undecodable, too short...). */
    fingerprintError: text('fingerprint_error'),
    /** Identifiers of a cloud recogniser that named this song (e.g. { acrcloud: "...", isrc: "..." }). */
    externalIds: jsonb('external_ids'),
    /** International Standard Recording Code, from a recogniser or a metadata lookup. */
    isrc: text('isrc'),
    /** Cover art and a short preview from a metadata lookup (iTunes), shown in the song modal. */
    artworkUrl: text('artwork_url'),
    previewUrl: text('preview_url'),
    /**
     * Where each value came from, by the contract's field name: { "bpm": "analyser", "genre":
     * "itunes", ... } (contract SONG_VALUE_SOURCES). Every writer of a value writes its source.
     */
    fieldSources: jsonb('field_sources').$type<Record<string, string>>().notNull().default({}),
    /** Percentile rank of exposure (0-100), kept current by the scores job. */
    overplayScore: real('overplay_score').notNull().default(0),
    exposure: doublePrecision('exposure').notNull().default(0),
    downloadPriority: doublePrecision('download_priority').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('songs_genre', sql`${t.genre} is null or ${t.genre} in ${GENRE_CHECK}`),
    check('songs_energy', sql`${t.energyLevel} is null or ${t.energyLevel} between 0 and 1000`),
    check('songs_danceability', sql`${t.danceability} is null or ${t.danceability} between 0 and 1000`),
    check('songs_valence', sql`${t.valence} is null or ${t.valence} between 0 and 1000`),
    check(
      'songs_popularity',
      sql`${t.spotifyPopularity} is null or ${t.spotifyPopularity} between 0 and 100`,
    ),
    check('songs_bpm', sql`${t.bpm} is null or ${t.bpm} > 0`),
    check('songs_bpm_alt', sql`${t.bpmAlt} is null or ${t.bpmAlt} > 0`),
    check('songs_key_confidence', sql`${t.keyConfidence} is null or ${t.keyConfidence} between 0 and 1`),
    check('songs_overplay', sql`${t.overplayScore} between 0 and 100`),
    check('songs_file_present_has_path', sql`not ${t.filePresent} or ${t.filePath} is not null`),
    uniqueIndex('songs_file_path_uq').on(t.filePath),
    uniqueIndex('songs_content_hash_uq').on(t.contentHash),
    // The library's order (artist, title, id: the Songs screen's and the exports'), a total order.
    // Migration 0026 adds to it, by hand (drizzle has no INCLUDE), the columns the exports write
    // and the Songs filters read, so the CSV of the whole library streams from the index alone in
    // its order from the first row (services/interop/export.ts); it replaced songs_artist_title_idx.
    index('songs_artist_title_id_idx').on(t.artist, t.title, t.id),
    // Search of title and artist (services/songs.ts, `like '%...%'`): pg_trgm's GIN index.
    index('songs_search_key_trgm_idx').using('gin', t.searchKey.op('gin_trgm_ops')),
    // The Songs screen's filters (services/songs.ts songFilterCondition) counted from the index
    // alone: the equalities first, then the release date's range, then the columns a band or the
    // analysis filter reads. It serves a lookup by genre too (it replaced songs_genre_idx).
    index('songs_filter_idx').on(
      t.genre,
      t.filePresent,
      t.releaseDate,
      t.energyLevel,
      t.spotifyPopularity,
      t.analyzedAt,
    ),
    index('songs_release_date_idx').on(t.releaseDate),
    // Overplay warnings (score from a threshold up) and the fresh songs pool's counts per age and
    // genre, read from the index alone (services/analytics/fresh-songs-pool.ts).
    index('songs_overplay_release_genre_idx').on(t.overplayScore, t.releaseDate, t.genre),
    // The analysis status's newest failures (services/library/analysis.ts), without reading
    // every song when few have failed.
    index('songs_analysis_failures_idx')
      .on(t.id)
      .where(sql`${t.analysisError} is not null and ${t.filePresent}`),
    // The fresh songs pool's page in its own order: the first 100 straight from the index.
    index('songs_fresh_pool_order_idx').on(
      t.overplayScore,
      t.spotifyPopularity.desc().nullsLast(),
      t.title,
      t.id,
    ),
  ],
);

/** Bytes (PostgreSQL bytea) as a Node Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The recognition index, one row per indexed song (audio/fingerprint/store.ts encodes the blobs):
 * its pair hashes with their anchor frames, and its peaks (read to verify the songs the hashes
 * propose). Each process that recognises keeps an inverted index of the hashes in memory
 * (audio/fingerprint/memory-index.ts), reloading the songs whose `revision` changed; a write takes
 * a new revision from the sequence. Deleted with the song.
 */
export const songFingerprints = pgTable('song_fingerprints', {
  songId: integer('song_id')
    .primaryKey()
    .references(() => songs.id, { onDelete: 'cascade' }),
  revision: bigserial('revision', { mode: 'number' }).notNull(),
  hashes: bytea('hashes').notNull(),
  peaks: bytea('peaks').notNull(),
});

export const spotifyPopularityHistory = pgTable(
  'spotify_popularity_history',
  {
    id: serial('id').primaryKey(),
    songId: integer('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    fetchedAt: tz('fetched_at').notNull(),
    popularity: smallint('popularity').notNull(),
    /** spotify: read from Spotify's Web API; demo: invented by the demo generator. */
    source: text('source').notNull().default('spotify'),
  },
  (t) => [
    check('popularity_history_range', sql`${t.popularity} between 0 and 100`),
    check('popularity_history_source', sql`${t.source} in ('spotify', 'demo')`),
    index('popularity_history_song_idx').on(t.songId, t.fetchedAt),
  ],
);

/**
 * The last answer of each metadata service about a song (a cache with its age): what it found, or
 * that it found nothing, or the error it gave. A lookup younger than the cache's age is not asked
 * again unless the DJ forces it; an error keeps the last result found.
 */
export const songMetadataLookups = pgTable(
  'song_metadata_lookups',
  {
    songId: integer('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    status: text('status').notNull(),
    /** The match (providers/metadata/metadata-provider.ts MetadataMatch), null when none was found. */
    result: jsonb('result'),
    error: text('error'),
    /** When the service was last asked. */
    fetchedAt: tz('fetched_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.songId, t.provider] }),
    check('metadata_lookup_provider', sql`${t.provider} in ('musicbrainz', 'itunes', 'spotify')`),
    check('metadata_lookup_status', sql`${t.status} in ('found', 'not_found', 'error')`),
  ],
);

/** One recording session: the 30 s chunks uploaded under one session_id. */
export const recordings = pgTable(
  'recordings',
  {
    id: serial('id').primaryKey(),
    sessionId: text('session_id').notNull(),
    filename: text('filename').notNull(),
    source: text('source').notNull(),
    eventId: integer('event_id').references(() => events.id, { onDelete: 'set null' }),
    recordedAt: tz('recorded_at').notNull(),
    uploadedAt: tz('uploaded_at').notNull().defaultNow(),
    lastChunkAt: tz('last_chunk_at').notNull().defaultNow(),
    durationSeconds: doublePrecision('duration_seconds').notNull().default(0),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    chunkCount: integer('chunk_count').notNull().default(0),
    processed: boolean('processed').notNull().default(false),
    processedAt: tz('processed_at'),
    errorMessage: text('error_message'),
    /** Who uploaded the first chunk: a user or a device token (null before accounts existed). */
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdByTokenId: integer('created_by_token_id').references(() => apiTokens.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('recordings_session_uq').on(t.sessionId),
    index('recordings_recorded_at_idx').on(t.recordedAt),
    index('recordings_event_idx').on(t.eventId),
    check(
      'recordings_counts',
      sql`${t.chunkCount} >= 0 and ${t.sizeBytes} >= 0 and ${t.durationSeconds} >= 0`,
    ),
  ],
);

export const recordingChunks = pgTable(
  'recording_chunks',
  {
    id: serial('id').primaryKey(),
    recordingId: integer('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    chunkNumber: integer('chunk_number').notNull(),
    /** Relative to the recordings folder. */
    filePath: text('file_path').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    durationSeconds: doublePrecision('duration_seconds').notNull(),
    recordedAt: tz('recorded_at').notNull(),
    uploadedAt: tz('uploaded_at').notNull().defaultNow(),
    /** When recognition last ran over this chunk; null: not yet. */
    recognizedAt: tz('recognized_at'),
    /** Why recognition of this chunk failed (undecodable audio...). */
    recognitionError: text('recognition_error'),
    /**
     * The stream's song tracking after this chunk (services/recognition/recognition-chunk.ts,
     * `StoredTracking`), for the next chunk when another process recognises it; kept on the
     * recording's last two recognised chunks only.
     */
    tracking: jsonb('tracking'),
  },
  (t) => [
    uniqueIndex('recording_chunks_number_uq').on(t.recordingId, t.chunkNumber),
    check('recording_chunks_number', sql`${t.chunkNumber} >= 0`),
    check('recording_chunks_size', sql`${t.sizeBytes} > 0`),
  ],
);

/** A song heard at an event: the fact every analytic is computed from. */
export const plays = pgTable(
  'plays',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    songId: integer('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    socialId: integer('social_id').references(() => socials.id, { onDelete: 'set null' }),
    recordingId: integer('recording_id').references(() => recordings.id, { onDelete: 'cascade' }),
    startedAt: tz('started_at').notNull(),
    endedAt: tz('ended_at'),
    timeWindow: text('time_window'),
    source: text('source').notNull(),
    confidence: real('confidence'),
    /** Who recognised it: 'library' (our fingerprint index), 'acrcloud', 'audd'; null for other sources. */
    recognizer: text('recognizer'),
    /**
     * A library play's song's own end as heard (its start as heard + its indexed length at the
     * tempo heard): how far a later chunk may fill the play (services/recognition/recognition-timeline.ts).
     */
    songEndsAt: tz('song_ends_at'),
    createdAt: createdAt(),
  },
  (t) => [
    check('plays_time_window', sql`${t.timeWindow} is null or ${t.timeWindow} in ${WINDOW_CHECK}`),
    check('plays_source', sql`${t.source} in ('recording', 'import', 'manual', 'demo')`),
    check('plays_confidence', sql`${t.confidence} is null or ${t.confidence} between 0 and 1`),
    check('plays_end_after_start', sql`${t.endedAt} is null or ${t.endedAt} >= ${t.startedAt}`),
    index('plays_song_started_idx').on(t.songId, t.startedAt),
    // Distinct events and last play of a song read from the index alone (index-only scan): the
    // top songs' plays lie scattered over thousands of heap pages, which cost ~130 of top-songs'
    // 160 ms at a million plays through plays_song_started_idx.
    index('plays_song_event_idx').on(t.songId, t.eventId, t.startedAt),
    index('plays_event_window_idx').on(t.eventId, t.timeWindow),
    index('plays_social_window_idx').on(t.socialId, t.timeWindow),
    index('plays_recording_idx').on(t.recordingId),
    index('plays_started_idx').on(t.startedAt),
  ],
);

/**
 * Plays that came from a DJ program's history (services/interop/history-import.ts), one row per
 * play. `import_key` names the entry in its file (format, session, position, track), so importing
 * the same file again adds nothing; deleting the play deletes the row, and a later import of the
 * file brings the play back.
 */
export const importedPlays = pgTable(
  'imported_plays',
  {
    playId: bigint('play_id', { mode: 'number' })
      .primaryKey()
      .references(() => plays.id, { onDelete: 'cascade' }),
    importKey: text('import_key').notNull(),
    /** The format read (providers/dj-software: 'rekordbox-xml', 'traktor-nml', ...): the program. */
    format: text('format').notNull(),
    sessionName: text('session_name').notNull(),
    /** The file kept no time for this play: its start was estimated from the night's start and the track lengths. */
    timeEstimated: boolean('time_estimated').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('imported_plays_key_uq').on(t.importKey)],
);

/**
 * Plays per song and time window ('' for plays outside the windows), kept equal to
 * `select song_id, coalesce(time_window, ''), count(*) from plays group by 1, 2` by statement-level
 * triggers on plays (migration song_window_plays_triggers). The unfiltered analytics read these
 * ~50,000 rows instead of every play; a key never has a row with 0 plays.
 */
export const songWindowPlays = pgTable(
  'song_window_plays',
  {
    songId: integer('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    timeWindow: text('time_window').notNull(),
    playCount: integer('play_count').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.songId, t.timeWindow] }),
    check('song_window_plays_count', sql`${t.playCount} >= 0`),
  ],
);

/**
 * The play summary the calls over ALL plays read (docs/metrics.md, "Calls over all plays"): plays
 * and play-weighted sums of the four features per time window ('' for plays outside the windows)
 * and genre ('' for none), as of the last fold. Songs changed since (rows in play_summary_dirty)
 * are corrected at read time: their folded share (play_summary_song_windows with the attributes in
 * play_summary_songs) out, their current share (song_window_plays with songs) in, in the reader's
 * one snapshot. Only the fold (services/analytics/play-summary.ts) writes these three tables;
 * writers of plays and songs only append to play_summary_dirty, so they never wait on the summary.
 */
export const playSummary = pgTable(
  'play_summary',
  {
    timeWindow: text('time_window').notNull(),
    genre: text('genre').notNull(),
    plays: bigint('plays', { mode: 'number' }).notNull(),
    bpmSum: numeric('bpm_sum').notNull(),
    bpmN: bigint('bpm_n', { mode: 'number' }).notNull(),
    energySum: bigint('energy_sum', { mode: 'number' }).notNull(),
    energyN: bigint('energy_n', { mode: 'number' }).notNull(),
    valenceSum: bigint('valence_sum', { mode: 'number' }).notNull(),
    valenceN: bigint('valence_n', { mode: 'number' }).notNull(),
    danceabilitySum: bigint('danceability_sum', { mode: 'number' }).notNull(),
    danceabilityN: bigint('danceability_n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.timeWindow, t.genre] })],
);

/**
 * Each song with plays as of the last fold: its play count and the attributes its plays were
 * summed with. The index answers Top Songs over all plays without counting every song's plays.
 */
export const playSummarySongs = pgTable(
  'play_summary_songs',
  {
    songId: integer('song_id').primaryKey(),
    playCount: integer('play_count').notNull(),
    title: text('title').notNull(),
    genre: text('genre').notNull(),
    bpm: real('bpm'),
    energyLevel: smallint('energy_level'),
    danceability: smallint('danceability'),
    valence: smallint('valence'),
    /** Whether the song had a file, and its download priority while it had none (migration 0021). */
    filePresent: boolean('file_present').notNull().default(false),
    downloadPriority: doublePrecision('download_priority').notNull().default(0),
    /** The song's distinct events and its last play's start (migration 0022: Top Songs). */
    eventCount: integer('event_count').notNull().default(0),
    lastPlayedAt: tz('last_played_at'),
  },
  (t) => [
    index('play_summary_songs_top_idx').on(t.playCount.desc(), t.title, t.songId),
    // The download preview's candidates among the songs without a file, read from the index alone.
    index('play_summary_songs_download_idx')
      .on(t.downloadPriority.desc(), t.songId, t.playCount)
      .where(sql`not ${t.filePresent}`),
  ],
);

/** song_window_plays as of the last fold (what play_summary holds of each song, per window). */
export const playSummarySongWindows = pgTable(
  'play_summary_song_windows',
  {
    songId: integer('song_id').notNull(),
    timeWindow: text('time_window').notNull(),
    playCount: integer('play_count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.songId, t.timeWindow] })],
);

/**
 * A song's plays per month of its nights ('YYYY-MM', in each event's time zone, 06:00 boundary) as
 * of the last fold (migration 0023): the overplay trend and song performance of a song not dirty.
 */
export const playSummarySongMonths = pgTable(
  'play_summary_song_months',
  {
    songId: integer('song_id').notNull(),
    month: text('month').notNull(),
    playCount: integer('play_count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.songId, t.month] })],
);

/** How many songs have plays, as of the last fold (one row): Top Songs' `total` without a count. */
export const playSummaryTotals = pgTable(
  'play_summary_totals',
  {
    id: integer('id').primaryKey(),
    songsPlayed: integer('songs_played').notNull(),
    /** How many of them have no file (Downloads: played but no file). */
    playedNoFile: integer('played_no_file').notNull().default(0),
  },
  (t) => [check('play_summary_totals_one_row', sql`${t.id} = 1`)],
);

/**
 * Counts and sums over the songs table by what the status screens ask of it (docs/metrics.md,
 * "Counts over all songs"): songs per file present, analysed, analysis failed, fingerprinted and
 * analysis version, with the sums of file sizes and analysis times behind the download preview's
 * means. Triggers on songs only APPEND signed rows (+1 for a row as it is now, -1 for it as it
 * was), so writers never wait on each other; a reader sums every row of a group; the fold
 * (services/song-counts.ts) collapses the rows it sees into one per group. The sum of the rows
 * is therefore exactly that of the songs in the reader's snapshot, folded or not.
 */
export const songCounts = pgTable('song_counts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  filePresent: boolean('file_present').notNull(),
  analyzed: boolean('analyzed').notNull(),
  analysisFailed: boolean('analysis_failed').notNull(),
  fingerprinted: boolean('fingerprinted').notNull(),
  analysisVersion: text('analysis_version'),
  songs: bigint('songs', { mode: 'number' }).notNull(),
  fileSizeSum: numeric('file_size_sum').notNull(),
  fileSizeN: bigint('file_size_n', { mode: 'number' }).notNull(),
  analysisMsSum: bigint('analysis_ms_sum', { mode: 'number' }).notNull(),
  analysisMsN: bigint('analysis_ms_n', { mode: 'number' }).notNull(),
});

/**
 * Songs whose plays, genre, features or title changed since the last fold: appended by triggers
 * on plays and songs (migration play_summary_triggers), removed by the fold that took them in.
 */
export const playSummaryDirty = pgTable('play_summary_dirty', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  songId: integer('song_id').notNull(),
  /**
   * Whether the song's plays (or an event's time zone) may have changed; false for a change of the
   * song's own columns, whose fold need not count its plays again (migration 0024).
   */
  plays: boolean('plays').notNull().default(true),
});

export const playlists = pgTable(
  'playlists',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    ageCategory: text('age_category'),
    genre: text('genre'),
    timeWindow: text('time_window'),
    energyLevel: text('energy_level'),
    /** "age|genre|window|energy": one playlist per group, kept across regenerations. */
    groupKey: text('group_key').notNull(),
    songCount: integer('song_count').notNull().default(0),
    totalDurationSeconds: doublePrecision('total_duration_seconds').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    fileName: text('file_name'),
    generatedAt: tz('generated_at').notNull().defaultNow(),
    /** Who last regenerated it (null: the schedule, or before accounts existed). */
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdByTokenId: integer('created_by_token_id').references(() => apiTokens.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('playlists_group_uq').on(t.groupKey), index('playlists_active_idx').on(t.isActive)],
);

export const playlistSongs = pgTable(
  'playlist_songs',
  {
    playlistId: integer('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    songId: integer('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.playlistId, t.position] }), index('playlist_songs_song_idx').on(t.songId)],
);

export const downloadQueue = pgTable(
  'download_queue',
  {
    id: serial('id').primaryKey(),
    songId: integer('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('pending'),
    priorityScore: doublePrecision('priority_score').notNull(),
    downloadAttempts: integer('download_attempts').notNull().default(0),
    addedAt: tz('added_at').notNull().defaultNow(),
    startedAt: tz('started_at'),
    completedAt: tz('completed_at'),
    lastError: text('last_error'),
    /** The provider that brought the file ('inbox', 'command'), or the last one that tried. */
    provider: text('provider'),
    /** Whose recording heard the song (null before accounts existed). */
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdByTokenId: integer('created_by_token_id').references(() => apiTokens.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('download_status', sql`${t.status} in ('pending', 'downloading', 'completed', 'failed')`),
    uniqueIndex('download_queue_song_uq').on(t.songId),
    index('download_queue_status_idx').on(t.status, t.priorityScore),
  ],
);

/**
 * The download providers (services/downloads/providers.ts), one row each, in the order Settings
 * gives them: whether the worker may use it, how many files it may fetch a day, how long one try
 * may take and how often a failing try is repeated (with backoff).
 */
export const downloadProviders = pgTable(
  'download_providers',
  {
    name: text('name').primaryKey(),
    position: integer('position').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    dailyCap: integer('daily_cap').notNull(),
    timeoutSeconds: integer('timeout_seconds').notNull(),
    maxAttempts: integer('max_attempts').notNull(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('download_providers_name', sql`${t.name} in ('inbox', 'command')`),
    check('download_providers_cap', sql`${t.dailyCap} between 0 and 100000`),
    check('download_providers_timeout', sql`${t.timeoutSeconds} between 1 and 86400`),
    check('download_providers_attempts', sql`${t.maxAttempts} between 1 and 10`),
  ],
);

/**
 * Each try of a provider at a queue entry, and each file the inbox handled: what the daily caps
 * count, and what the Downloads page reports ("a file that matched nothing became a new song").
 */
export const downloadAttempts = pgTable(
  'download_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    queueId: integer('queue_id').references(() => downloadQueue.id, { onDelete: 'cascade' }),
    songId: integer('song_id').references(() => songs.id, { onDelete: 'set null' }),
    provider: text('provider').notNull(),
    /** The file as named in the inbox or by the command (its base name only). */
    fileName: text('file_name'),
    startedAt: tz('started_at').notNull().defaultNow(),
    finishedAt: tz('finished_at'),
    outcome: text('outcome').notNull(),
    message: text('message'),
  },
  (t) => [
    check(
      'download_attempts_outcome',
      sql`${t.outcome} in ('running', 'completed', 'new_song', 'not_found', 'mismatch', 'error', 'timeout', 'unusable', 'duplicate')`,
    ),
    index('download_attempts_provider_started_idx').on(t.provider, t.startedAt),
    index('download_attempts_queue_idx').on(t.queueId),
  ],
);

export const scrapedEvents = pgTable(
  'scraped_events',
  {
    id: serial('id').primaryKey(),
    /** Stable identity of a calendar row across scrapes (its link, else name and date text). */
    sourceKey: text('source_key').notNull(),
    name: text('name').notNull(),
    url: text('url'),
    dateText: text('date_text').notNull(),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    location: text('location'),
    countryCode: text('country_code'),
    continent: text('continent'),
    isReviewed: boolean('is_reviewed').notNull().default(false),
    reviewedAction: text('reviewed_action'),
    reviewedNotes: text('reviewed_notes'),
    reviewedAt: tz('reviewed_at'),
    linkedEventId: integer('linked_event_id').references(() => events.id, { onDelete: 'set null' }),
    potentialDuplicates: jsonb('potential_duplicates').notNull().default([]),
    duplicatesCheckedAt: tz('duplicates_checked_at'),
    scrapedAt: tz('scraped_at').notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('scraped_events_source_uq').on(t.sourceKey),
    check(
      'scraped_reviewed_action',
      sql`${t.reviewedAction} is null or ${t.reviewedAction} in ('approved', 'rejected', 'merged', 'created')`,
    ),
    check('scraped_reviewed_consistent', sql`${t.isReviewed} = (${t.reviewedAction} is not null)`),
    index('scraped_events_start_idx').on(t.startDate),
  ],
);

export const scrapeRuns = pgTable('scrape_runs', {
  id: serial('id').primaryKey(),
  sourceUrl: text('source_url').notNull(),
  startedAt: tz('started_at').notNull().defaultNow(),
  finishedAt: tz('finished_at'),
  rowsFound: integer('rows_found').notNull().default(0),
  inserted: integer('inserted').notNull().default(0),
  updated: integer('updated').notNull().default(0),
  unparsedDates: integer('unparsed_dates').notNull().default(0),
  error: text('error'),
});

/** The three roles of docs/security.md: what each may do is stated beside every route. */
export const ROLE_CHECK = sql`('admin', 'dj', 'viewer')`;

/** People who sign in. Names are unique without regard to case. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    role: text('role').notNull(),
    /** An argon2id hash in PHC form (from @node-rs/argon2); the password itself is never stored. */
    passwordHash: text('password_hash').notNull(),
    createdAt: createdAt(),
    passwordChangedAt: tz('password_changed_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_name_uq').on(sql`lower(${t.name})`),
    check('users_role', sql`${t.role} in ${ROLE_CHECK}`),
  ],
);

/**
 * Signed-in browsers. The cookie (sealed by @fastify/secure-session) carries the id; deleting the
 * row signs that browser out, whatever the cookie says.
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: tz('expires_at').notNull(),
    lastSeenAt: tz('last_seen_at').notNull().defaultNow(),
    address: text('address'),
    userAgent: text('user_agent'),
  },
  (t) => [index('user_sessions_user_idx').on(t.userId), index('user_sessions_expires_idx').on(t.expiresAt)],
);

/** Device and script tokens: the token is shown once; only its SHA-256 is kept. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: tz('expires_at'),
    revokedAt: tz('revoked_at'),
    lastUsedAt: tz('last_used_at'),
  },
  (t) => [
    uniqueIndex('api_tokens_hash_uq').on(t.tokenHash),
    check('api_tokens_role', sql`${t.role} in ${ROLE_CHECK}`),
  ],
);

/** One-time links that create the first admin (printed on the console of a server without users). */
export const setupLinks = pgTable(
  'setup_links',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: tz('expires_at').notNull(),
    usedAt: tz('used_at'),
  },
  (t) => [uniqueIndex('setup_links_hash_uq').on(t.tokenHash)],
);

/** Secrets the processes of one database share (the key that seals session cookies). */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/** Who changed what, when and from where: every create, update and delete, and every sign-in. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: tz('at').notNull().defaultNow(),
    /** 'user', 'token' or 'anonymous' (a failed sign-in, the first-run setup). */
    actorKind: text('actor_kind').notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorTokenId: integer('actor_token_id').references(() => apiTokens.id, { onDelete: 'set null' }),
    /** The name at the time, kept when the user or token is deleted. */
    actorName: text('actor_name').notNull(),
    /** create, update, delete, run, sign_in, sign_in_failed, sign_out, setup. */
    action: text('action').notNull(),
    /** The area: event, song, recording, user, token, settings, ... */
    kind: text('kind').notNull(),
    targetId: text('target_id'),
    summary: text('summary').notNull(),
    method: text('method'),
    path: text('path'),
    status: integer('status'),
    address: text('address'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_user_idx').on(t.actorUserId, t.at),
    index('audit_log_token_idx').on(t.actorTokenId, t.at),
    index('audit_log_kind_idx').on(t.kind, t.at),
  ],
);
