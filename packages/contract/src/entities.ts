import { z } from 'zod';
import { CreatedBy } from './accounts.js';
import { DateOnly, DbId, QueryBool, Timestamp } from './common.js';
import {
  AGE_CATEGORIES,
  DOWNLOAD_ATTEMPT_OUTCOMES,
  DOWNLOAD_PROVIDER_NAMES,
  DOWNLOAD_STATUSES,
  ENERGY_BANDS,
  type EnergyBand,
  GENRES,
  POPULARITY_BANDS,
  type PopularityBand,
  REVIEW_ACTIONS,
  REVIEWED_ACTIONS,
  SETTINGS_RANGES,
  SONG_VALUE_SOURCES,
  TIME_WINDOWS,
} from './constants.js';

export const TimeWindowSchema = z.enum(TIME_WINDOWS);
export const GenreSchema = z.enum(GENRES);
export const AgeCategorySchema = z.enum(AGE_CATEGORIES);
/** 0-1000 scale of energy, danceability and valence. */
export const Scale1000 = z.number().min(0).max(1000);

/**
 * The Songs screen's filters as a query (docs/api.md, "Song filters"): the list's own three, the
 * three bands, analysis state and a search in title and artist. A list of songs exported for DJ
 * software takes the same filters, so an export holds what the screen shows.
 */
export const SongFilterQuery = z.object({
  genre: GenreSchema.optional(),
  age_category: AgeCategorySchema.optional(),
  has_file: QueryBool.optional(),
  energy: z.enum(Object.keys(ENERGY_BANDS) as [EnergyBand, ...EnergyBand[]]).optional(),
  /** analyzed: analysed; pending: a file not analysed yet. */
  analysis: z.enum(['analyzed', 'pending']).optional(),
  popularity: z.enum(Object.keys(POPULARITY_BANDS) as [PopularityBand, ...PopularityBand[]]).optional(),
  /** Text found in the title or the artist, ignoring case and accents. */
  q: z.string().trim().min(1).max(200).optional(),
});
export type SongFilterQuery = z.infer<typeof SongFilterQuery>;

// ---------------------------------------------------------------------------------------------
// Events and socials

export const Event = z.object({
  event_id: z.number().int(),
  event_name: z.string(),
  start_date: DateOnly,
  end_date: DateOnly,
  location: z.string().nullable(),
  is_festival: z.boolean(),
  /** Effective weight: the event's own override, else festival_weight or party_weight. */
  event_weight: z.number(),
  /** The event's own weight override, null when it follows the settings. */
  weight_override: z.number().nullable(),
  /** IANA time zone in which the event's nights are reckoned (time windows, socials). */
  timezone: z.string(),
  country_code: z.string().nullable(),
  created_at: Timestamp,
});
export type Event = z.infer<typeof Event>;

const IanaTimeZone = z.string().refine(
  (tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  },
  { message: 'must be an IANA time zone such as Europe/Berlin' },
);

const EventFields = z.object({
  event_name: z.string().trim().min(1, 'must not be empty').max(200),
  start_date: DateOnly,
  end_date: DateOnly,
  location: z.string().trim().max(200).nullable().optional(),
  is_festival: z.boolean().default(false),
  weight_override: z.number().min(1).max(100).nullable().optional(),
  timezone: IanaTimeZone.optional(),
  country_code: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter ISO country code')
    .nullable()
    .optional(),
});

const endNotBeforeStart = (value: { start_date?: string; end_date?: string }) =>
  !value.start_date || !value.end_date || value.end_date >= value.start_date;
const endMessage = { message: 'end_date must not be before start_date', path: ['end_date'] };

export const EventCreate = EventFields.refine(endNotBeforeStart, endMessage);
export type EventCreate = z.infer<typeof EventCreate>;
export const EventUpdate = EventFields.partial().refine(endNotBeforeStart, endMessage);
export type EventUpdate = z.infer<typeof EventUpdate>;

export const Social = z.object({
  social_id: z.number().int(),
  event_id: z.number().int(),
  social_name: z.string(),
  social_date: DateOnly,
  day_of_week: z.string(),
  /** HH:MM in the event's time zone. */
  start_time: z.string().nullable(),
  /** HH:MM in the event's time zone. */
  end_time: z.string().nullable(),
  play_count: z.number().int(),
});
export type Social = z.infer<typeof Social>;

// ---------------------------------------------------------------------------------------------
// Songs and plays

export const Song = z.object({
  song_id: z.number().int(),
  title: z.string(),
  artist: z.string(),
  album: z.string().nullable(),
  genre: GenreSchema.nullable(),
  release_date: DateOnly.nullable(),
  /** Derived from release_date and today; null without a release date. */
  age_category: AgeCategorySchema.nullable(),
  /** Beats per minute, one decimal; from the analyser always within its declared range (70-140). */
  bpm: z.number().nullable(),
  /** The analyser's other reading of the tempo (the other octave), to switch to in one click. */
  bpm_alt: z.number().nullable(),
  /** Standard notation, e.g. 'A minor', 'F# major'. */
  key: z.string().nullable(),
  /** 0-1: how clearly the analyser's key stands above the runner-up; null when not analysed. */
  key_confidence: z.number().min(0).max(1).nullable(),
  /** True when the analyser's key is ambiguous (key_confidence under its threshold) and no DJ set the key: show it as uncertain. */
  key_uncertain: z.boolean(),
  energy_level: Scale1000.nullable(),
  danceability: Scale1000.nullable(),
  valence: Scale1000.nullable(),
  /** 0-100. */
  spotify_popularity: z.number().int().min(0).max(100).nullable(),
  duration_ms: z.number().int().nullable(),
  analyzed_at: Timestamp.nullable(),
  analysis_version: z.string().nullable(),
  file_present: z.boolean(),
  file_path: z.string().nullable(),
  /** Percentile rank of recent exposure, 0-100. */
  overplay_score: z.number(),
  play_count: z.number().int(),
  isrc: z.string().nullable(),
  /** Cover art and a 30 s preview from a metadata lookup (iTunes). */
  artwork_url: z.string().nullable(),
  preview_url: z.string().nullable(),
  /**
   * Where each value came from, by field name (`{ "bpm": "analyser", "genre": "itunes" }`); a
   * field missing here has no recorded source (SONG_VALUE_SOURCES).
   */
  sources: z.record(z.string(), z.enum(SONG_VALUE_SOURCES)),
});
export type Song = z.infer<typeof Song>;

export const SongUpdate = z
  .object({
    title: z.string().trim().min(1).max(300),
    artist: z.string().trim().min(1).max(300),
    album: z.string().trim().max(300).nullable(),
    genre: GenreSchema.nullable(),
    release_date: DateOnly.nullable(),
    bpm: z.number().min(20).max(300).nullable(),
    key: z.string().trim().max(20).nullable(),
    energy_level: Scale1000.nullable(),
    danceability: Scale1000.nullable(),
    valence: Scale1000.nullable(),
    spotify_popularity: z.number().int().min(0).max(100).nullable(),
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, { message: 'send at least one field to change' });
export type SongUpdate = z.infer<typeof SongUpdate>;

export const PlaySource = z.enum(['recording', 'import', 'manual', 'demo']);

export const Play = z.object({
  play_id: z.number().int(),
  song_id: z.number().int(),
  event_id: z.number().int(),
  event_name: z.string(),
  /** The event's first day. */
  event_date: DateOnly,
  is_festival: z.boolean(),
  social_id: z.number().int().nullable(),
  social_name: z.string().nullable(),
  started_at: Timestamp,
  ended_at: Timestamp.nullable(),
  time_window: TimeWindowSchema.nullable(),
  source: PlaySource,
  /** 0-1. */
  confidence: z.number().nullable(),
  recording_id: z.number().int().nullable(),
});
export type Play = z.infer<typeof Play>;

// ---------------------------------------------------------------------------------------------
// Recordings

export const RecognizedSong = z.object({
  song_id: z.number().int(),
  title: z.string(),
  artist: z.string(),
  /** When the song started, ISO. */
  timestamp: Timestamp,
  ended_at: Timestamp.nullable(),
  /** 0-1. */
  confidence: z.number().nullable(),
});
export type RecognizedSong = z.infer<typeof RecognizedSong>;

export const Recording = z.object({
  recording_id: z.number().int(),
  session_id: z.string(),
  filename: z.string(),
  recorded_at: Timestamp,
  uploaded_at: Timestamp,
  processed: z.boolean(),
  processed_at: Timestamp.nullable(),
  error_message: z.string().nullable(),
  duration_minutes: z.number(),
  file_size_mb: z.number(),
  chunk_count: z.number().int(),
  /** Every play the recording holds; recognized_songs lists the first of them. */
  songs_recognized: z.number().int(),
  event_id: z.number().int().nullable(),
  event_name: z.string().nullable(),
  /** web_browser, device, or another client's name. */
  source: z.string(),
  /**
   * In play order: at most RECORDING_SONGS_LIMIT in one recording's answer, RECORDING_LIST_SONGS_LIMIT
   * in the list's; GET /recordings/{id}/songs pages them all.
   */
  recognized_songs: z.array(RecognizedSong),
  /** The account or device token that uploaded it; null before accounts existed. */
  created_by: CreatedBy,
});
export type Recording = z.infer<typeof Recording>;

export const RecordingStatsSummary = z.object({
  recordings: z.object({
    total: z.number().int(),
    processed: z.number().int(),
    unprocessed: z.number().int(),
  }),
  storage: z.object({ total_gb: z.number(), total_mb: z.number() }),
  duration: z.object({ total_hours: z.number() }),
  recognition: z.object({ total_songs_recognized: z.number().int(), average_per_recording: z.number() }),
});
export type RecordingStatsSummary = z.infer<typeof RecordingStatsSummary>;

/** The `metadata` JSON field of an upload. */
export const UploadMetadata = z.object({
  /** Groups the chunks of one recording; letters, digits and . _ : - only. */
  session_id: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9._:-]+$/, 'may contain only letters, digits and . _ : -'),
  /** 0-based position of the chunk in its session. */
  chunk_number: z.number().int().min(0).max(100_000),
  filename: z.string().trim().min(1).max(255).optional(),
  recorded_at: z.iso.datetime({ offset: true }).optional(),
  /** Length of this chunk in seconds. */
  duration_seconds: z.number().positive().max(3600),
  event_id: DbId.nullable().optional(),
  /** A new event to create (dated by recorded_at) when no event_id is given. */
  event_name: z.string().trim().max(200).nullable().optional(),
  source: z.string().trim().min(1).max(40).default('device'),
});
export type UploadMetadata = z.infer<typeof UploadMetadata>;

// ---------------------------------------------------------------------------------------------
// Settings

const range = (name: keyof typeof SETTINGS_RANGES, integer = false) => {
  const { min, max } = SETTINGS_RANGES[name];
  const base = integer ? z.number().int() : z.number();
  return base.min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);
};

export const EditableSettings = z.object({
  download_enabled: z.boolean(),
  download_priority_threshold: range('download_priority_threshold'),
  minimum_plays_to_download: range('minimum_plays_to_download', true),
  party_weight: range('party_weight'),
  festival_weight: range('festival_weight'),
  overplay_new_threshold: range('overplay_new_threshold'),
  overplay_mid_threshold: range('overplay_mid_threshold'),
});
export type EditableSettings = z.infer<typeof EditableSettings>;

export const Settings = EditableSettings.extend({
  /** Read-only, from the server's configuration. */
  max_downloads_per_day: z.number().int(),
  /** Read-only, from the server's configuration. */
  tor_enabled: z.boolean(),
  /**
   * Read-only, from the server's configuration: the cloud recognisers asked about songs the
   * library does not know ('acrcloud', 'audd'); empty when none is configured.
   */
  cloud_recognizers: z.array(z.enum(['acrcloud', 'audd'])),
});
export type Settings = z.infer<typeof Settings>;

/** PUT /settings: any of the seven editable fields; the merged result must keep festival >= party. */
export const SettingsUpdate = EditableSettings.partial();
export type SettingsUpdate = z.infer<typeof SettingsUpdate>;

export const DEFAULT_SETTINGS: EditableSettings = {
  download_enabled: false,
  download_priority_threshold: SETTINGS_RANGES.download_priority_threshold.default,
  minimum_plays_to_download: SETTINGS_RANGES.minimum_plays_to_download.default,
  party_weight: SETTINGS_RANGES.party_weight.default,
  festival_weight: SETTINGS_RANGES.festival_weight.default,
  overplay_new_threshold: SETTINGS_RANGES.overplay_new_threshold.default,
  overplay_mid_threshold: SETTINGS_RANGES.overplay_mid_threshold.default,
};

// ---------------------------------------------------------------------------------------------
// Analytics

export const OverviewStats = z.object({
  total_songs: z.number().int(),
  total_events: z.number().int(),
  total_plays: z.number().int(),
  pending_downloads: z.number().int(),
});
export type OverviewStats = z.infer<typeof OverviewStats>;

export const GenreCount = z.object({ genre: z.string(), play_count: z.number().int() });
export const TimeWindowCount = z.object({ time_window: TimeWindowSchema, play_count: z.number().int() });

export const TopSong = z.object({
  song_id: z.number().int(),
  title: z.string(),
  artist: z.string(),
  genre: GenreSchema.nullable(),
  play_count: z.number().int(),
  event_count: z.number().int(),
  last_played_at: Timestamp.nullable(),
});

/** One row per time window that has plays; averages are null when no played song has the value. */
export const ProgressionRow = z.object({
  time_window: TimeWindowSchema,
  play_count: z.number().int(),
  avg_bpm: z.number().nullable(),
  avg_energy: z.number().nullable(),
  avg_valence: z.number().nullable(),
  avg_danceability: z.number().nullable(),
});
export type ProgressionRow = z.infer<typeof ProgressionRow>;

export const TimeWindowCharacteristicsRow = ProgressionRow.extend({ top_genre: z.string().nullable() });

export const EventAnalytics = z.object({
  event: Event,
  total_plays: z.number().int(),
  unique_songs: z.number().int(),
  socials: z.array(Social),
  genre_distribution: z.array(GenreCount),
  time_windows: z.array(TimeWindowCharacteristicsRow),
  top_songs: z.array(TopSong),
});

/** Map of time window to the average; windows without plays are absent. */
const WindowMap = z.record(z.string(), z.number().nullable());
export const ComparisonEntity = z.object({
  id: z.number().int(),
  name: z.string(),
  bpm_progression: WindowMap,
  energy_progression: WindowMap,
  valence_progression: WindowMap,
  danceability_progression: WindowMap,
  genre_distribution: z.record(z.string(), z.number().int()),
});
export const ComparisonResponse = z.object({
  comparison_type: z.enum(['event', 'social']),
  entities: z.array(ComparisonEntity),
});

export const EventSuccess = z.object({
  event_id: z.number().int(),
  event_name: z.string(),
  /** Percent. */
  variety_score: z.number(),
  unique_songs: z.number().int(),
  unique_artists: z.number().int(),
  total_plays: z.number().int(),
  energy_distribution: z.object({
    balance_score: z.number(),
    mean: z.number().nullable(),
    std: z.number().nullable(),
    histogram: z.record(z.string(), z.number().int()),
  }),
  genre_balance: z.object({
    score: z.number(),
    genre_count: z.number().int(),
    dominant_genre: z.string().nullable(),
    genres: z.record(z.string(), z.number().int()),
  }),
  /** Percent of unique songs released under 6 months before the event began. */
  new_song_rate: z.number(),
  new_song_count: z.number().int(),
});

export const OverplaySeverity = z.enum(['warning', 'high', 'critical']);
export const OverplayWarning = Song.extend({ severity: OverplaySeverity });

export const MonthlyPlays = z.object({ month: z.string(), plays: z.number().int() });
export const OverplayTrend = z.object({
  song_id: z.number().int(),
  title: z.string(),
  artist: z.string(),
  current_overplay_score: z.number(),
  total_plays: z.number().int(),
  trend: z.array(MonthlyPlays),
});

export const FreshSongsPool = z.object({
  data: z.array(Song),
  total: z.number().int(),
  by_age_category: z.object({ new: z.number().int(), mid: z.number().int(), old: z.number().int() }),
});

export const SongPerformance = z.object({
  song_id: z.number().int(),
  title: z.string(),
  artist: z.string(),
  age_category: AgeCategorySchema.nullable(),
  overplay_score: z.number(),
  spotify_popularity: z.number().nullable(),
  total_plays: z.number().int(),
  total_events: z.number().int(),
  monthly_trend: z.array(MonthlyPlays),
  /** The newest SONG_TIMELINE_LIMIT plays; total_plays counts them all, GET /songs/{id}/plays pages the rest. */
  timeline: z.array(
    z.object({
      event_name: z.string(),
      event_date: DateOnly,
      played_at: Timestamp,
      time_window: TimeWindowSchema.nullable(),
      is_festival: z.boolean(),
    }),
  ),
});

export const SpotifyPopularity = z.object({
  data: z.object({
    current_popularity: z.number().nullable(),
    /** Where the current value came from: spotify, demo (invented by the demo generator) or dj. */
    current_source: z.enum(SONG_VALUE_SOURCES).nullable(),
    /** SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET are set: values can come from Spotify. */
    spotify_configured: z.boolean(),
    /** Readings, oldest first; `source` demo marks the demo generator's invented ones. */
    history: z.array(
      z.object({ fetched_at: Timestamp, popularity: z.number(), source: z.enum(['spotify', 'demo']) }),
    ),
  }),
});

// ---------------------------------------------------------------------------------------------
// Playlists

export const Playlist = z.object({
  playlist_id: z.number().int(),
  playlist_name: z.string(),
  age_category: AgeCategorySchema.nullable(),
  genre: z.string().nullable(),
  time_window: TimeWindowSchema.nullable(),
  energy_level: z.enum(['high', 'mid', 'low']).nullable(),
  song_count: z.number().int(),
  total_duration_seconds: z.number(),
  is_active: z.boolean(),
  generated_at: Timestamp,
  /** Relative API path of the M3U8 download. */
  m3u8_url: z.string(),
  /** Who last regenerated it; null when the schedule did, or before accounts existed. */
  created_by: CreatedBy,
});
export const PlaylistDetail = Playlist.extend({
  /** In playlist order: the first PLAYLIST_SONGS_LIMIT (song_count counts them all); GET /playlists/{id}/songs pages them all. */
  songs: z.array(Song),
});
export const RegenerateResult = z.object({
  message: z.string(),
  active: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  deactivated: z.number().int(),
});

// ---------------------------------------------------------------------------------------------
// Downloads

export const DownloadStatusSchema = z.enum(DOWNLOAD_STATUSES);
export const DownloadQueueEntry = z.object({
  queue_id: z.number().int(),
  song_id: z.number().int(),
  title: z.string(),
  artist: z.string(),
  status: DownloadStatusSchema,
  priority_score: z.number(),
  download_attempts: z.number().int(),
  added_at: Timestamp,
  started_at: Timestamp.nullable(),
  completed_at: Timestamp.nullable(),
  last_error: z.string().nullable(),
  /** The provider that brought its file, or the last one that tried ('inbox', 'command'). */
  provider: z.enum(DOWNLOAD_PROVIDER_NAMES).nullable(),
  /** Who queued it (Start Downloads); null when the schedule did, or before accounts existed. */
  created_by: CreatedBy,
});
export const DownloadStats = z.object({
  queue: z.object({
    total: z.number().int(),
    pending: z.number().int(),
    downloading: z.number().int(),
    completed: z.number().int(),
    failed: z.number().int(),
  }),
  songs: z.object({ played_but_no_file: z.number().int() }),
});
export const DownloadPreview = z.object({
  total_candidates: z.number().int(),
  estimated_size_gb: z.number(),
  estimated_analysis_minutes: z.number(),
  estimated_cost_usd: z.number(),
  current_settings: z.object({
    minimum_plays: z.number().int(),
    priority_threshold: z.number(),
    download_enabled: z.boolean(),
  }),
  top_songs: z.array(
    z.object({
      song_id: z.number().int(),
      title: z.string(),
      artist: z.string(),
      priority: z.number(),
      play_count: z.number().int(),
    }),
  ),
});

export const DownloadProviderNameSchema = z.enum(DOWNLOAD_PROVIDER_NAMES);
export const DownloadProviderSettings = z.object({
  name: DownloadProviderNameSchema,
  /** 0 is tried first. */
  position: z.number().int(),
  enabled: z.boolean(),
  /** Tries this provider may start per calendar day (server time). */
  daily_cap: z.number().int().min(0).max(100000),
  /** How long one try may take. */
  timeout_seconds: z.number().int().min(1).max(86400),
  /** Tries of one entry when a try fails (timeout, error), with a doubling wait between them. */
  max_attempts: z.number().int().min(1).max(10),
});
export type DownloadProviderSettings = z.infer<typeof DownloadProviderSettings>;
export const DownloadProviderUpdate = z.object({
  /** Every provider once, in the order they are tried. */
  providers: z
    .array(DownloadProviderSettings.omit({ position: true }))
    .min(1)
    .max(10),
});
export type DownloadProviderUpdate = z.infer<typeof DownloadProviderUpdate>;
export const DownloadProviderStatus = DownloadProviderSettings.extend({
  label: z.string(),
  /** Whether the server has what the provider needs (a folder, a command). */
  configured: z.boolean(),
  /** What it uses (the inbox folder, the command's program), or what is missing. */
  detail: z.string(),
  /** Tries started today. */
  used_today: z.number().int(),
});
export const DownloadProviders = z.object({
  providers: z.array(DownloadProviderStatus),
  /** WCS_MAX_DOWNLOADS_PER_DAY: tries of all providers together per day. */
  max_downloads_per_day: z.number().int(),
  used_today: z.number().int(),
});
export type DownloadProviders = z.infer<typeof DownloadProviders>;
export const DownloadAttempt = z.object({
  id: z.number().int(),
  queue_id: z.number().int().nullable(),
  song_id: z.number().int().nullable(),
  /** The song's title and artist, when it has a song. */
  song: z.string().nullable(),
  provider: DownloadProviderNameSchema,
  file_name: z.string().nullable(),
  started_at: Timestamp,
  finished_at: Timestamp.nullable(),
  outcome: z.enum(DOWNLOAD_ATTEMPT_OUTCOMES),
  message: z.string().nullable(),
});
export type DownloadAttempt = z.infer<typeof DownloadAttempt>;

// ---------------------------------------------------------------------------------------------
// System status

export const SystemStatusItem = z.object({
  key: z.enum(['server', 'database', 'jobs', 'disk', 'recognition', 'downloads']),
  title: z.string(),
  state: z.enum(['ok', 'warning', 'error']),
  /** What is so, measured or read from the configuration. */
  description: z.string(),
  /** What to do about a warning or an error; null when all is well. */
  action: z.string().nullable(),
});
export type SystemStatusItem = z.infer<typeof SystemStatusItem>;
export const SystemStatus = z.object({ items: z.array(SystemStatusItem), checked_at: Timestamp });
export type SystemStatus = z.infer<typeof SystemStatus>;

// ---------------------------------------------------------------------------------------------
// Scraped events

export const PotentialDuplicate = z.object({
  event_id: z.number().int(),
  event_name: z.string(),
  /** 0-1. */
  overall_score: z.number(),
  /** 0-1. */
  name_similarity: z.number(),
  date_difference_days: z.number().int(),
});
export const ScrapedEvent = z.object({
  id: z.number().int(),
  event_name: z.string(),
  url: z.string().nullable(),
  date_text: z.string(),
  start_date: DateOnly.nullable(),
  end_date: DateOnly.nullable(),
  location: z.string().nullable(),
  country_code: z.string().nullable(),
  continent: z.string().nullable(),
  is_reviewed: z.boolean(),
  reviewed_action: z.enum(REVIEWED_ACTIONS).nullable(),
  reviewed_notes: z.string().nullable(),
  reviewed_at: Timestamp.nullable(),
  /** The product event this one became or was merged into. */
  linked_event_id: z.number().int().nullable(),
  has_songs: z.boolean(),
  potential_duplicates: z.array(PotentialDuplicate),
  scraped_at: Timestamp,
});
export const ScraperFilterOptions = z.object({
  years: z.array(z.number().int()),
  continents: z.array(z.object({ name: z.string(), count: z.number().int() })),
  countries: z.array(z.object({ code: z.string(), count: z.number().int() })),
});
export const ScrapedEventCreate = z.object({
  scraped_event_id: DbId,
  override_name: z.string().trim().min(1).max(200).optional(),
  override_location: z.string().trim().max(200).optional(),
  notes: z.string().max(2000).optional(),
});
export const ScrapedEventReview = z
  .object({
    scraped_event_id: DbId,
    action: z.enum(REVIEW_ACTIONS),
    notes: z.string().max(2000).optional(),
    merge_with_event_id: DbId.optional(),
  })
  .refine((v) => v.action !== 'merged' || v.merge_with_event_id !== undefined, {
    message: 'merge_with_event_id is required to merge',
    path: ['merge_with_event_id'],
  });
export const BatchDetectResult = z.object({
  processed: z.number().int(),
  total_duplicates_found: z.number().int(),
  events_with_duplicates: z.number().int(),
});
/** `url`: another address of the calendar to read, http or https only (default WCS_SCRAPER_URL). */
export const ScrapeRequest = z.object({
  url: z
    .url({ protocol: /^https?$/, error: 'must be an http or https address' })
    .max(2048)
    .optional(),
});
export const ScrapeResult = z.object({
  source_url: z.string(),
  scraped_at: Timestamp,
  /** Event rows on the page, repeated rows included. */
  rows_found: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  /** Rows that repeat an earlier row of the same page (same source key): stored once. */
  duplicate_rows: z.number().int(),
  unparsed_dates: z.number().int(),
  /** Stored events whose flag is no ISO country ('transparent', none): country_code null. */
  unknown_countries: z.number().int(),
});
export const ScraperStats = z.object({
  total: z.number().int(),
  reviewed: z.number().int(),
  unreviewed: z.number().int(),
  with_duplicates: z.number().int(),
  unparsed_dates: z.number().int(),
  by_action: z.object({
    approved: z.number().int(),
    rejected: z.number().int(),
    merged: z.number().int(),
    created: z.number().int(),
  }),
  last_scraped_at: Timestamp.nullable(),
});

// Inferred types of the schemas above, under the same names.
export type TimeWindowSchema = z.infer<typeof TimeWindowSchema>;
export type GenreSchema = z.infer<typeof GenreSchema>;
export type AgeCategorySchema = z.infer<typeof AgeCategorySchema>;
export type PlaySource = z.infer<typeof PlaySource>;
export type GenreCount = z.infer<typeof GenreCount>;
export type TimeWindowCount = z.infer<typeof TimeWindowCount>;
export type TopSong = z.infer<typeof TopSong>;
export type TimeWindowCharacteristicsRow = z.infer<typeof TimeWindowCharacteristicsRow>;
export type EventAnalytics = z.infer<typeof EventAnalytics>;
export type ComparisonEntity = z.infer<typeof ComparisonEntity>;
export type ComparisonResponse = z.infer<typeof ComparisonResponse>;
export type EventSuccess = z.infer<typeof EventSuccess>;
export type OverplaySeverity = z.infer<typeof OverplaySeverity>;
export type OverplayWarning = z.infer<typeof OverplayWarning>;
export type MonthlyPlays = z.infer<typeof MonthlyPlays>;
export type OverplayTrend = z.infer<typeof OverplayTrend>;
export type FreshSongsPool = z.infer<typeof FreshSongsPool>;
export type SongPerformance = z.infer<typeof SongPerformance>;
export type SpotifyPopularity = z.infer<typeof SpotifyPopularity>;
export type Playlist = z.infer<typeof Playlist>;
export type PlaylistDetail = z.infer<typeof PlaylistDetail>;
export type RegenerateResult = z.infer<typeof RegenerateResult>;
export type DownloadStatusSchema = z.infer<typeof DownloadStatusSchema>;
export type DownloadQueueEntry = z.infer<typeof DownloadQueueEntry>;
export type DownloadStats = z.infer<typeof DownloadStats>;
export type DownloadPreview = z.infer<typeof DownloadPreview>;
export type PotentialDuplicate = z.infer<typeof PotentialDuplicate>;
export type ScrapedEvent = z.infer<typeof ScrapedEvent>;
export type ScraperFilterOptions = z.infer<typeof ScraperFilterOptions>;
export type ScrapedEventCreate = z.infer<typeof ScrapedEventCreate>;
export type ScrapedEventReview = z.infer<typeof ScrapedEventReview>;
export type BatchDetectResult = z.infer<typeof BatchDetectResult>;
export type ScrapeRequest = z.infer<typeof ScrapeRequest>;
export type ScrapeResult = z.infer<typeof ScrapeResult>;
export type ScraperStats = z.infer<typeof ScraperStats>;
