import type { JobPayload } from '@wcs/contract';
import type { AppDeps } from '../deps.js';
import { markRecordingUnprocessable } from '../services/recordings.js';

/**
 * Recognises the songs of a recording. No recogniser exists on this server yet, so the job says
 * so plainly on the recording (it shows as Failed with this reason) instead of pretending.
 */
export async function processRecordingJob(
  deps: AppDeps,
  data: JobPayload<'recording.process'>,
): Promise<void> {
  await markRecordingUnprocessable(
    deps,
    data.recording_id,
    'No recogniser is configured on this server yet, so no songs were recognised. The audio is kept; use Retry once recognition is available.',
  );
}
