import { describe, expect, it } from 'vitest';
import {
  energyBalanceVerdict,
  genreBalanceVerdict,
  newSongRateVerdict,
  sortRanges,
  varietyVerdict,
} from './success-labels.js';

describe('success verdicts', () => {
  it('variety: 70 excellent, 50 good, else repetitive', () => {
    expect(varietyVerdict(70)).toEqual({ label: 'Excellent variety', level: 'top' });
    expect(varietyVerdict(69.9)).toEqual({ label: 'Good variety', level: 'middle' });
    expect(varietyVerdict(50)).toEqual({ label: 'Good variety', level: 'middle' });
    expect(varietyVerdict(49.9)).toEqual({ label: 'Repetitive set', level: 'low' });
  });
  it('energy balance: 60 well, 40 somewhat', () => {
    expect(energyBalanceVerdict(60).label).toBe('Well balanced');
    expect(energyBalanceVerdict(59).label).toBe('Somewhat balanced');
    expect(energyBalanceVerdict(40).label).toBe('Somewhat balanced');
    expect(energyBalanceVerdict(39).label).toBe('Narrow energy range');
  });
  it('genre balance: 70 well, 50 somewhat', () => {
    expect(genreBalanceVerdict(100).label).toBe('Well balanced');
    expect(genreBalanceVerdict(70).label).toBe('Well balanced');
    expect(genreBalanceVerdict(69).label).toBe('Somewhat balanced');
    expect(genreBalanceVerdict(50).label).toBe('Somewhat balanced');
    expect(genreBalanceVerdict(0).label).toBe('Dominated by few genres');
  });
  it('new song rate: 30 great, 15 moderate', () => {
    expect(newSongRateVerdict(30)).toEqual({ label: 'Great mix of new music', level: 'top' });
    expect(newSongRateVerdict(15)).toEqual({ label: 'Moderate new music', level: 'middle' });
    expect(newSongRateVerdict(14.9)).toEqual({ label: 'Few new songs', level: 'low' });
  });
});

describe('sortRanges', () => {
  it('orders ranges by their lower bound', () => {
    expect(sortRanges({ '80-100': 1, '0-20': 4, '20-40': 2, '100-': 0 }).map(([range]) => range)).toEqual([
      '0-20',
      '20-40',
      '80-100',
      '100-',
    ]);
  });
});
