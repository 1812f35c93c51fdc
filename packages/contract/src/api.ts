import { z } from 'zod';
import {
  ApiToken,
  AuditEntry,
  LoginRequest,
  PasswordChange,
  SessionInfo,
  SetupRequest,
  TokenCreate,
  TokenCreated,
  User,
  UserCreate,
  UserUpdate,
} from './accounts.js';
import { Id, IdParams, listOf, MAX_DB_ID, MessageResponse, Pagination, QueryBool } from './common.js';
import { type Access, COMPARISON, OVERPLAY } from './constants.js';
import {
  AgeCategorySchema,
  BatchDetectResult,
  ComparisonResponse,
  DownloadAttempt,
  DownloadPreview,
  DownloadProviders,
  DownloadProviderUpdate,
  DownloadQueueEntry,
  DownloadStats,
  DownloadStatusSchema,
  type EditableSettings,
  Event,
  EventAnalytics,
  EventCreate,
  EventSuccess,
  EventUpdate,
  FreshSongsPool,
  GenreCount,
  GenreSchema,
  OverplayTrend,
  OverplayWarning,
  OverviewStats,
  Play,
  Playlist,
  PlaylistDetail,
  PotentialDuplicate,
  ProgressionRow,
  RecognizedSong,
  Recording,
  RecordingStatsSummary,
  RegenerateResult,
  ScrapedEvent,
  ScrapedEventCreate,
  ScrapedEventReview,
  ScrapeRequest,
  ScrapeResult,
  ScraperFilterOptions,
  ScraperStats,
  Settings,
  SettingsUpdate,
  Social,
  Song,
  SongFilterQuery,
  SongPerformance,
  SongUpdate,
  SpotifyPopularity,
  SystemStatus,
  TimeWindowCharacteristicsRow,
  TimeWindowCount,
  TopSong,
} from './entities.js';
import { InteropExportParams, InteropExportQuery, InteropPathRequest, InteropResult } from './interop.js';
import { MetadataLookupRequest, MetadataLookupResult, MetadataProviders, SongMetadata } from './metadata.js';

/**
 * Every HTTP call of the product, relative to the base path /api. The server registers its
 * routes from these; the web client infers its request and response types from them.
 * Path parameters are written `:name`.
 */
export interface Endpoint {
  /** Who may call it (docs/security.md): 401 without a session or token, 403 below this role. */
  access: Access;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** Success status when not 200. */
  status?: number;
  summary: string;
  /**
   * Starts heavy work (a regeneration, a re-analysis, a scrape): rate limited per client, and
   * answers 429 with Retry-After beyond the limit.
   */
  isExpensive?: true;
  /** Refusals beyond the ones every operation of its kind declares (apps/server/src/routes/define.ts). */
  extraErrors?: readonly number[];
}

const EventIdFilter = z.object({
  event_id: Id.optional(),
  social_id: Id.optional(),
});

/** `ids` repeated (?ids=1&ids=2) or comma-separated (?ids=1,2). */
const IdList = z
  .union([z.string(), z.array(z.string())])
  .transform((raw, ctx) => {
    const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((part) => part.split(','));
    const ids = parts.map((part) => part.trim()).filter((part) => part !== '');
    const numbers = ids.map(Number);
    if (numbers.some((n) => !Number.isInteger(n) || n <= 0 || n > MAX_DB_ID)) {
      ctx.addIssue({
        code: 'custom',
        message: `must be positive whole numbers (ids from 1 to ${MAX_DB_ID})`,
      });
      return z.NEVER;
    }
    return [...new Set(numbers)];
  })
  .pipe(
    z
      .array(z.number())
      .min(COMPARISON.min, `select at least ${COMPARISON.min}`)
      .max(COMPARISON.max, `select at most ${COMPARISON.max}`),
  );

export const SongListQuery = Pagination.extend({
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  ...SongFilterQuery.shape,
});

export const RecordingListQuery = Pagination.extend({
  unprocessed_only: QueryBool.optional(),
  /** Only recordings of this source, e.g. web_browser. */
  source: z.string().max(40).optional(),
  /** Only recordings recorded at or after this instant (ISO). */
  since: z.iso.datetime({ offset: true }).optional(),
  /** Only recordings uploaded by this account. */
  created_by_user_id: Id.optional(),
  /** Only recordings uploaded by this device token. */
  created_by_token_id: Id.optional(),
});

export const UploadResult = z.object({
  recording_id: z.number().int(),
  session_id: z.string(),
  chunk_number: z.number().int(),
  chunk_size_bytes: z.number().int(),
  /** False when this exact chunk had already been stored (a retried upload). */
  created: z.boolean(),
  recording: Recording,
});

export type UploadResult = z.infer<typeof UploadResult>;

export const ProcessQueued = z.object({ message: z.string(), recording_id: z.number().int() });

export const LibraryImportRequest = z.object({
  /** Absolute path of a folder inside one of the server's library roots (WCS_LIBRARY_ROOTS). */
  folder: z.string().trim().min(1, 'name the folder to import').max(4096),
});

export const LibraryImportResult = z.object({
  /** Audio files found under the folder. */
  scanned: z.number().int(),
  /** Files that became new songs. */
  imported: z.number().int(),
  /** Songs that changed: a moved file, new content at a known path, a file back on disk. */
  updated: z.number().int(),
  /** Files already in the library exactly as they are. */
  unchanged: z.number().int(),
  /** Songs whose file under the folder is gone (now file_present false). */
  missing_marked: z.number().int(),
  /** Files that were skipped, each with the reason. */
  failed: z.array(z.object({ file: z.string(), reason: z.string() })),
});
export type LibraryImportResult = z.infer<typeof LibraryImportResult>;

/** The library's analysis state and the analysis job queue (GET /analysis/status). */
export const AnalysisStatus = z.object({
  total_songs: z.number().int(),
  /** Songs with analyzed_at set (values from some analyser version). */
  analyzed: z.number().int(),
  /** Songs with an analysis job waiting or running. */
  pending: z.number().int(),
  /** Of those, songs being analysed right now. */
  running: z.number().int(),
  /** Songs with a file whose last analysis failed (analysis_error set). */
  failed: z.number().int(),
  /** Songs with a file not analysed by the current analyser (never analysed, or another version). */
  outdated: z.number().int(),
  /** Songs without a file (nothing to analyse). */
  no_file: z.number().int(),
  /** The current analyser's version; songs with another one are outdated. */
  analysis_version: z.string(),
  /** The last failures (up to 20), newest song first, with their reason. */
  failures: z.array(
    z.object({ song_id: z.number().int(), title: z.string(), artist: z.string(), error: z.string() }),
  ),
});
export type AnalysisStatus = z.infer<typeof AnalysisStatus>;

export const AuditQuery = Pagination.extend({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  user_id: Id.optional(),
  token_id: Id.optional(),
  kind: z.string().max(40).optional(),
});

export const api = {
  // Accounts (docs/security.md)
  session: {
    access: 'anonymous',
    method: 'GET',
    path: '/auth/session',
    response: SessionInfo,
    summary: 'Who is signed in, and whether the first admin still has to be made',
  },
  login: {
    access: 'anonymous',
    method: 'POST',
    path: '/auth/login',
    body: LoginRequest,
    response: SessionInfo,
    summary: 'Sign in with a name and password (sets the session cookie)',
    extraErrors: [401, 429],
  },
  logout: {
    access: 'anonymous',
    method: 'POST',
    path: '/auth/logout',
    response: SessionInfo,
    summary: 'Sign out this browser',
  },
  setup: {
    access: 'anonymous',
    method: 'POST',
    path: '/auth/setup',
    body: SetupRequest,
    response: SessionInfo,
    status: 201,
    summary: 'Create the first admin with the one-time link printed on the server console',
    extraErrors: [401, 429],
  },
  changePassword: {
    access: 'viewer',
    method: 'POST',
    path: '/auth/password',
    body: PasswordChange,
    response: MessageResponse,
    summary: 'Change your own password (signs out your other browsers)',
  },
  listUsers: {
    access: 'admin',
    method: 'GET',
    path: '/users',
    response: z.array(User),
    summary: 'Every account',
  },
  createUser: {
    access: 'admin',
    method: 'POST',
    path: '/users',
    body: UserCreate,
    response: User,
    status: 201,
    summary: 'Create an account',
  },
  updateUser: {
    access: 'admin',
    method: 'PATCH',
    path: '/users/:id',
    params: IdParams,
    body: UserUpdate,
    response: User,
    summary: "Change an account's role or set a new password (signs its browsers out)",
  },
  deleteUser: {
    access: 'admin',
    method: 'DELETE',
    path: '/users/:id',
    params: IdParams,
    response: MessageResponse,
    summary: 'Delete an account (never the last admin)',
  },
  listTokens: {
    access: 'admin',
    method: 'GET',
    path: '/tokens',
    response: z.array(ApiToken),
    summary: 'Device and script tokens, revoked ones included',
  },
  createToken: {
    access: 'admin',
    method: 'POST',
    path: '/tokens',
    body: TokenCreate,
    response: TokenCreated,
    status: 201,
    summary: 'Create a token for a device or script (shown once)',
  },
  revokeToken: {
    access: 'admin',
    method: 'DELETE',
    path: '/tokens/:id',
    params: IdParams,
    response: ApiToken,
    summary: 'Revoke a token: it stops working at once',
  },
  auditLog: {
    access: 'admin',
    method: 'GET',
    path: '/audit',
    query: AuditQuery,
    response: listOf(AuditEntry),
    summary: 'Who changed what, when and from where, newest first',
  },

  // Events
  listEvents: {
    access: 'viewer',
    method: 'GET',
    path: '/events/',
    query: Pagination,
    response: listOf(Event),
    summary: 'Events, newest first',
  },
  getEvent: {
    access: 'viewer',
    method: 'GET',
    path: '/events/:id',
    params: IdParams,
    response: Event,
    summary: 'One event',
  },
  createEvent: {
    access: 'dj',
    method: 'POST',
    path: '/events/',
    body: EventCreate,
    response: Event,
    status: 201,
    summary: 'Create an event',
  },
  updateEvent: {
    access: 'dj',
    method: 'PUT',
    path: '/events/:id',
    params: IdParams,
    body: EventUpdate,
    response: Event,
    summary: 'Change an event',
  },
  deleteEvent: {
    access: 'admin',
    method: 'DELETE',
    path: '/events/:id',
    params: IdParams,
    response: MessageResponse,
    summary: 'Delete an event with its socials and plays; its recordings keep their audio and lose the link',
  },
  listSocials: {
    access: 'viewer',
    method: 'GET',
    path: '/events/:id/socials',
    params: IdParams,
    response: listOf(Social),
    summary: 'The nights of an event',
  },

  // Songs
  listSongs: {
    access: 'viewer',
    method: 'GET',
    path: '/songs/',
    query: SongListQuery,
    response: listOf(Song),
    summary: 'Songs, by artist then title',
  },
  searchSongs: {
    access: 'viewer',
    method: 'GET',
    path: '/songs/search',
    query: z.object({
      q: z.string().trim().min(1, 'type something to search for').max(200),
      limit: z.coerce.number().int().min(1).max(200).default(50),
    }),
    response: listOf(Song),
    summary: 'Songs whose title or artist contains q (case- and accent-insensitive)',
  },
  getSong: {
    access: 'viewer',
    method: 'GET',
    path: '/songs/:id',
    params: IdParams,
    response: Song,
    summary: 'One song',
  },
  updateSong: {
    access: 'dj',
    method: 'PUT',
    path: '/songs/:id',
    params: IdParams,
    body: SongUpdate,
    response: Song,
    summary: 'Change a song',
  },
  deleteSong: {
    access: 'admin',
    method: 'DELETE',
    path: '/songs/:id',
    params: IdParams,
    response: MessageResponse,
    summary: 'Delete a song and its plays (the audio file on disk is left alone)',
  },
  getSongMetadata: {
    access: 'viewer',
    method: 'GET',
    path: '/songs/:id/metadata',
    params: IdParams,
    response: SongMetadata,
    summary: 'What each metadata service last said about a song (MusicBrainz, iTunes, Spotify), with its age',
  },
  lookupSongMetadata: {
    access: 'dj',
    isExpensive: true,
    method: 'POST',
    path: '/songs/:id/metadata/lookup',
    params: IdParams,
    // Optional: the button sends no body.
    body: MetadataLookupRequest.nullish(),
    response: MetadataLookupResult,
    extraErrors: [409],
    summary:
      'Look a song up in the metadata services now and fill its empty values (never a value a DJ edited or the analyser computed)',
  },
  metadataProviders: {
    access: 'viewer',
    method: 'GET',
    path: '/metadata/providers',
    response: MetadataProviders,
    summary:
      'Which metadata services are configured (Spotify needs SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET)',
  },
  listSongPlays: {
    access: 'viewer',
    method: 'GET',
    path: '/songs/:id/plays',
    params: IdParams,
    query: Pagination,
    response: listOf(Play),
    summary: 'Plays of a song, newest first, a page at a time (skip, limit); total counts them all',
  },

  // Analytics
  overview: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/overview',
    response: OverviewStats,
    summary: 'Dashboard counts',
  },
  playsByGenre: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/plays-by-genre',
    query: EventIdFilter,
    response: listOf(GenreCount),
    summary: 'Plays per genre',
  },
  playsByTimeWindow: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/plays-by-time-window',
    query: EventIdFilter,
    response: listOf(TimeWindowCount),
    summary: 'Plays per time window',
  },
  topSongs: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/top-songs',
    query: EventIdFilter.extend({ limit: z.coerce.number().int().min(1).max(500).default(20) }),
    response: listOf(TopSong),
    summary: 'Most played songs',
  },
  eventAnalytics: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/events/:id',
    params: IdParams,
    response: EventAnalytics,
    summary: 'Analytics of one event',
  },
  bpmProgression: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/bpm-progression',
    query: EventIdFilter,
    response: listOf(ProgressionRow),
    summary: 'Average BPM per time window',
  },
  energyProgression: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/energy-progression',
    query: EventIdFilter,
    response: listOf(ProgressionRow),
    summary: 'Average energy (0-1000) per time window',
  },
  valenceProgression: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/valence-progression',
    query: EventIdFilter,
    response: listOf(ProgressionRow),
    summary: 'Average valence (0-1000) per time window',
  },
  danceabilityProgression: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/danceability-progression',
    query: EventIdFilter,
    response: listOf(ProgressionRow),
    summary: 'Average danceability (0-1000) per time window',
  },
  genreDistribution: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/genre-distribution',
    query: EventIdFilter,
    response: listOf(GenreCount),
    summary: 'Plays per genre',
  },
  timeWindowCharacteristics: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/time-window-characteristics',
    response: listOf(TimeWindowCharacteristicsRow),
    summary: 'Plays, averages and top genre per time window over all plays',
  },
  compare: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/compare',
    query: z.object({ ids: IdList, comparison_type: z.enum(['event', 'social']).default('event') }),
    response: ComparisonResponse,
    summary: 'Compare 2 to 5 events or socials',
  },
  eventSuccess: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/event-success/:id',
    params: IdParams,
    response: EventSuccess,
    summary: 'Success metrics of an event',
  },
  overplayWarnings: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/overplay-warnings',
    query: z.object({
      threshold: z.coerce.number().min(0).max(100).default(OVERPLAY.defaultThreshold),
      limit: z.coerce.number().int().min(1).max(500).default(OVERPLAY.warningsLimit),
    }),
    response: listOf(OverplayWarning),
    summary: 'Songs whose overplay score reaches the threshold, highest first',
  },
  overplayTrend: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/overplay-trend/:id',
    params: IdParams,
    response: OverplayTrend,
    summary: 'Monthly plays of a song with its overplay score',
  },
  freshSongsPool: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/fresh-songs-pool',
    query: z.object({
      age_category: AgeCategorySchema.optional(),
      genre: GenreSchema.optional(),
      limit: z.coerce.number().int().min(1).max(1000).default(OVERPLAY.freshPoolLimit),
    }),
    response: FreshSongsPool,
    summary: 'Songs with an overplay score under 50',
  },
  songPerformance: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/song-performance/:id',
    params: IdParams,
    response: SongPerformance,
    summary: 'Plays of a song over time',
  },
  spotifyPopularity: {
    access: 'viewer',
    method: 'GET',
    path: '/analytics/spotify-popularity/:id',
    params: IdParams,
    response: SpotifyPopularity,
    summary: 'Stored Spotify popularity history of a song',
  },

  // Playlists
  listPlaylists: {
    access: 'viewer',
    method: 'GET',
    path: '/playlists',
    query: z.object({
      is_active: QueryBool.default(true),
      created_by_user_id: Id.optional(),
      created_by_token_id: Id.optional(),
    }),
    response: listOf(Playlist),
    summary: 'Generated playlists',
  },
  getPlaylist: {
    access: 'viewer',
    method: 'GET',
    path: '/playlists/:id',
    params: IdParams,
    response: PlaylistDetail,
    summary: 'A playlist with its first songs in order (PLAYLIST_SONGS_LIMIT; song_count counts them all)',
  },
  listPlaylistSongs: {
    access: 'viewer',
    method: 'GET',
    path: '/playlists/:id/songs',
    params: IdParams,
    query: Pagination,
    response: listOf(Song),
    summary: "A playlist's songs in playlist order, a page at a time (skip, limit)",
  },
  regeneratePlaylists: {
    access: 'dj',
    isExpensive: true,
    method: 'POST',
    path: '/playlists/regenerate',
    response: RegenerateResult,
    summary: 'Regenerate every playlist',
  },
  regeneratePlaylist: {
    access: 'dj',
    isExpensive: true,
    method: 'POST',
    path: '/playlists/:id/regenerate',
    params: IdParams,
    response: PlaylistDetail,
    summary: 'Regenerate one playlist',
  },
  /** Extended M3U8 text (audio/x-mpegurl; charset=utf-8) served as an attachment, not JSON. */
  downloadPlaylistM3u8: {
    access: 'viewer',
    method: 'GET',
    path: '/playlists/:id/m3u8',
    params: IdParams,
    response: z.string(),
    summary: 'The playlist as an extended M3U8 file for DJ software',
  },

  // Settings
  getSettings: {
    access: 'viewer',
    method: 'GET',
    path: '/settings',
    response: Settings,
    summary: 'Runtime settings',
  },
  updateSettings: {
    access: 'admin',
    method: 'PUT',
    path: '/settings',
    body: SettingsUpdate,
    response: Settings,
    summary: 'Change the editable settings',
  },

  // Scraper
  listScrapedEvents: {
    access: 'viewer',
    method: 'GET',
    path: '/scraper/events',
    query: Pagination.extend({
      limit: z.coerce.number().int().min(1).max(200).default(20),
      year: z.coerce.number().int().min(1900).max(2200).optional(),
      country_code: z.string().max(3).optional(),
      continent: z.string().max(40).optional(),
      is_reviewed: QueryBool.optional(),
      has_duplicates: QueryBool.optional(),
      has_songs: QueryBool.optional(),
    }),
    response: z.object({ events: z.array(ScrapedEvent), total: z.number().int() }),
    summary: 'Scraped events, soonest first',
  },
  scraperFilterOptions: {
    access: 'viewer',
    method: 'GET',
    path: '/scraper/filter-options',
    response: ScraperFilterOptions,
    summary: 'Years, continents and countries present among scraped events',
  },
  detectDuplicates: {
    access: 'dj',
    method: 'POST',
    path: '/scraper/events/:id/detect-duplicates',
    params: IdParams,
    response: z.object({
      scraped_event_id: z.number().int(),
      potential_duplicates: z.array(PotentialDuplicate),
    }),
    summary: 'Find product events that may be this scraped event',
  },
  createFromScraped: {
    access: 'dj',
    method: 'POST',
    path: '/scraper/events/create',
    body: ScrapedEventCreate,
    response: z.object({ event: Event, scraped_event: ScrapedEvent }),
    status: 201,
    summary: 'Create a product event from a scraped event',
  },
  reviewScraped: {
    access: 'dj',
    method: 'POST',
    path: '/scraper/events/review',
    body: ScrapedEventReview,
    response: z.object({ scraped_event: ScrapedEvent }),
    summary: 'Approve, reject or merge a scraped event',
  },
  batchDetectDuplicates: {
    access: 'dj',
    isExpensive: true,
    method: 'POST',
    path: '/scraper/events/batch-detect-duplicates',
    query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
    response: BatchDetectResult,
    summary: 'Detect duplicates for unreviewed scraped events',
  },
  scrapeEvents: {
    access: 'admin',
    isExpensive: true,
    method: 'POST',
    path: '/scraper/scrape-events',
    // Optional: an empty POST (no body, which arrives as null) scrapes the configured calendar.
    body: ScrapeRequest.nullish(),
    response: ScrapeResult,
    // 422: the calendar at a given url cannot be read; 502/504: the configured one cannot.
    extraErrors: [422, 502, 504],
    summary: 'Fetch the events calendar now',
  },
  scraperStats: {
    access: 'viewer',
    method: 'GET',
    path: '/scraper/stats',
    response: ScraperStats,
    summary: 'Review queue counts',
  },

  // Recordings
  listRecordings: {
    access: 'viewer',
    method: 'GET',
    path: '/recordings/',
    query: RecordingListQuery,
    response: z.object({ recordings: z.array(Recording), total: z.number().int() }),
    summary: 'Recordings, newest first',
  },
  recordingStats: {
    access: 'viewer',
    method: 'GET',
    path: '/recordings/stats/summary',
    response: RecordingStatsSummary,
    summary: 'Recording totals',
  },
  getRecording: {
    access: 'viewer',
    method: 'GET',
    path: '/recordings/:id',
    params: IdParams,
    response: Recording,
    summary: 'One recording with its recognised songs',
  },
  listRecordingSongs: {
    access: 'viewer',
    method: 'GET',
    path: '/recordings/:id/songs',
    params: IdParams,
    query: Pagination,
    response: listOf(RecognizedSong),
    summary: "A recording's recognised songs in play order, a page at a time (skip, limit)",
  },
  /** Multipart (audio_file, metadata); its body is not described by a JSON schema. */
  uploadRecording: {
    access: 'dj',
    method: 'POST',
    path: '/recordings/upload',
    response: UploadResult,
    summary: 'Upload one chunk of a recording session (multipart: audio_file, metadata JSON)',
  },
  assignRecordingEvent: {
    access: 'dj',
    method: 'PATCH',
    path: '/recordings/:id/event',
    params: IdParams,
    query: z.object({ event_id: Id }),
    response: Recording,
    summary: 'Assign a recording to an event',
  },
  deleteRecording: {
    access: 'dj',
    method: 'DELETE',
    path: '/recordings/:id',
    params: IdParams,
    response: MessageResponse,
    summary: 'Delete a recording, its audio files and everything recognised from it',
  },
  processRecording: {
    access: 'dj',
    isExpensive: true,
    method: 'POST',
    path: '/tasks/recognition/process/:id',
    params: IdParams,
    response: ProcessQueued,
    status: 202,
    summary: 'Queue (re)processing of a recording',
  },

  // Library
  importLibrary: {
    access: 'admin',
    isExpensive: true,
    method: 'POST',
    path: '/library/import',
    body: LibraryImportRequest,
    response: LibraryImportResult,
    summary: 'Import the audio files of a folder inside the library roots into the song library',
  },

  // Downloads
  downloadQueue: {
    access: 'viewer',
    method: 'GET',
    path: '/downloads/queue',
    query: z.object({
      status: DownloadStatusSchema.optional(),
      limit: z.coerce.number().int().min(1).max(1000).default(100),
      created_by_user_id: Id.optional(),
      created_by_token_id: Id.optional(),
    }),
    response: z.object({ entries: z.array(DownloadQueueEntry), total: z.number().int() }),
    summary: 'Download queue, highest priority first',
  },
  downloadStats: {
    access: 'viewer',
    method: 'GET',
    path: '/downloads/stats',
    response: DownloadStats,
    summary: 'Queue counts',
  },
  downloadPreview: {
    access: 'viewer',
    method: 'GET',
    path: '/downloads/preview',
    response: DownloadPreview,
    summary: 'What a download run would fetch',
  },
  retryDownload: {
    access: 'dj',
    method: 'POST',
    path: '/downloads/:id/retry',
    params: IdParams,
    response: DownloadQueueEntry,
    summary: 'Put a failed entry back to pending and ask the download worker to try it',
  },
  downloadProviders: {
    access: 'viewer',
    method: 'GET',
    path: '/downloads/providers',
    response: DownloadProviders,
    summary: 'The download providers in the order tried, their settings, configuration and use today',
  },
  updateDownloadProviders: {
    access: 'admin',
    method: 'PUT',
    path: '/downloads/providers',
    body: DownloadProviderUpdate,
    response: DownloadProviders,
    summary: 'Choose, order and limit the download providers',
  },
  downloadAttempts: {
    access: 'viewer',
    method: 'GET',
    path: '/downloads/attempts',
    query: z.object({
      limit: z.coerce.number().int().min(1).max(500).default(50),
      queue_id: Id.optional(),
    }),
    response: z.object({ attempts: z.array(DownloadAttempt) }),
    summary: 'Recent provider tries and inbox files, newest first',
  },
  systemStatus: {
    access: 'viewer',
    method: 'GET',
    path: '/system/status',
    response: SystemStatus,
    summary: 'Configuration and health: database, jobs, disk, recognition and download providers',
  },
  startDownloads: {
    access: 'dj',
    isExpensive: true,
    method: 'POST',
    path: '/downloads/start',
    response: z.object({ message: z.string(), queued: z.number().int() }),
    summary: 'Queue the candidates and ask the download worker to start',
  },

  // Analysis
  analysisStatus: {
    access: 'viewer',
    method: 'GET',
    path: '/analysis/status',
    response: AnalysisStatus,
    summary: 'Analysis counts: analysed, pending (queued or running), failed, outdated, no file',
  },
  analyzeOutdated: {
    access: 'dj',
    isExpensive: true,
    method: 'POST',
    path: '/analysis/analyze-outdated',
    response: z.object({ queued: z.number().int() }),
    status: 202,
    summary: 'Queue an analysis of every song with a file not analysed by the current analyser',
  },

  // DJ software import and export (docs/interop.md)
  /** Multipart (file, options JSON) or JSON { path, ...options }; the path form needs admin. */
  previewInterop: {
    access: 'dj',
    isExpensive: true,
    method: 'POST',
    path: '/interop/preview',
    // Optional: a multipart upload arrives without a JSON body (null).
    body: InteropPathRequest.nullish(),
    response: InteropResult,
    summary:
      "Read a DJ program's file (an upload, or a path inside the library roots for admins) and say what an import would add; stores nothing",
  },
  /** Multipart (file, options JSON) or JSON { path, ...options }; the path form needs admin. */
  importInterop: {
    access: 'dj',
    isExpensive: true,
    method: 'POST',
    path: '/interop/import',
    // Optional: a multipart upload arrives without a JSON body (null).
    body: InteropPathRequest.nullish(),
    response: InteropResult,
    summary:
      "Import a DJ program's library and history: match its tracks to songs, add songs without a file, add its history as plays",
  },
  /** The file itself (XML, NML, crate, M3U, CSV) served as an attachment, not JSON. */
  exportInterop: {
    access: 'viewer',
    method: 'GET',
    path: '/interop/export/:format',
    params: InteropExportParams,
    query: InteropExportQuery,
    response: z.string(),
    summary:
      "A generated playlist, an event's played songs or the library (narrowed by the Songs filters) with its analysed BPM and key, as a DJ program's file",
  },
} as const satisfies Record<string, Endpoint>;

export type Api = typeof api;
export type EndpointName = keyof Api;

/** Editable settings as the form sends them. */
export type SettingsForm = z.infer<typeof EditableSettings>;
