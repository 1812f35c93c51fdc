/**
 * Audio analysis of the library's songs: what is stored from an analysis, when a song is outdated,
 * and the queueing of 'song.analyze' jobs. The analysis itself runs in worker threads (a
 * `SongAnalyser`, normally the analysis pool); this module only talks to the database and the job
 * queue, so it is tested against a real database with a real pool.
 *
 * A song is outdated when it has a file and its analysis_version differs from ANALYSIS_VERSION
 * (never analysed, or by another analyser): a changed analyser re-analyses exactly those. Values
 * the demo generator wrote are the exception (see DEMO_VERSION_PREFIX). A file
 * that cannot be decoded keeps analyzed_at as it was (null for a new song) and gets a reason in
 * analysis_error; as its version stays outdated it is tried again at the next start or request.
 */
import fs from 'node:fs/promises';
import type { AnalysisStatus } from '@wcs/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AnalysisTaskResult } from '../../analysis/analysis-task.js';
import type { AnalysisPool } from '../../analysis/pool.js';
import { WorkerCrashError, WorkerTaskError } from '../../analysis/worker-pool.js';
import { ANALYSIS_VERSION } from '../../audio/analysis/index.js';
import type { Db } from '../../db/client.js';
import { DEMO_VERSION_PREFIX, songs } from '../../db/schema.js';
import type { JobQueue } from '../../deps.js';
import { sourcesOf } from '../metadata/sources.js';
import { sendCoalesced } from '../recompute-schedule.js';
import { analysisCounts } from '../song-counts.js';
import type { SongImportedHook } from './library-import.js';

/** Analyses one file (decode + analysis), normally in a thread of the analysis pool. */
export type SongAnalyser = (file: string) => Promise<AnalysisTaskResult>;

/** The analyser that runs files through `pool`. */
export function poolAnalyser(pool: AnalysisPool, ffmpegPath: string): SongAnalyser {
  return (file) => pool.run({ file, ffmpegPath });
}

/** Longest analysis_error kept (ffmpeg's last lines are enough to act on). */
const MAX_ERROR_LENGTH = 1000;

/** The values a songs row keeps from an analysis, rounded and clamped to the columns' ranges. */
export interface StoredAnalysis {
  bpm: number | null;
  bpmAlt: number | null;
  musicalKey: string | null;
  keyConfidence: number | null;
  energyLevel: number | null;
  danceability: number | null;
  valence: number | null;
  features: Record<string, number>;
  analysisVersion: string;
}

/** One decimal, and null for anything that is not a positive tempo (silence gives none). */
export function roundBpm(bpm: number | null): number | null {
  if (bpm === null || !Number.isFinite(bpm) || bpm <= 0) return null;
  return Math.round(bpm * 10) / 10;
}

/** A whole number on the 0-1000 scale, or null. */
export function toScale1000(value: number | null): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  return Math.min(1000, Math.max(0, Math.round(value)));
}

export function toStoredAnalysis(result: AnalysisTaskResult['analysis']): StoredAnalysis {
  // JSON has no NaN or Infinity: a feature that is not a number is left out rather than corrupted.
  const features = Object.fromEntries(
    Object.entries(result.features).filter(
      ([, value]) => typeof value === 'number' && Number.isFinite(value),
    ),
  );
  return {
    bpm: roundBpm(result.bpm),
    bpmAlt: roundBpm(result.bpm_alt),
    musicalKey: result.key,
    keyConfidence:
      result.key_confidence === null || !Number.isFinite(result.key_confidence)
        ? null
        : Math.min(1, Math.max(0, result.key_confidence)),
    energyLevel: toScale1000(result.energy),
    danceability: toScale1000(result.danceability),
    valence: toScale1000(result.valence),
    features,
    analysisVersion: result.analysis_version,
  };
}

/** The analysed values of a stored analysis under their contract names, for Song.sources. */
function storedValues(stored: StoredAnalysis): Record<string, unknown> {
  return {
    bpm: stored.bpm,
    key: stored.musicalKey,
    energy_level: stored.energyLevel,
    danceability: stored.danceability,
    valence: stored.valence,
  };
}

/**
 * What a DJ set by hand survives a re-analysis (decided in the UPDATE itself, so a choice made
 * while the file was being analysed is kept too): a DJ's bpm stays, and bpm_alt becomes the
 * analyser's other reading (its bpm_alt when the DJ's bpm is the analyser's own, else the
 * analyser's bpm, so one click returns to it); a DJ's key stays.
 */
function keepDjChoices(stored: StoredAnalysis) {
  const newBpm = stored.bpm === null ? sql`null::real` : sql`${stored.bpm}::real`;
  const newAlt = stored.bpmAlt === null ? sql`null::real` : sql`${stored.bpmAlt}::real`;
  const bpmByDj = sql`(${songs.fieldSources}->>'bpm' = 'dj' and ${songs.bpm} is not null)`;
  const keyByDj = sql`(${songs.fieldSources}->>'key' = 'dj' and ${songs.musicalKey} is not null)`;
  return {
    bpm: sql`case when ${bpmByDj} then ${songs.bpm} else ${newBpm} end`,
    bpmAlt: sql`case when not ${bpmByDj} then ${newAlt}
      when ${newBpm} is not null and abs(${songs.bpm} - ${newBpm}) <= ${BPM_SAME_FRACTION} * ${songs.bpm} then ${newAlt}
      else ${newBpm} end`,
    musicalKey: sql`case when ${keyByDj} then ${songs.musicalKey} else ${stored.musicalKey}::text end`,
  };
}

/**
 * The sources of the analysed values merged into the stored ones, except a BPM or key the DJ set,
 * which keeps its source 'dj' (keepDjChoices keeps the value).
 */
function analysedSources(stored: StoredAnalysis): SQL {
  const entries = JSON.stringify(sourcesOf(storedValues(stored), 'analyser'));
  return sql`${songs.fieldSources} || (${entries}::jsonb
    - (case when ${songs.fieldSources}->>'bpm' = 'dj' and ${songs.bpm} is not null then 'bpm' else '' end)
    - (case when ${songs.fieldSources}->>'key' = 'dj' and ${songs.musicalKey} is not null then 'key' else '' end))`;
}

/** Two tempi within 4 % of each other are one reading (the MIR literature's Accuracy1 tolerance). */
export const BPM_SAME_FRACTION = 0.04;

/** The song's file is missing or unreadable: said as it is, before any decoding is tried. */
class UnreadableFileError extends Error {}

/** A reason a person can act on, from whatever the analyser threw. */
export function analysisErrorReason(error: unknown): string {
  let reason: string;
  if (error instanceof UnreadableFileError) {
    reason = error.message;
  } else if (error instanceof WorkerTaskError && error.originalName === 'DecodeError') {
    reason = `the file could not be decoded (${error.message})`;
  } else if (error instanceof WorkerCrashError) {
    reason = `${error.message}; the file may be damaged or too large`;
  } else {
    reason = `the analysis failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  return reason.length > MAX_ERROR_LENGTH ? `${reason.slice(0, MAX_ERROR_LENGTH - 1)}…` : reason;
}

export type SongAnalysisOutcome =
  | {
      status: 'analyzed';
      songId: number;
      file: string;
      stored: StoredAnalysis;
      elapsedMs: number;
      /** Length of the audio; null when the analyser did not report it. */
      audioSeconds: number | null;
    }
  | { status: 'failed'; songId: number; file: string; reason: string }
  /** Nothing to do: the song is gone, has no file, is already current, or its file changed meanwhile. */
  | { status: 'skipped'; songId: number; reason: string };

export interface AnalyseSongOptions {
  /** Analyse only when outdated (a job queued earlier may find the song already done). */
  isOnlyIfOutdated?: boolean;
}

/**
 * Analyses a song's file and stores the result: bpm (one decimal), key, energy, danceability,
 * valence, the raw features, analysis_version, analyzed_at and the measured analysis time, and
 * clears analysis_error. A file that cannot be analysed sets analysis_error and changes nothing
 * else. Never throws for a bad file; database errors do throw (the job is then retried).
 */
export async function analyseSong(
  deps: { db: Db; analyser: SongAnalyser },
  songId: number,
  options: AnalyseSongOptions = {},
): Promise<SongAnalysisOutcome> {
  const [song] = await deps.db
    .select({
      filePath: songs.filePath,
      filePresent: songs.filePresent,
      contentHash: songs.contentHash,
      analysisVersion: songs.analysisVersion,
    })
    .from(songs)
    .where(eq(songs.id, songId));
  if (!song) return { status: 'skipped', songId, reason: 'the song no longer exists' };
  if (!song.filePresent || song.filePath === null) {
    return { status: 'skipped', songId, reason: 'the song has no file' };
  }
  if (options.isOnlyIfOutdated && song.analysisVersion === ANALYSIS_VERSION) {
    return { status: 'skipped', songId, reason: 'already analysed by the current analyser' };
  }
  const file = song.filePath;
  // The row is written only if it still holds the file that was analysed.
  const sameFile = and(
    eq(songs.id, songId),
    eq(songs.filePath, file),
    song.contentHash === null ? sql`${songs.contentHash} is null` : eq(songs.contentHash, song.contentHash),
  );

  let result: AnalysisTaskResult;
  try {
    await fs.access(file, fs.constants.R_OK).catch((error: NodeJS.ErrnoException) => {
      throw new UnreadableFileError(
        error.code === 'ENOENT'
          ? `the file is gone from ${file}; import its folder again to update the library`
          : `the file cannot be read (${error.code ?? error.message}): ${file}`,
      );
    });
    result = await deps.analyser(file);
  } catch (error) {
    const reason = analysisErrorReason(error);
    const updated = await deps.db
      .update(songs)
      .set({ analysisError: reason })
      .where(sameFile)
      .returning({ id: songs.id });
    if (updated.length === 0)
      return { status: 'skipped', songId, reason: 'the file changed during the analysis' };
    return { status: 'failed', songId, file, reason };
  }

  const stored = toStoredAnalysis(result.analysis);
  const updated = await deps.db
    .update(songs)
    .set({
      ...stored,
      ...keepDjChoices(stored),
      fieldSources: analysedSources(stored),
      analyzedAt: new Date(),
      analysisDurationMs: Math.max(0, Math.round(result.elapsedMs)),
      analysisError: null,
    })
    .where(sameFile)
    .returning({ id: songs.id });
  if (updated.length === 0)
    return { status: 'skipped', songId, reason: 'the file changed during the analysis' };
  return {
    status: 'analyzed',
    songId,
    file,
    stored,
    elapsedMs: result.elapsedMs,
    audioSeconds: result.audioSeconds,
  };
}

/**
 * Songs with a file whose analysis is missing or was made by another analyser version. Demo songs
 * (DEMO_VERSION_PREFIX) are never outdated: analysing their placeholder tone would replace the
 * generated values with noise (`wcs library analyze` without --outdated still redoes them if asked).
 * services/song-counts.ts counts the same condition over its groups (outdatedGroup).
 */
export function outdatedCondition(): SQL {
  return sql`(${songs.filePresent} and ${songs.analysisVersion} is distinct from ${ANALYSIS_VERSION}
    and coalesce(${songs.analysisVersion} not like ${`${DEMO_VERSION_PREFIX}%`}, true))`;
}

/** 'song.analyze' jobs waiting or running (pg-boss keeps its jobs in the pgboss schema). */
const PENDING_STATES = sql.raw(`('created', 'retry', 'active')`);

/**
 * True for a song that has no waiting or running analysis job. The songs column is written out in
 * full: drizzle may render a column without its table, which inside this subquery would be j.id.
 */
const hasNoPendingJob = sql`not exists (
  select 1 from pgboss.job j
  where j.name = 'song.analyze' and j.state in ${PENDING_STATES} and (j.data->>'song_id')::int = "songs"."id"
)`;

type JobSender = Pick<JobQueue, 'send'>;

/** Jobs sent at once while queueing many songs (pg-boss's own pool has 4 connections). */
const SEND_CONCURRENCY = 4;

/** Outdated songs that have no analysis job waiting or running, by id. */
export async function outdatedSongsWithoutJob(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: songs.id })
    .from(songs)
    .where(and(outdatedCondition(), hasNoPendingJob))
    .orderBy(songs.id);
  return rows.map((row) => row.id);
}

/** Sends one 'song.analyze' job per song; returns how many were queued. */
export async function sendAnalyzeJobs(
  jobs: JobSender,
  songIds: readonly number[],
  reason: 'outdated' | 'import' | 'manual',
): Promise<number> {
  let queued = 0;
  for (let start = 0; start < songIds.length; start += SEND_CONCURRENCY) {
    const batch = songIds.slice(start, start + SEND_CONCURRENCY);
    const ids = await Promise.all(
      batch.map((songId) => jobs.send('song.analyze', { song_id: songId, reason })),
    );
    queued += ids.filter((id) => id !== null).length;
  }
  return queued;
}

/** Sends a 'song.analyze' job for every outdated song that has none waiting or running. */
export async function queueOutdatedAnalyses(
  deps: { db: Db; jobs: JobSender },
  reason: 'outdated' | 'import' | 'manual' = 'outdated',
): Promise<number> {
  return sendAnalyzeJobs(deps.jobs, await outdatedSongsWithoutJob(deps.db), reason);
}

/**
 * The import hook: a song whose file content changed loses its analysis version (its values
 * describe the old file, and it becomes outdated); with a job queue, every outdated song the import
 * touched gets a 'song.analyze' job. Without one (the command line) the server queues it at start.
 */
export function analysisImportHook(deps: { db: Db; jobs?: JobSender }): SongImportedHook {
  return async (song) => {
    if (song.change === 'content_changed') {
      await deps.db.update(songs).set({ analysisVersion: null }).where(eq(songs.id, song.songId));
    }
    if (!deps.jobs) return;
    const [row] = await deps.db
      .select({ id: songs.id })
      .from(songs)
      .where(and(eq(songs.id, song.songId), outdatedCondition(), hasNoPendingJob));
    if (row) await deps.jobs.send('song.analyze', { song_id: row.id, reason: 'import' });
  };
}

/**
 * After an analysis: once no analysis is waiting, playlists are regenerated (they hold analysed
 * songs only, by energy), coalesced like the score recompute's follow-ups. Scores do not depend
 * on analysis values, so no recompute is asked for.
 */
export async function scheduleAfterAnalysis(deps: { db: Db; jobs: JobSender }): Promise<boolean> {
  const result = await deps.db.execute<{ waiting: number }>(sql`
    select count(*)::int as waiting from pgboss.job
    where name = 'song.analyze' and state in ('created', 'retry')
  `);
  if ((result.rows[0]?.waiting ?? 0) > 0) return false;
  return sendCoalesced(deps.jobs, 'playlists.regenerate', { reason: 'songs analysed' });
}

/** Songs that failed their last analysis, most recent song first, for the status view. */
const LISTED_FAILURES = 20;

/** GET /api/analysis/status: counts of the library's analysis state and of the job queue. */
export async function analysisStatus(db: Db): Promise<AnalysisStatus> {
  // From the summary song_counts (services/song-counts.ts), not a scan of every song.
  const counts = await analysisCounts(db);
  const [jobs] = (
    await db.execute<{ pending: number; running: number }>(sql`
      select count(distinct (data->>'song_id'))::int as pending,
             (count(distinct (data->>'song_id')) filter (where state = 'active'))::int as running
      from pgboss.job
      where name = 'song.analyze' and state in ${PENDING_STATES}
    `)
  ).rows;
  const failures = await db
    .select({ song_id: songs.id, title: songs.title, artist: songs.artist, error: songs.analysisError })
    .from(songs)
    // The partial index songs_analysis_failures_idx: this condition, written as its predicate.
    .where(sql`${songs.analysisError} is not null and ${songs.filePresent}`)
    .orderBy(sql`${songs.id} desc`)
    .limit(LISTED_FAILURES);
  return {
    total_songs: counts.total,
    analyzed: counts.analyzed,
    pending: jobs?.pending ?? 0,
    running: jobs?.running ?? 0,
    failed: counts.failed,
    outdated: counts.outdated,
    no_file: counts.no_file,
    analysis_version: ANALYSIS_VERSION,
    failures: failures.map((row) => ({ ...row, error: row.error ?? '' })),
  };
}
