import { z } from 'zod';

/** Background jobs (pg-boss queues) and their payloads. Handlers must be safe to re-run. */
export const JobPayloads = {
  /** Recognise the songs of a recording (all its chunks, or from one chunk on). */
  'recording.process': z.object({
    recording_id: z.number().int(),
    reason: z.enum(['upload', 'retry']),
    /** The chunk just uploaded (recognise it, with the tail of the chunk before); absent: the whole recording. */
    chunk_number: z.number().int().min(0).optional(),
  }),
  /** Add a song's file to the fingerprint index (on import, or when the engine version changed). */
  'song.fingerprint': z.object({ song_id: z.number().int() }),
  /** Analyse a song's file: BPM, key, energy, danceability, valence (on import, or when outdated). */
  'song.analyze': z.object({ song_id: z.number().int(), reason: z.enum(['import', 'outdated', 'manual']) }),
  /** Look a song up in the metadata services (a new song without a file, or on demand). */
  'song.lookup-metadata': z.object({ song_id: z.number().int(), reason: z.enum(['new_song', 'manual']) }),
  /** Recompute overplay scores and download priorities (debounced after plays or settings change). */
  'scores.recompute': z.object({ reason: z.string() }),
  /** Put download candidates into the queue when downloads are enabled. */
  'downloads.enqueue': z.object({}),
  /**
   * Run the download worker: handle the files in the inbox, then try the pending entries (or the
   * one entry `queue_id`) with the providers, inside the daily caps.
   */
  'downloads.run': z.object({
    queue_id: z.number().int().optional(),
    reason: z.enum(['start', 'retry', 'schedule', 'settings']),
  }),
  /** Regenerate every playlist. */
  'playlists.regenerate': z.object({ reason: z.string() }),
  /** Fetch the events calendar. */
  'scraper.scrape': z.object({ url: z.string().optional() }),
} as const;

export type JobName = keyof typeof JobPayloads;
export type JobPayload<N extends JobName> = z.infer<(typeof JobPayloads)[N]>;
export const JOB_NAMES = Object.keys(JobPayloads) as JobName[];
