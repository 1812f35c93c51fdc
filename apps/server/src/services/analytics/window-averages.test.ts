import { describe, expect, it } from 'vitest';
import {
  addFeatureSums,
  averageToOneDecimal,
  type FeatureSums,
  inWindowOrder,
  windowAverages,
} from './window-averages.js';

describe('averageToOneDecimal', () => {
  it('rounds the mean to one decimal, halves up', () => {
    expect(averageToOneDecimal(2699, 5)).toBe(539.8);
    expect(averageToOneDecimal(1700, 3)).toBe(566.7); // 566.666...
    expect(averageToOneDecimal(1599, 4)).toBe(399.8); // 399.75
    // 23 / 20 = 1.15: Math.round(1.15 * 10) would give 11 (1.15 × 10 is 11.4999... in binary).
    expect(averageToOneDecimal(23, 20)).toBe(1.2);
    expect(averageToOneDecimal(370.5, 4)).toBe(92.6); // 92.625
  });

  it('is null when no play has the value', () => {
    expect(averageToOneDecimal(null, 0)).toBeNull();
    expect(averageToOneDecimal(0, 0)).toBeNull();
  });
});

const sums = (partial: Partial<FeatureSums>): FeatureSums => ({
  plays: 0,
  bpm_sum: null,
  bpm_n: 0,
  energy_sum: null,
  energy_n: 0,
  valence_sum: null,
  valence_n: 0,
  danceability_sum: null,
  danceability_n: 0,
  ...partial,
});

describe('addFeatureSums and windowAverages', () => {
  it('adds groups and leaves out plays without a value from that average only', () => {
    const pop = sums({
      plays: 3,
      bpm_sum: 290,
      bpm_n: 3,
      energy_sum: 2100,
      energy_n: 3,
      valence_sum: 1600,
      valence_n: 3,
    });
    const unknown = sums({ plays: 2 });
    const jazz = sums({
      plays: 1,
      bpm_sum: 80,
      bpm_n: 1,
      energy_sum: 200,
      energy_n: 1,
      danceability_sum: 500,
      danceability_n: 1,
    });
    const total = addFeatureSums([pop, unknown, jazz]);
    expect(total).toEqual(
      sums({
        plays: 6,
        bpm_sum: 370,
        bpm_n: 4,
        energy_sum: 2300,
        energy_n: 4,
        valence_sum: 1600,
        valence_n: 3,
        danceability_sum: 500,
        danceability_n: 1,
      }),
    );
    expect(windowAverages('22-00', total)).toEqual({
      time_window: '22-00',
      play_count: 6,
      avg_bpm: 92.5,
      avg_energy: 575,
      avg_valence: 533.3,
      avg_danceability: 500,
    });
  });

  it('gives nulls for a window whose songs have no values', () => {
    expect(windowAverages('00-02', sums({ plays: 1 }))).toEqual({
      time_window: '00-02',
      play_count: 1,
      avg_bpm: null,
      avg_energy: null,
      avg_valence: null,
      avg_danceability: null,
    });
  });
});

describe('inWindowOrder', () => {
  it('sorts rows in the order of the night, not alphabetically', () => {
    const rows = ['04-06', '00-02', '22-00', '20-22', '02-04'].map((time_window) => ({ time_window }));
    expect(inWindowOrder(rows).map((row) => row.time_window)).toEqual([
      '20-22',
      '22-00',
      '00-02',
      '02-04',
      '04-06',
    ]);
  });
});
