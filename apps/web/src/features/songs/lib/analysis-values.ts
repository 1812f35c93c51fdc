/**
 * How the analysis values read on screen: BPM with its one stored decimal (a DJ matching tempos
 * cares about 99.5 against 100), 0-1000 scales as whole percents, and a missing value as a dash.
 */

export function formatBpm(bpm: number | null | undefined): string {
  return bpm === null || bpm === undefined || !Number.isFinite(bpm) ? '—' : bpm.toFixed(1);
}

/** 0-1000 as a whole percent. */
export function formatScale1000(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${Math.round(value / 10)}%`;
}
