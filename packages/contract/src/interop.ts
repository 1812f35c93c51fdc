import { z } from 'zod';
import { DbId, Id, QueryBool } from './common.js';
import { SongFilterQuery } from './entities.js';

/**
 * Importing a DJ program's library and history, and exporting songs back to it (docs/interop.md,
 * "Importing into the product"). The server's readers and writers
 * (apps/server/src/providers/dj-software/types.ts) are keyed by this list.
 */

/** Every format the server reads. */
export const DJ_IMPORT_FORMATS = [
  'rekordbox-xml',
  'traktor-nml',
  'virtualdj-database',
  'virtualdj-m3u',
  'serato-crate',
  'serato-session',
  'serato-history-csv',
  'serato-database',
  'engine-dj',
  'mixxx',
  'm3u8',
  'csv',
] as const;
export const DjImportFormat = z.enum(DJ_IMPORT_FORMATS);
export type DjImportFormat = z.infer<typeof DjImportFormat>;

/** The formats the server writes. */
export const DJ_EXPORT_FORMATS = [
  'rekordbox-xml',
  'traktor-nml',
  'serato-crate',
  'virtualdj-m3u',
  'm3u8',
  'csv',
] as const;
export const DjExportFormat = z.enum(DJ_EXPORT_FORMATS);
export type DjExportFormat = z.infer<typeof DjExportFormat>;

/** How a track of the file found its song (docs/interop.md, "Matching"). */
export const TRACK_MATCH_KINDS = [
  'path',
  'content_hash',
  'name',
  'fingerprint',
  'new_song',
  'unmatched',
] as const;
export const TrackMatchKind = z.enum(TRACK_MATCH_KINDS);
export type TrackMatchKind = z.infer<typeof TrackMatchKind>;

const TimeZoneName = z
  .string()
  .max(64)
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be an IANA time zone such as Europe/Berlin' },
  );

/**
 * A path prefix as the DJ program wrote it (`from`, e.g. `C:/Music/`) and where the same files are
 * on this server (`to`, e.g. `/srv/music/`). Windows-looking prefixes compare without regard to
 * case and to the slash direction.
 */
export const PathMapping = z.object({
  from: z.string().trim().min(1, 'give the prefix the DJ program wrote').max(1024),
  to: z.string().trim().min(1, 'give the folder on this server').max(1024),
});
export type PathMapping = z.infer<typeof PathMapping>;

/** Columns of a CSV file, by header (see docs/interop.md, "CSV"); title and artist at least. */
export const CsvMapping = z.object({
  title: z.string().min(1).max(200),
  artist: z.string().min(1).max(200),
  album: z.string().min(1).max(200).optional(),
  genre: z.string().min(1).max(200).optional(),
  location: z.string().min(1).max(200).optional(),
  durationSeconds: z.string().min(1).max(200).optional(),
  bpm: z.string().min(1).max(200).optional(),
  musicalKey: z.string().min(1).max(200).optional(),
  playCount: z.string().min(1).max(200).optional(),
  dateAdded: z.string().min(1).max(200).optional(),
  rating: z.string().min(1).max(200).optional(),
  playedAt: z.string().min(1).max(200).optional(),
});
export type CsvMapping = z.infer<typeof CsvMapping>;

/** How a file is read and what an import adds; every field is optional. */
export const InteropOptions = z.object({
  /** The file's format when its name and content do not say it (detected otherwise). */
  format: DjImportFormat.optional(),
  /**
   * IANA zone of the DJ's computer, for formats that write wall-clock times (Traktor history,
   * VirtualDJ, Serato CSV, CSV); by default the chosen event's zone, else the server's.
   */
  time_zone: TimeZoneName.optional(),
  /** Path prefixes of the DJ's computer and where the same files are on this server. */
  path_mappings: z.array(PathMapping).max(50).default([]),
  /** CSV: which column holds which field; by default the columns of the server's own CSV export. */
  csv_mapping: CsvMapping.optional(),
  /** The history sessions to import, by their `index` in the preview; all by default. */
  sessions: z.array(z.number().int().min(0).max(1_000_000)).max(10_000).optional(),
  /** Put every imported session into this event; by default each goes to the event that contains its night. */
  event_id: DbId.optional(),
  /** A session outside every event gets a new event for its day (true, default) or is skipped. */
  create_events: z.boolean().default(true),
  /**
   * Which unmatched tracks become songs without a file: every track of the file (`all`, default),
   * only the tracks of the imported history (`history`), or none.
   */
  new_songs: z.enum(['all', 'history', 'none']).default('all'),
  /**
   * Sessions whose file keeps only the date and the order (rekordbox XML history) start at this
   * local time (HH:MM); by default the usual start of the event's nights, else 21:00.
   */
  night_start: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM such as 21:00')
    .optional(),
});
export type InteropOptions = z.infer<typeof InteropOptions>;
export type InteropOptionsInput = z.input<typeof InteropOptions>;

/**
 * The JSON body of preview and import: a file or folder on the server (admins only), inside the
 * library roots (WCS_LIBRARY_ROOTS), with the options. An upload sends the file as the multipart
 * part `file` and these options (without `path`) as the JSON text field `options`.
 */
export const InteropPathRequest = InteropOptions.extend({
  /** Absolute path of a DJ program's file or folder inside the server's library roots. */
  path: z.string().trim().min(1, 'name the file or folder to read').max(4096),
});
export type InteropPathRequest = z.infer<typeof InteropPathRequest>;

export const InteropFile = z.object({
  /** The file's name (an upload) or its path relative to the folder read. */
  name: z.string(),
  format: DjImportFormat,
});

export const InteropSession = z.object({
  /** Position in the file's history: the `sessions` option names sessions by it. */
  index: z.number().int(),
  name: z.string(),
  /** The local day of the session (YYYY-MM-DD), when the file gives one. */
  date: z.string().nullable(),
  /** When it started (ISO 8601), when the file gives times. */
  started_at: z.string().nullable(),
  entries: z.number().int(),
  /** The file keeps no play times: plays are placed from the night's start and the track lengths. */
  estimated_times: z.boolean(),
  /** Whether this import takes the session (the `sessions` option). */
  selected: z.boolean(),
  /** The event its plays go to; null when none (see `skipped_reason`). */
  event_id: z.number().int().nullable(),
  event_name: z.string().nullable(),
  /** The event is made by this import (or would be, in a preview). */
  new_event: z.boolean(),
  /** Plays added (or that would be added). */
  plays: z.number().int(),
  /** Entries not added: imported before, already held by a play of the same song, or not placeable. */
  skipped: z.number().int(),
  /** Why the whole session adds nothing, when it does not. */
  skipped_reason: z.string().nullable(),
});
export type InteropSession = z.infer<typeof InteropSession>;

export const InteropTrackMatch = z.object({
  /** The track's id inside the file. */
  key: z.string(),
  title: z.string(),
  artist: z.string(),
  match: TrackMatchKind,
  /** The song it matched or became; null when unmatched (or a new song in a preview). */
  song_id: z.number().int().nullable(),
});
export type InteropTrackMatch = z.infer<typeof InteropTrackMatch>;

/** What a preview would do, or what an import did. The first counts are those of `wcs import --json`. */
export const InteropResult = z.object({
  /** True for a preview (POST /interop/preview, `wcs import --dry-run`): nothing was stored. */
  dry_run: z.boolean(),
  /** The format read; a folder with several gives them joined by '+'. */
  format: z.string(),
  tracks: z.number().int(),
  /** Tracks that found a song of the library (by path, content, name or fingerprint). */
  matched: z.number().int(),
  /** Tracks that became (or would become) songs without a file. */
  new_songs: z.number().int(),
  playlists: z.number().int(),
  history_sessions: z.number().int(),
  /** Plays added (or that would be added). */
  plays: z.number().int(),
  files: z.array(InteropFile),
  match_counts: z.object({
    path: z.number().int(),
    content_hash: z.number().int(),
    name: z.number().int(),
    fingerprint: z.number().int(),
    new_song: z.number().int(),
    unmatched: z.number().int(),
  }),
  /** Matched songs whose empty BPM or key the file's value filled (never an analysed value). */
  bpm_filled: z.number().int(),
  key_filled: z.number().int(),
  plays_skipped: z.object({
    /** Imported from this file before. */
    already_imported: z.number().int(),
    /** A play of the same song within a few minutes (same night for estimated times) exists. */
    already_held: z.number().int(),
    /** In a session that has no event (outside every event, and no new event wanted). */
    no_event: z.number().int(),
    /** In a session with neither times nor a date. */
    no_time: z.number().int(),
    /** Their track became no song (`new_songs` none or history-only). */
    no_song: z.number().int(),
  }),
  sessions: z.array(InteropSession),
  events_created: z.array(z.object({ event_id: z.number().int(), event_name: z.string() })),
  track_matches: z.array(InteropTrackMatch),
  /** Things a person may want to fix: files skipped in a folder, paths outside the library roots... */
  warnings: z.array(z.string()),
});
export type InteropResult = z.infer<typeof InteropResult>;

export const InteropExportParams = z.object({ format: DjExportFormat });

/** A path prefix on this server and what to write instead, as `FROM=TO` (repeatable). */
const ExportMappings = z
  .union([z.string(), z.array(z.string())])
  .transform((raw, ctx) => {
    const list = Array.isArray(raw) ? raw : [raw];
    const mappings: PathMapping[] = [];
    for (const item of list) {
      const at = item.indexOf('=');
      const from = at > 0 ? item.slice(0, at).trim() : '';
      const to = at > 0 ? item.slice(at + 1).trim() : '';
      if (from === '' || to === '' || from.length > 1024 || to.length > 1024) {
        ctx.addIssue({
          code: 'custom',
          message: 'write each mapping as FROM=TO, e.g. /srv/music/=C:/Music/',
        });
        return z.NEVER;
      }
      mappings.push({ from, to });
    }
    return mappings;
  })
  .pipe(z.array(PathMapping).max(50));

export const InteropExportQuery = SongFilterQuery.extend({
  /** One generated playlist; without it (and without event_id), the whole library with its analysis. */
  playlist_id: Id.optional(),
  /** The songs played at one event, in the order of their first play there. */
  event_id: Id.optional(),
  /**
   * The fresh songs pool (overplay score under the fresh bound, as GET /analytics/fresh-songs-pool
   * orders it: least overplayed first), the whole pool rather than its first page.
   */
  fresh_pool: QueryBool.optional(),
  /** Rewrites the server's paths for the DJ's computer: `map=/srv/music/=C:/Music/`. */
  map: ExportMappings.optional(),
});
