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

/** The key as a DJ should read it: 'uncertain' when the analyser could not tell (never a wrong key). */
export function keyLabel(
  song: { key: string | null; key_uncertain: boolean },
  format: (key: string | null) => string,
): string {
  return song.key_uncertain ? 'Uncertain' : format(song.key);
}
