import type { JobPayload } from '@wcs/contract';
import type { AppDeps } from '../deps.js';
import { sendCoalesced } from '../services/recompute-schedule.js';
import { recomputeScores, vacuumSongsAfterRecompute } from '../services/scores.js';

/**
 * 'scores.recompute': recomputes every song's exposure, overplay score and download priority,
 * then asks for a download enqueue and a playlist regeneration, both of which read the new
 * scores. Safe to re-run: the recompute writes only values that change. A recompute that rewrote
 * many songs vacuums their table (`vacuumSongsAfterRecompute`), so the exports read it from its
 * index alone again before autovacuum would.
 */
export async function recomputeScoresJob(deps: AppDeps, data: JobPayload<'scores.recompute'>): Promise<void> {
  const { songsUpdated } = await recomputeScores(deps.db);
  await vacuumSongsAfterRecompute(deps.db, songsUpdated, (message) => console.error(`[wcs] ${message}`));
  await sendCoalesced(deps.jobs, 'downloads.enqueue', {});
  await sendCoalesced(deps.jobs, 'playlists.regenerate', { reason: `scores recomputed (${data.reason})` });
}
