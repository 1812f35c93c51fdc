import { describe, expect, it } from 'vitest';
import { decayedWeight, downloadPriorityOf, exposureOf, overplayScores, playAgeDays } from './scores.js';

const DAY = 86_400_000;

describe('playAgeDays', () => {
  it('is (now - started_at) in fractional days', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    expect(playAgeDays(new Date('2026-03-09T00:00:00Z'), now)).toBe(1.5);
    expect(playAgeDays(new Date(now.getTime() - 90 * DAY), now)).toBe(90);
  });

  it('counts a play stamped in the future as age 0, never heavier than its weight', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    expect(playAgeDays(new Date('2026-03-10T12:05:00Z'), now)).toBe(0);
    expect(decayedWeight(12, -3, 90)).toBe(12);
  });
});

describe('exposureOf', () => {
  it('sums weight × 0.5^(age/90): plays 0, 90 and 180 days ago at weights 12, 1 and 12 make 15.5', () => {
    // 12 × 0.5^0 = 12; 1 × 0.5^1 = 0.5; 12 × 0.5^2 = 3.
    expect(
      exposureOf([
        { weight: 12, ageDays: 0 },
        { weight: 1, ageDays: 90 },
        { weight: 12, ageDays: 180 },
      ]),
    ).toBe(15.5);
  });

  it('counts plays up to 365 days old and none older', () => {
    // 1 × 0.5^(365/90) = 0.060139, kept to 3 decimals: 0.06; the play 366 days old adds nothing.
    expect(exposureOf([{ weight: 1, ageDays: 365 }])).toBe(0.06);
    expect(exposureOf([{ weight: 12, ageDays: 366 }])).toBe(0);
    expect(exposureOf([])).toBe(0);
  });
});

describe('downloadPriorityOf', () => {
  it('sums weight × 0.5^(age/365) over all plays: 0, 365 and 730 days at weights 12, 1 and 12 make 15.5', () => {
    // 12 × 1 = 12; 1 × 0.5 = 0.5; 12 × 0.25 = 3; a play 1095 days old still counts: 12 × 0.125 = 1.5.
    const plays = [
      { weight: 12, ageDays: 0 },
      { weight: 1, ageDays: 365 },
      { weight: 12, ageDays: 730 },
    ];
    expect(downloadPriorityOf(plays, false)).toBe(15.5);
    expect(downloadPriorityOf([...plays, { weight: 12, ageDays: 1095 }], false)).toBe(17);
  });

  it('is 0 for a song that has a file', () => {
    expect(downloadPriorityOf([{ weight: 12, ageDays: 0 }], true)).toBe(0);
  });
});

describe('overplayScores', () => {
  it('ranks exposure among songs with exposure > 0; ties share the higher rank; no exposure scores 0', () => {
    // Positive: 2, 5, 5, 9 (four songs). 2: 1/4 -> 25; 5: 3/4 -> 75 (both); 9: 4/4 -> 100.
    expect(overplayScores([0, 5, 2, 9, 5])).toEqual([0, 75, 25, 100, 75]);
  });

  it('rounds to whole percent, halves up', () => {
    // 1/3 = 33.3 -> 33, 2/3 = 66.7 -> 67.
    expect(overplayScores([3, 1, 2])).toEqual([100, 33, 67]);
    // Eight songs: the lowest is 100 × 1/8 = 12.5 -> 13, the third 37.5 -> 38.
    expect(overplayScores([1, 2, 3, 4, 5, 6, 7, 8])).toEqual([13, 25, 38, 50, 63, 75, 88, 100]);
  });

  it('gives every song 100 when all exposed songs tie, and 0 to all when none is exposed', () => {
    expect(overplayScores([4, 4, 4])).toEqual([100, 100, 100]);
    expect(overplayScores([0, 0])).toEqual([0, 0]);
    expect(overplayScores([])).toEqual([]);
  });
});
