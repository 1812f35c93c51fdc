import type { AppDeps } from '../deps.js';
import { processRecordingJob } from './process-recording.js';

/** Starts a worker for every job this process handles. */
export async function registerJobHandlers(deps: AppDeps): Promise<void> {
  await deps.jobs.work('recording.process', (data) => processRecordingJob(deps, data));
}
