import type { JobPayload } from '@wcs/contract';
import { sharedAnalysisPool } from '../analysis/pool.js';
import type { AppDeps } from '../deps.js';
import {
  analyseSong,
  outdatedSongsWithoutJob,
  poolAnalyser,
  type SongAnalysisOutcome,
  scheduleAfterAnalysis,
  sendAnalyzeJobs,
} from '../services/library/analysis.js';

/**
 * 'song.analyze': analyses one song's file in the process's analysis thread pool and stores the
 * values (services/library/analysis.ts). Safe to re-run: a job for a song that is already current is
 * skipped (unless asked for by hand), and an undecodable file ends as an error on the song, not
 * as a failed job. When no analysis is left waiting, the playlists are regenerated.
 */
export async function analyzeSongJob(
  deps: AppDeps,
  data: JobPayload<'song.analyze'>,
): Promise<SongAnalysisOutcome> {
  const analyser = poolAnalyser(sharedAnalysisPool(deps.config.analysisWorkers), deps.config.ffmpegPath);
  const outcome = await analyseSong({ db: deps.db, analyser }, data.song_id, {
    isOnlyIfOutdated: data.reason !== 'manual',
  });
  if (outcome.status === 'analyzed') await scheduleAfterAnalysis(deps);
  return outcome;
}

/**
 * Starts one 'song.analyze' worker per analysis thread (WCS_ANALYSIS_WORKERS), so that many songs
 * are analysed at once, and queues every outdated song. The queueing runs in the background: after
 * an analyser upgrade it sends one job per song of the library, which must not delay the start.
 */
export async function registerAnalyzeSongJob(deps: AppDeps): Promise<void> {
  for (let worker = 0; worker < deps.config.analysisWorkers; worker += 1) {
    await deps.jobs.work('song.analyze', async (data) => {
      await analyzeSongJob(deps, data);
    });
  }
  // Which songs is decided now (one query); only the sending goes on in the background.
  const outdated = await outdatedSongsWithoutJob(deps.db);
  sendAnalyzeJobs(deps.jobs, outdated, 'outdated').catch((error: Error) => {
    // A stop during the queueing ends it early; the next start queues the rest.
    if (deps.config.logLevel !== 'silent')
      console.error(`[wcs] Queueing outdated analyses: ${error.message}`);
  });
}
