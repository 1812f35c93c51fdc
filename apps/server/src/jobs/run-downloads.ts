import type { JobPayload } from '@wcs/contract';
import type { AppDeps } from '../deps.js';
import { runDownloads } from '../services/downloads/worker.js';

/**
 * 'downloads.run': the download worker (services/downloads/worker.ts). Safe to re-run: entries
 * are claimed pending → downloading one at a time, inbox files are handled under a lock, and an
 * entry a crashed run left downloading is put back to pending by the next run's start.
 */
export async function runDownloadsJob(deps: AppDeps, data: JobPayload<'downloads.run'>): Promise<void> {
  // A change of Settings handles the inbox (files dropped while it was off), and starts no download.
  await runDownloads(deps, {
    ...(data.queue_id === undefined ? {} : { queueId: data.queue_id }),
    inboxOnly: data.reason === 'settings',
  });
}
