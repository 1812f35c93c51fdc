import type { JobPayload } from '@wcs/contract';
import { DecodeError } from '../audio/decode.js';
import { FINGERPRINT_VERSION, fingerprintSong } from '../audio/fingerprint/index.js';
import { poolOf } from '../audio/fingerprint/store.js';
import { DEMO_VERSION_PREFIX } from '../demo/generate.js';
import type { AppDeps } from '../deps.js';

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
  const { rows } = await poolOf(deps.db).query<{
    file_path: string | null;
    file_present: boolean;
    fingerprint_version: string | null;
  }>('select file_path, file_present, fingerprint_version from songs where id = $1', [data.song_id]);
  const song = rows[0];
  if (!song?.file_present || !song.file_path || song.fingerprint_version === FINGERPRINT_VERSION)
    return 'skipped';
  try {
    await fingerprintSong(deps, { songId: data.song_id, filePath: song.file_path });
    return 'fingerprinted';
  } catch (error) {
    if (error instanceof DecodeError) return 'failed';
    throw error;
  }
}

/**
 * Songs to (re)index: a file, no current fingerprints, no earlier failure, no job waiting, and not
 * a demo song (its file is a placeholder tone, not music anyone plays).
 */
export async function outdatedFingerprintSongs(deps: Pick<AppDeps, 'db'>): Promise<number[]> {
  const { rows } = await poolOf(deps.db).query<{ id: number }>(
    `select s.id from songs s
      where s.file_present and s.file_path is not null and s.fingerprint_error is null
        and s.fingerprint_version is distinct from $1
        and coalesce(s.analysis_version not like $2, true)
        and not exists (select 1 from pgboss.job j where j.name = 'song.fingerprint'
                          and j.state in ('created', 'retry', 'active') and (j.data->>'song_id')::int = s.id)
      order by s.id`,
    [FINGERPRINT_VERSION, `${DEMO_VERSION_PREFIX}%`],
  );
  return rows.map((row) => row.id);
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
