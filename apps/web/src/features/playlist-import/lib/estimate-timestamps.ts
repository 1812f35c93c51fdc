/** When a playlist's name gives no start time, its set is assumed to begin at 22:00. */
export const DEFAULT_SET_START = '22:00';

const MINUTES_PER_DAY = 24 * 60;
const DEFAULT_START_MINUTES = 22 * 60;

function toMinutes(time: string): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time);
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) return null;
  return hours * 60 + minutes;
}

function toHhmm(totalSeconds: number): string {
  const minutes = Math.floor(totalSeconds / 60) % MINUTES_PER_DAY;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * Estimated start time (HH:MM, wrapping past midnight) of each song of a set: the first song at the
 * set's start time (22:00 when unknown), each next one after the cumulative durations before it.
 */
export function estimateTimestamps(
  setStartTime: string | null,
  durationsSeconds: readonly number[],
): string[] {
  const startMinutes = toMinutes(setStartTime ?? DEFAULT_SET_START) ?? DEFAULT_START_MINUTES;
  let elapsedSeconds = 0;
  return durationsSeconds.map((duration) => {
    const stamp = toHhmm(startMinutes * 60 + elapsedSeconds);
    elapsedSeconds += Math.max(0, duration);
    return stamp;
  });
}

/** The time the set ends: the start plus every song's duration. */
export function estimateSetEnd(setStartTime: string | null, durationsSeconds: readonly number[]): string {
  const startMinutes = toMinutes(setStartTime ?? DEFAULT_SET_START) ?? DEFAULT_START_MINUTES;
  const total = durationsSeconds.reduce((sum, duration) => sum + Math.max(0, duration), 0);
  return toHhmm(startMinutes * 60 + total);
}
