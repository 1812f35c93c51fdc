import type { AppDeps } from '../deps.js';
import { enqueueDownloadsIfEnabled } from '../services/downloads.js';

/**
 * 'downloads.enqueue': puts the download candidates into the queue when downloads are enabled in
 * Settings (otherwise nothing). Safe to re-run: entries are upserted by song.
 */
export async function enqueueDownloadsJob(deps: AppDeps): Promise<void> {
  await enqueueDownloadsIfEnabled(deps);
}
