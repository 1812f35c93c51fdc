import type { ComparisonEntity, ProgressionRow } from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import {
  byTimeWindow,
  comparisonPoints,
  displayValue,
  formatMetric,
  progressionPoints,
} from './progression.js';

const row = (time_window: ProgressionRow['time_window'], avg: number | null): ProgressionRow => ({
  time_window,
  play_count: 3,
  avg_bpm: avg,
  avg_energy: avg === null ? null : avg * 5,
  avg_valence: null,
  avg_danceability: 655,
});

describe('displayValue and formatMetric', () => {
  it('keeps BPM and turns 0-1000 into percent with one decimal', () => {
    expect(displayValue('bpm', 97.25)).toBe(97.3);
    expect(displayValue('energy', 655)).toBe(65.5);
    expect(displayValue('valence', 1000)).toBe(100);
    expect(displayValue('danceability', null)).toBeNull();
  });
  it("writes '-' for a missing value", () => {
    expect(formatMetric('bpm', 96)).toBe('96.0');
    expect(formatMetric('energy', 712)).toBe('71.2%');
    expect(formatMetric('valence', null)).toBe('-');
  });
});

describe('progressionPoints', () => {
  it('orders by the night and skips windows without a value', () => {
    const rows = [row('00-02', 100), row('20-22', 90), row('22-00', null), row('04-06', 110)];
    expect(byTimeWindow(rows).map((r) => r.time_window)).toEqual(['20-22', '22-00', '00-02', '04-06']);
    expect(progressionPoints(rows, 'bpm')).toEqual([
      { label: '20-22', value: 90 },
      { label: '00-02', value: 100 },
      { label: '04-06', value: 110 },
    ]);
    expect(progressionPoints(rows, 'energy')[0]).toEqual({ label: '20-22', value: 45 });
    expect(progressionPoints(rows, 'valence')).toEqual([]);
  });
});

describe('comparisonPoints', () => {
  it('lines up every window of any entity, null where one has none', () => {
    const entities: ComparisonEntity[] = [
      {
        id: 1,
        name: 'A',
        bpm_progression: { '22-00': 95, '20-22': 90 },
        genre_distribution: {},
        energy_progression: { '20-22': 500 },
        valence_progression: {},
        danceability_progression: {},
      },
      {
        id: 2,
        name: 'B',
        bpm_progression: { '00-02': 100 },
        genre_distribution: {},
        energy_progression: { '20-22': 700 },
        valence_progression: {},
        danceability_progression: {},
      },
    ];
    expect(comparisonPoints(entities, 'bpm')).toEqual([
      { label: '20-22', entity_1: 90, entity_2: null },
      { label: '22-00', entity_1: 95, entity_2: null },
      { label: '00-02', entity_1: null, entity_2: 100 },
    ]);
    expect(comparisonPoints(entities, 'energy')).toEqual([{ label: '20-22', entity_1: 50, entity_2: 70 }]);
    expect(comparisonPoints(entities, 'valence')).toEqual([]);
  });
});
