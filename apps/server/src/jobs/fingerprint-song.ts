import type { JobPayload } from '@wcs/contract';
import type { AppDeps } from '../deps.js';
import { fingerprintSongIfOutdated, outdatedFingerprintSongs } from '../services/library/fingerprints.js';

/**
 * 'song.fingerprint': (re)indexes one song's file for recognition. At start, every song with a
 * file whose fingerprints are missing or of an older engine version (and that did not fail
 * before) gets a job, so upgrading the engine re-indexes the library in the background. Safe to
 * re-run: a song already current is skipped; an undecodable file ends as songs.fingerprint_error,
 * not as a failed job.
 */
export async function fingerprintSongJob(
  deps: Pick<AppDeps, 'db' | 'config'>,
  data: JobPayload<'song.fingerprint'>,
): Promise<'fingerprinted' | 'skipped' | 'failed'> {
  return fingerprintSongIfOutdated(deps, data.song_id);
}

/** Starts the worker and queues the outdated songs in the background (never delaying the start). */
export async function registerFingerprintSongJob(deps: AppDeps): Promise<void> {
  await deps.jobs.work('song.fingerprint', async (data) => {
    await fingerprintSongJob(deps, data);
  });
  const outdated = await outdatedFingerprintSongs(deps);
  (async () => {
    for (const songId of outdated) await deps.jobs.send('song.fingerprint', { song_id: songId });
  })().catch((error: Error) => {
    if (deps.config.logLevel !== 'silent')
      console.error(`[wcs] Queueing outdated fingerprints: ${error.message}`);
  });
}
