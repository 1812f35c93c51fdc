/**
 * Analysis of the whole library in one go (`wcs library analyze`): every song with a file, or only
 * the outdated ones, through the analysis thread pool, with progress and a summary (analysed,
 * failed with reasons, time, and speed as times real time). Each song is stored as soon as it is
 * done (services/library/analysis.ts), so an interrupted run keeps what it finished.
 */
import { eq } from 'drizzle-orm';
import { ANALYSIS_VERSION } from '../../audio/analysis/index.js';
import type { Db } from '../../db/client.js';
import { songs } from '../../db/schema.js';
import { analyseSong, outdatedCondition, type SongAnalyser, type SongAnalysisOutcome } from './analysis.js';

export interface LibraryAnalysisProgress {
  /** Songs handled so far, including this one. */
  done: number;
  total: number;
  outcome: SongAnalysisOutcome;
}

export interface LibraryAnalysisOptions {
  /** Only songs not analysed by the current analyser (default: every song with a file). */
  isOutdatedOnly?: boolean;
  /** Songs analysed at once; the pool's size (more only waits in its queue). */
  concurrency: number;
  onProgress?: (progress: LibraryAnalysisProgress) => void;
}

export interface LibraryAnalysisSummary {
  /** Songs the run looked at. */
  songs: number;
  analyzed: number;
  /** Files that could not be analysed, with the reason stored on the song. */
  failed: Array<{ song_id: number; file: string; reason: string }>;
  /** Songs that changed under the run (file gone or replaced meanwhile). */
  skipped: number;
  /** Wall time of the run, in seconds. */
  seconds: number;
  /** Length of the audio analysed, in seconds. */
  audio_seconds: number;
  /** Audio seconds per second of wall time (all threads together); null before any song. */
  times_real_time: number | null;
  /** Audio seconds per second of analysis time in one thread: the speed of one core. */
  times_real_time_per_thread: number | null;
  threads: number;
  analysis_version: string;
}

const ratio = (audio: number, seconds: number) =>
  seconds > 0 ? Math.round((audio / seconds) * 10) / 10 : null;

export async function analyseLibrary(
  deps: { db: Db; analyser: SongAnalyser },
  options: LibraryAnalysisOptions,
): Promise<LibraryAnalysisSummary> {
  const startedAt = performance.now();
  const rows = await deps.db
    .select({ id: songs.id })
    .from(songs)
    .where(options.isOutdatedOnly ? outdatedCondition() : eq(songs.filePresent, true))
    .orderBy(songs.id);
  const summary: LibraryAnalysisSummary = {
    songs: rows.length,
    analyzed: 0,
    failed: [],
    skipped: 0,
    seconds: 0,
    audio_seconds: 0,
    times_real_time: null,
    times_real_time_per_thread: null,
    threads: options.concurrency,
    analysis_version: ANALYSIS_VERSION,
  };
  let threadSeconds = 0;
  let next = 0;
  let done = 0;
  const runner = async () => {
    while (next < rows.length) {
      const songId = rows[next++]!.id;
      const outcome = await analyseSong(deps, songId);
      if (outcome.status === 'analyzed') {
        summary.analyzed += 1;
        // Speed counts only songs whose length the analyser reported.
        if (outcome.audioSeconds !== null) {
          summary.audio_seconds += outcome.audioSeconds;
          threadSeconds += outcome.elapsedMs / 1000;
        }
      } else if (outcome.status === 'failed') {
        summary.failed.push({ song_id: songId, file: outcome.file, reason: outcome.reason });
      } else {
        summary.skipped += 1;
      }
      done += 1;
      options.onProgress?.({ done, total: rows.length, outcome });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, runner));
  summary.seconds = Math.round((performance.now() - startedAt) / 100) / 10;
  summary.audio_seconds = Math.round(summary.audio_seconds * 10) / 10;
  summary.times_real_time = ratio(summary.audio_seconds, (performance.now() - startedAt) / 1000);
  summary.times_real_time_per_thread = ratio(summary.audio_seconds, threadSeconds);
  return summary;
}
