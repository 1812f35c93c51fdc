import { TIME_WINDOWS, type TimeWindow } from '@wcs/contract';
import { sql } from 'drizzle-orm';
import { songs } from '../../db/schema.js';

/**
 * Sums and counts of the four audio features over a group of plays, as SQL returns them. Each
 * feature has its own count: a play whose song lacks a value is left out of that average only.
 * A type, not an interface: db.execute wants a row type with an implicit index signature.
 */
export type FeatureSums = {
  plays: number;
  bpm_sum: number | null;
  bpm_n: number;
  energy_sum: number | null;
  energy_n: number;
  valence_sum: number | null;
  valence_n: number;
  danceability_sum: number | null;
  danceability_n: number;
};

/**
 * The select list of `FeatureSums` over `plays` joined with `songs`. BPM is summed as double
 * precision: `sum(real)` would stay single precision and drift on a million plays.
 */
export const featureSumsSelect = sql`
  count(*)::int as plays,
  sum(${songs.bpm}::float8) as bpm_sum, count(${songs.bpm})::int as bpm_n,
  sum(${songs.energyLevel}) as energy_sum, count(${songs.energyLevel})::int as energy_n,
  sum(${songs.valence}) as valence_sum, count(${songs.valence})::int as valence_n,
  sum(${songs.danceability}) as danceability_sum, count(${songs.danceability})::int as danceability_n`;

/**
 * Mean of `n` values whose sum is `sum`, to one decimal; null when there are none. Dividing
 * 10 × sum by n in one step keeps integer sums exact, so x.x5 rounds up as a person expects.
 */
export function averageToOneDecimal(sum: number | null, n: number): number | null {
  if (n === 0 || sum === null) return null;
  return Math.round((sum * 10) / n) / 10;
}

export interface WindowAverages {
  time_window: TimeWindow;
  play_count: number;
  avg_bpm: number | null;
  avg_energy: number | null;
  avg_valence: number | null;
  avg_danceability: number | null;
}

/** Adds up several groups' sums (e.g. the genres of one window) into one. */
export function addFeatureSums(groups: FeatureSums[]): FeatureSums {
  const add = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : a + b);
  return groups.reduce<FeatureSums>(
    (total, group) => ({
      plays: total.plays + group.plays,
      bpm_sum: add(total.bpm_sum, group.bpm_sum),
      bpm_n: total.bpm_n + group.bpm_n,
      energy_sum: add(total.energy_sum, group.energy_sum),
      energy_n: total.energy_n + group.energy_n,
      valence_sum: add(total.valence_sum, group.valence_sum),
      valence_n: total.valence_n + group.valence_n,
      danceability_sum: add(total.danceability_sum, group.danceability_sum),
      danceability_n: total.danceability_n + group.danceability_n,
    }),
    {
      plays: 0,
      bpm_sum: null,
      bpm_n: 0,
      energy_sum: null,
      energy_n: 0,
      valence_sum: null,
      valence_n: 0,
      danceability_sum: null,
      danceability_n: 0,
    },
  );
}

/** The averages of one window from its sums; BPM in beats per minute, the others on 0-1000. */
export function windowAverages(timeWindow: TimeWindow, sums: FeatureSums): WindowAverages {
  return {
    time_window: timeWindow,
    play_count: sums.plays,
    avg_bpm: averageToOneDecimal(sums.bpm_sum, sums.bpm_n),
    avg_energy: averageToOneDecimal(sums.energy_sum, sums.energy_n),
    avg_valence: averageToOneDecimal(sums.valence_sum, sums.valence_n),
    avg_danceability: averageToOneDecimal(sums.danceability_sum, sums.danceability_n),
  };
}

/** Rows keyed by time window, in the order of the night (TIME_WINDOWS), whatever order SQL gave. */
export function inWindowOrder<T extends { time_window: string }>(rows: T[]): T[] {
  const position = (window: string) => TIME_WINDOWS.indexOf(window as TimeWindow);
  return [...rows].sort((a, b) => position(a.time_window) - position(b.time_window));
}
