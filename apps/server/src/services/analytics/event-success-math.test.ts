import { GENRES } from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import {
  balanceScore,
  energyBand,
  energyDistribution,
  genreBalance,
  meanAndStd,
  newSongRate,
  shannonEntropy,
  varietyScore,
} from './event-success-math.js';

describe('varietyScore', () => {
  it('is 100 × (unique songs + unique artists) / (2 × plays)', () => {
    // 4 songs by 3 artists over 8 plays: 100 × 7 / 16.
    expect(varietyScore(4, 3, 8)).toBe(43.75);
    // Every play a different song by a different artist.
    expect(varietyScore(10, 10, 10)).toBe(100);
    // One song played 4 times: 100 × 2 / 8.
    expect(varietyScore(1, 1, 4)).toBe(25);
  });

  it('is 0, not NaN, without plays', () => {
    expect(varietyScore(0, 0, 0)).toBe(0);
  });
});

describe('energyBand', () => {
  it.each([
    [0, '0-20'],
    [199, '0-20'],
    [200, '20-40'],
    [399, '20-40'],
    [400, '40-60'],
    [599, '40-60'],
    [600, '60-80'],
    [799, '60-80'],
    [800, '80-100'],
    [999, '80-100'],
    [1000, '80-100'],
  ])('energy %i (0-1000) is in band %s', (energy, band) => {
    expect(energyBand(energy)).toBe(band);
  });
});

describe('shannonEntropy and balanceScore', () => {
  it('is 0 for a single category and for nothing at all', () => {
    expect(shannonEntropy([7])).toBe(0);
    expect(shannonEntropy([0, 7, 0])).toBe(0);
    expect(shannonEntropy([])).toBe(0);
    expect(shannonEntropy([0, 0])).toBe(0);
    expect(balanceScore([])).toBe(0);
  });

  it('is ln 5, a balance of 100, for five equal categories', () => {
    expect(shannonEntropy([3, 3, 3, 3, 3])).toBeCloseTo(Math.log(5), 12);
    expect(balanceScore([1, 1, 1, 1, 1])).toBeCloseTo(100, 10);
  });

  it('matches hand-computed values', () => {
    // p = 1/2, 1/2: H = ln 2 = 0.693147; balance = 100 × 0.693147 / 1.609438 = 43.0677.
    expect(shannonEntropy([4, 4])).toBeCloseTo(Math.LN2, 12);
    expect(balanceScore([1, 1])).toBeCloseTo(43.0677, 4);
    // p = 1/2, 1/4, 1/4: H = 0.5 ln 2 + 2 × 0.25 ln 4 = 1.5 ln 2 = 1.039721; balance 64.6015.
    expect(shannonEntropy([2, 1, 1])).toBeCloseTo(1.039721, 6);
    expect(balanceScore([2, 1, 1])).toBeCloseTo(64.6015, 4);
  });
});

describe('meanAndStd', () => {
  it('is the population standard deviation of weighted values', () => {
    // 2, 4, 4, 4, 5, 5, 7, 9: mean 5; squared deviations 9+1+1+1+0+0+4+16 = 32; 32 / 8 = 4; std 2.
    expect(
      meanAndStd([
        { value: 2, count: 1 },
        { value: 4, count: 3 },
        { value: 5, count: 2 },
        { value: 7, count: 1 },
        { value: 9, count: 1 },
      ]),
    ).toEqual({ mean: 5, std: 2 });
    expect(meanAndStd([{ value: 42, count: 3 }])).toEqual({ mean: 42, std: 0 });
  });

  it('is null for no values', () => {
    expect(meanAndStd([])).toEqual({ mean: null, std: null });
  });
});

describe('energyDistribution', () => {
  it('counts plays per band and gives mean, std and balance in percent', () => {
    // Plays at 20, 40, 40, 40, 50, 50, 70, 90 %.
    const result = energyDistribution([
      { energy: 200, count: 1 },
      { energy: 400, count: 3 },
      { energy: 500, count: 2 },
      { energy: 700, count: 1 },
      { energy: 900, count: 1 },
    ]);
    // Bands 1, 5, 1, 1 of 8: H = 3 × (1/8) ln 8 + (5/8) ln (8/5) = 1.073543; / ln 5 = 66.70 %.
    expect(result).toEqual({
      balance_score: 66.7,
      mean: 50,
      std: 20,
      histogram: { '0-20': 0, '20-40': 1, '40-60': 5, '60-80': 1, '80-100': 1 },
    });
  });

  it('puts each band edge in the upper band', () => {
    const result = energyDistribution([
      { energy: 199, count: 1 },
      { energy: 200, count: 1 },
      { energy: 400, count: 1 },
      { energy: 600, count: 1 },
      { energy: 800, count: 1 },
    ]);
    expect(result.histogram).toEqual({ '0-20': 1, '20-40': 1, '40-60': 1, '60-80': 1, '80-100': 1 });
    expect(result.balance_score).toBe(100);
    // Mean 439.8 of 1000 = 44.0 %; deviations -240.8, -239.8, -39.8, 160.2, 360.2:
    // squares 57984.64 + 57504.04 + 1584.04 + 25664.04 + 129744.04 = 272480.8; / 5 = 54496.16;
    // sqrt = 233.44 of 1000 = 23.3 %.
    expect(result.mean).toBe(44);
    expect(result.std).toBe(23.3);
  });

  it('lists every band with zeros, balance 0 and no mean without energy data', () => {
    expect(energyDistribution([])).toEqual({
      balance_score: 0,
      mean: null,
      std: null,
      histogram: { '0-20': 0, '20-40': 0, '40-60': 0, '60-80': 0, '80-100': 0 },
    });
  });
});

describe('genreBalance', () => {
  it('scores the spread over genres and breaks ties by the genre order', () => {
    const result = genreBalance(
      [
        { genre: 'Acoustic', count: 2 },
        { genre: 'Blues/Jazz', count: 3 },
        { genre: 'Pop', count: 3 },
      ],
      GENRES,
    );
    // 3, 3, 2 of 8: H = 2 × (3/8) ln (8/3) + (2/8) ln 4 = 1.082196; / ln 5 = 67.24 %.
    expect(result).toEqual({
      score: 67.2,
      genre_count: 3,
      dominant_genre: 'Pop',
      genres: { Pop: 3, 'Blues/Jazz': 3, Acoustic: 2 },
    });
    expect(Object.keys(result.genres)).toEqual(['Pop', 'Blues/Jazz', 'Acoustic']);
  });

  it('is 0 with one genre and empty without plays', () => {
    expect(genreBalance([{ genre: 'Pop', count: 9 }], GENRES)).toEqual({
      score: 0,
      genre_count: 1,
      dominant_genre: 'Pop',
      genres: { Pop: 9 },
    });
    expect(genreBalance([], GENRES)).toEqual({ score: 0, genre_count: 0, dominant_genre: null, genres: {} });
  });
});

describe('newSongRate', () => {
  it('is 100 × new songs / unique songs, 0 without songs', () => {
    expect(newSongRate(2, 8)).toBe(25);
    expect(newSongRate(1, 3)).toBeCloseTo(33.3333, 4);
    expect(newSongRate(0, 0)).toBe(0);
  });
});
