/**
 * Business constants of the product (docs/product.md "Limits and constants", with the rules in
 * docs/metrics.md), in one place for the server and the web app.
 */

/** Time windows of the night, by wall-clock start time in the event's time zone. */
export const TIME_WINDOWS = ['20-22', '22-00', '00-02', '02-04', '04-06'] as const;
export type TimeWindow = (typeof TIME_WINDOWS)[number];

/** The five genres every tag maps onto. */
export const GENRES = ['Acoustic', 'Hip-Hop/R&B', 'Pop', 'Contemporary', 'Blues/Jazz'] as const;
export type Genre = (typeof GENRES)[number];

/** new: released under 6 months ago; mid: 6 months to 2 years; old: over 2 years. */
export const AGE_CATEGORIES = ['new', 'mid', 'old'] as const;
export type AgeCategory = (typeof AGE_CATEGORIES)[number];
export const AGE_NEW_MAX_MONTHS = 6;
export const AGE_MID_MAX_MONTHS = 24;

/** Energy, danceability and valence are stored on 0-1000 and shown as percent (divide by 10). */
export const FEATURE_SCALE_MAX = 1000;
export const ENERGY_BANDS = {
  high: { min: 700, max: 1000 },
  mid: { min: 400, max: 699 },
  low: { min: 0, max: 399 },
} as const;
export type EnergyBand = keyof typeof ENERGY_BANDS;

/** Spotify popularity bands (0-100). */
export const POPULARITY_BANDS = {
  hot: { min: 90, max: 100 },
  popular: { min: 60, max: 89 },
  niche: { min: 0, max: 59 },
} as const;
export type PopularityBand = keyof typeof POPULARITY_BANDS;

export const OVERPLAY = {
  /** Default of the Overplay Monitor's view slider (percent). */
  defaultThreshold: 70,
  sliderMin: 50,
  sliderMax: 100,
  sliderStep: 5,
  /** Severity: critical at or above, high at or above, otherwise warning. */
  criticalAt: 90,
  highAt: 80,
  /** A song is fresh when its overplay score is below this. */
  freshBelow: 50,
  warningsLimit: 50,
  freshPoolLimit: 100,
} as const;

export const COMPARISON = { min: 2, max: 5 } as const;

export const DOWNLOAD_STATUSES = ['pending', 'downloading', 'completed', 'failed'] as const;
export type DownloadStatus = (typeof DOWNLOAD_STATUSES)[number];
/** Priority colouring in the queue: at or above error, at or above warning. */
export const DOWNLOAD_PRIORITY_COLOURS = { error: 200, warning: 100 } as const;
export const DOWNLOAD_PREVIEW_TOP = 20;
/** The download providers (docs/operations.md, "Downloads"): a folder the DJ drops bought files into, and the DJ's own command. */
export const DOWNLOAD_PROVIDER_NAMES = ['inbox', 'command'] as const;
export type DownloadProviderName = (typeof DOWNLOAD_PROVIDER_NAMES)[number];
/** How a provider's try or an inbox file ended. */
export const DOWNLOAD_ATTEMPT_OUTCOMES = [
  'running',
  'completed',
  'new_song',
  'not_found',
  'mismatch',
  'error',
  'timeout',
  'unusable',
  'duplicate',
] as const;

export const REVIEW_ACTIONS = ['approved', 'rejected', 'merged'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];
/** What a reviewed scraped event records as its action; `created` is Create Event. */
export const REVIEWED_ACTIONS = ['approved', 'rejected', 'merged', 'created'] as const;
export type ReviewedAction = (typeof REVIEWED_ACTIONS)[number];
export const REVIEW_PAGE_SIZE = 20;
export const BATCH_DUPLICATE_LIMIT = 100;

export const RECORDING = {
  chunkSeconds: 30,
  bitrate: 128_000,
  sampleRate: 48_000,
  levelRefreshMs: 100,
  recentSongs: 10,
  todayRefreshMs: 30_000,
  loadTimeoutMs: 10_000,
} as const;
export const RECORDING_SOURCE_BROWSER = 'web_browser';

export const SOCKET = { pingMs: 30_000, reconnectMs: 3_000 } as const;

export const SONGS_PAGE_SIZE = 50;
/** A song performance answer carries its newest plays only; the rest are paged by GET /songs/{id}/plays. */
export const SONG_TIMELINE_LIMIT = 100;
/** A recording answer carries its first recognised songs only; the rest are paged by GET /recordings/{id}/songs. */
export const RECORDING_SONGS_LIMIT = 200;
/** The recordings list carries fewer of each recording's songs: 100 recordings × 200 songs made 3.3 MB answers. */
export const RECORDING_LIST_SONGS_LIMIT = 20;
/** A playlist answer carries its first songs only; the rest are paged by GET /playlists/{id}/songs (3.6 MB at 200,000 songs). */
export const PLAYLIST_SONGS_LIMIT = 200;
export const HTTP_TIMEOUT_MS = 30_000;

/** Settings: ranges and defaults (docs/product.md "Settings"). */
export const SETTINGS_RANGES = {
  download_priority_threshold: { min: 0, max: 1000, default: 50 },
  minimum_plays_to_download: { min: 1, max: 50, default: 3 },
  party_weight: { min: 1, max: 100, default: 1 },
  festival_weight: { min: 1, max: 100, default: 12 },
  overplay_new_threshold: { min: 0, max: 100, default: 90 },
  overplay_mid_threshold: { min: 0, max: 100, default: 70 },
} as const;
export const FESTIVAL_WEIGHT_MESSAGE = 'Festival weight must be greater than or equal to party weight';

/** Event success label thresholds (percent scores). */
export const SUCCESS_LABELS = {
  variety: { excellent: 70, good: 50 },
  energyBalance: { well: 60, somewhat: 40 },
  genreBalance: { well: 70, somewhat: 50 },
  newSongRate: { great: 30, moderate: 15 },
} as const;

/**
 * Who may call an operation (docs/security.md): anyone, or a signed-in user or device token with
 * at least this role. Roles are ordered: viewer < dj < admin. Here, not beside the account schemas,
 * so the web app reads them without loading zod.
 */
export const ROLES = ['viewer', 'dj', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export type Access = 'anonymous' | Role;

/** True when `role` may do what `needed` allows. */
export function roleAllows(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * Where a song's value came from (Song.sources): its file's tags, our analyser, a DJ's edit, a DJ
 * program's import, a cloud recogniser, a metadata service, or the demo generator.
 */
export const SONG_VALUE_SOURCES = [
  'tags',
  'analyser',
  'dj',
  'dj_software',
  'acrcloud',
  'audd',
  'musicbrainz',
  'itunes',
  'spotify',
  'demo',
] as const;
export type SongValueSource = (typeof SONG_VALUE_SOURCES)[number];
export const SONG_VALUE_SOURCE_LABELS: Record<SongValueSource, string> = {
  tags: 'File tags',
  analyser: 'Analyser',
  dj: 'DJ',
  dj_software: 'DJ software',
  acrcloud: 'ACRCloud',
  audd: 'AudD',
  musicbrainz: 'MusicBrainz',
  itunes: 'iTunes',
  spotify: 'Spotify',
  demo: 'Demo data',
};

/** The metadata services a song can be looked up in, in the order their answers are trusted. */
export const METADATA_PROVIDERS = ['musicbrainz', 'itunes', 'spotify'] as const;
export type MetadataProviderName = (typeof METADATA_PROVIDERS)[number];
/** A lookup younger than this is answered from the cache unless the DJ forces a new one. */
export const METADATA_CACHE_DAYS = 30;
