import type { JobPayload } from '@wcs/contract';
import type { AppDeps } from '../deps.js';
import { AppError } from '../services/errors.js';
import { lookupSongMetadata } from '../services/metadata/lookup.js';

/**
 * 'song.lookup-metadata': looks a song up in the metadata services (a new song without a file).
 * Safe to re-run: answers younger than the cache's age are reused, and values are only filled.
 * When every service asked failed (rate limited, unreachable), the job fails so pg-boss retries
 * it later with backoff; a song deleted meanwhile or lookups switched off end it quietly.
 */
export async function lookupMetadataJob(
  deps: AppDeps,
  data: JobPayload<'song.lookup-metadata'>,
): Promise<void> {
  if (deps.config.metadata.mode === 'off') return;
  try {
    const result = await lookupSongMetadata(deps, data.song_id);
    if (result.asked > 0 && result.errors.length === result.asked) {
      throw new Error(result.errors.map((error) => error.message).join('; '));
    }
  } catch (error) {
    if (error instanceof AppError && (error.status === 404 || error.status === 409)) return;
    throw error;
  }
}
