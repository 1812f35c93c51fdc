import type { JobPayload } from '@wcs/contract';
import type { AppDeps } from '../deps.js';
import { processRecording } from '../services/recognition/recognition.js';
import { markRecordingUnprocessable } from '../services/recordings/recordings.js';

/**
 * Recognises the songs of a recording: the chunk just uploaded (with the tail of the one before),
 * or the whole recording on Retry. Safe to run again: merging is idempotent and a rebuild replaces
 * the recording's plays. An unexpected failure is written on the recording (it shows as Failed,
 * with Retry) instead of crashing the worker.
 */
export async function processRecordingJob(
  deps: AppDeps,
  data: JobPayload<'recording.process'>,
): Promise<void> {
  try {
    await processRecording(deps, data.recording_id, data.reason === 'retry' ? undefined : data.chunk_number);
  } catch (error) {
    await markRecordingUnprocessable(
      deps,
      data.recording_id,
      `Recognition failed: ${(error as Error).message}. The audio is kept; use Retry.`,
    );
  }
}
