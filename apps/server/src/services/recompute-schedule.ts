import type { JobName, JobPayload } from '@wcs/contract';
import type { JobQueue } from '../deps.js';

/**
 * When the score recompute and its follow-ups run: after a quiet period, once for a burst of
 * triggers. Apart from scores.ts, which computes them, so that the modules that trigger a
 * recompute (settings, events, recognition...) and the one that computes it do not import each
 * other.
 */

/** Quiet period before a scheduled recompute runs; triggers within it make one run. */
export const RECOMPUTE_DELAY_SECONDS = 5;

type JobSender = Pick<JobQueue, 'send'>;

/**
 * Sends a job that runs once after a quiet period, however many times it is sent meanwhile. The
 * first send of a `RECOMPUTE_DELAY_SECONDS` slot creates a job that starts that many seconds
 * later; pg-boss refuses further sends of the same slot (same name and key), so a burst makes one
 * run. That run starts after every send of its slot (a slot is as long as the delay), so it sees
 * every change that triggered it; a send in a later slot makes a later run.
 * Returns false when the send was merged into the pending run.
 */
export async function sendCoalesced<N extends JobName>(
  jobs: JobSender,
  name: N,
  data: JobPayload<N>,
): Promise<boolean> {
  const id = await jobs.send(name, data, {
    singletonKey: 'all',
    singletonSeconds: RECOMPUTE_DELAY_SECONDS,
    startAfter: RECOMPUTE_DELAY_SECONDS,
  });
  return id !== null;
}

/**
 * Asks for a recompute of every score in a few seconds (see `sendCoalesced`). Call it after
 * anything that changes plays or weights, once the change has committed: settings (weights,
 * thresholds), an event's is_festival or weight_override, and every writer of plays (recognition,
 * history import, demo data) right after `recordPlays`. Reads never recompute. The recompute job
 * then asks for a download enqueue and a playlist regeneration the same way.
 */
export async function scheduleScoreRecompute(jobs: JobSender, reason: string): Promise<boolean> {
  return sendCoalesced(jobs, 'scores.recompute', { reason });
}
