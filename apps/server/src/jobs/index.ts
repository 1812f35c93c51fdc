import type { AppDeps } from '../deps.js';
import { watchInbox } from '../services/downloads/inbox.js';
import { registerAnalyzeSongJob } from './analyze-song.js';
import { enqueueDownloadsJob } from './enqueue-downloads.js';
import { registerFingerprintSongJob } from './fingerprint-song.js';
import { lookupMetadataJob } from './lookup-metadata.js';
import { processRecordingJob } from './process-recording.js';
import { recomputeScoresJob } from './recompute-scores.js';
import { regeneratePlaylistsJob } from './regenerate-playlists.js';
import { runDownloadsJob } from './run-downloads.js';
import { scheduleScrapeEvents, scrapeEventsJob } from './scrape-events.js';

/**
 * Starts a worker for every job this process handles, and the inbox folder's watcher; returns
 * what stops the watcher (the job queue is stopped by its owner).
 */
export async function registerJobHandlers(
  deps: AppDeps,
  log: (message: string) => void = () => {},
): Promise<() => Promise<void>> {
  await deps.jobs.work('recording.process', (data) => processRecordingJob(deps, data));
  await deps.jobs.work('scores.recompute', (data) => recomputeScoresJob(deps, data));
  await deps.jobs.work('downloads.enqueue', () => enqueueDownloadsJob(deps));
  await deps.jobs.work('playlists.regenerate', () => regeneratePlaylistsJob(deps));
  await deps.jobs.work('song.lookup-metadata', (data) => lookupMetadataJob(deps, data));
  await deps.jobs.work('scraper.scrape', (data) => scrapeEventsJob(deps, data));
  await registerAnalyzeSongJob(deps);
  await registerFingerprintSongJob(deps);
  await deps.jobs.work('downloads.run', (data) => runDownloadsJob(deps, data));
  await scheduleScrapeEvents(deps);
  const inbox = await watchInbox(deps, log);
  return () => inbox.close();
}
