import { describe, expect, it } from 'vitest';
import {
  type DuplicateCandidate,
  daysApart,
  findDuplicates,
  nameSimilarity,
  nameTokens,
  overallScore,
  scoreDuplicate,
} from './duplicates.js';

const candidate = (id: number, name: string, startDate: string, countryCode: string | null = null) =>
  ({ id, name, startDate, countryCode }) satisfies DuplicateCandidate;

describe('nameTokens', () => {
  it('lower-cases, folds accents, splits on punctuation and drops years and generic words', () => {
    expect([...nameTokens('The Mooseland Swing 2026')]).toEqual(['mooseland']);
    expect([...nameTokens("Swingin' Into Spring")]).toEqual(['swingin', 'into', 'spring']);
    expect([...nameTokens('Liège WCS Festival – Été 2027')]).toEqual(['liege', 'ete']);
    expect([...nameTokens('West Coast Swing Dance Festival of Budapest')]).toEqual(['of', 'budapest']);
  });

  it('keeps the generic words of a name made of nothing else, but never its years', () => {
    expect([...nameTokens('WCS Festival 2026')]).toEqual(['wcs', 'festival']);
    expect([...nameTokens('2026')]).toEqual([]);
  });

  it('keeps numbers that are not years', () => {
    expect([...nameTokens('Swing Fling 25')]).toEqual(['fling', '25']);
  });
});

describe('nameSimilarity (Sørensen-Dice of token sets)', () => {
  it('is 1 for names that differ only in case, accents, years and generic words', () => {
    expect(nameSimilarity('Boogie By The Bay 2026', 'boogie by the bay')).toBe(1);
    expect(nameSimilarity('Budafest Été', 'BUDAFEST ete WCS')).toBe(1);
  });

  it('is 2 × shared / (|A| + |B|)', () => {
    // {mooseland} and {mooseland, weekend}: 2 × 1 / (1 + 2) = 2/3.
    expect(nameSimilarity('Mooseland Swing 2026', 'Mooseland WCS Weekend')).toBeCloseTo(2 / 3, 12);
    // {wcs, festival} and {swing, festival}: both all-generic, kept whole: 2 × 1 / 4 = 0.5.
    expect(nameSimilarity('WCS Festival', 'Swing Festival')).toBe(0.5);
    // {atlanta, classic} and {atlanta, open}: 2 × 1 / 4.
    expect(nameSimilarity('Atlanta Swing Classic', 'Atlanta Open')).toBe(0.5);
  });

  it('is 0 with nothing in common or nothing to compare', () => {
    expect(nameSimilarity('Budafest', 'Paris Swing Classic')).toBe(0);
    expect(nameSimilarity('2026', 'Budafest')).toBe(0);
  });
});

describe('daysApart', () => {
  it('counts whole days either way, across month, year and leap-day boundaries', () => {
    expect(daysApart('2026-09-24', '2026-09-24')).toBe(0);
    expect(daysApart('2026-10-01', '2026-09-24')).toBe(7);
    expect(daysApart('2026-12-28', '2027-01-03')).toBe(6);
    expect(daysApart('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysApart('2027-02-28', '2027-03-01')).toBe(1);
  });
});

describe('overallScore', () => {
  it('is 0.7 × similarity + 0.3 × (1 − days / 30)', () => {
    expect(overallScore(1, 0)).toBe(1);
    expect(overallScore(1, 1)).toBeCloseTo(0.99, 12);
    expect(overallScore(1, 30)).toBeCloseTo(0.7, 12);
    expect(overallScore(0, 0)).toBeCloseTo(0.3, 12);
    // 0.7 × 2/3 + 0.3 × 20/30 = 0.46667 + 0.2.
    expect(overallScore(2 / 3, 10)).toBeCloseTo(0.666667, 6);
  });
});

describe('scoreDuplicate', () => {
  const mooseland = { name: 'Mooseland Swing 2026', startDate: '2026-09-24', countryCode: 'SE' };

  it('lists a similar name 10 days apart with its rounded scores', () => {
    expect(scoreDuplicate(mooseland, candidate(7, 'Mooseland WCS Weekend', '2026-10-04', 'SE'))).toEqual({
      event_id: 7,
      event_name: 'Mooseland WCS Weekend',
      overall_score: 0.6667,
      name_similarity: 0.6667,
      date_difference_days: 10,
    });
  });

  it('lists a score of exactly 0.6 and not one just below', () => {
    // {atlanta, classic} vs {atlanta, open}: 0.5; 5 days: 0.7 × 0.5 + 0.3 × 25/30 = 0.35 + 0.25.
    const subject = { name: 'Atlanta Swing Classic', startDate: '2026-10-01', countryCode: 'US' };
    expect(scoreDuplicate(subject, candidate(1, 'Atlanta Open', '2026-10-06', 'US'))?.overall_score).toBe(
      0.6,
    );
    // 6 days: 0.35 + 0.3 × 24/30 = 0.59.
    expect(scoreDuplicate(subject, candidate(1, 'Atlanta Open', '2026-10-07', 'US'))).toBeNull();
  });

  it('never pairs start dates more than 30 days apart, even with the same name', () => {
    expect(scoreDuplicate(mooseland, candidate(1, 'Mooseland Swing', '2026-10-24'))?.overall_score).toBe(0.7);
    expect(scoreDuplicate(mooseland, candidate(1, 'Mooseland Swing', '2026-10-25'))).toBeNull();
    expect(scoreDuplicate(mooseland, candidate(1, 'Mooseland Swing', '2026-08-24'))).toBeNull();
  });

  it('never pairs two different countries, but pairs when either country is unknown', () => {
    expect(scoreDuplicate(mooseland, candidate(1, 'Mooseland Swing', '2026-09-24', 'NO'))).toBeNull();
    expect(
      scoreDuplicate(mooseland, candidate(1, 'Mooseland Swing', '2026-09-24', null))?.overall_score,
    ).toBe(1);
    expect(
      scoreDuplicate({ ...mooseland, countryCode: null }, candidate(1, 'Mooseland Swing', '2026-09-24', 'NO'))
        ?.overall_score,
    ).toBe(1);
  });

  it('leaves out an unrelated name on the same day (0.3)', () => {
    expect(scoreDuplicate(mooseland, candidate(1, 'Budafest', '2026-09-24', 'SE'))).toBeNull();
  });
});

describe('findDuplicates', () => {
  it('orders by score, then nearest date, then id, and drops non-duplicates', () => {
    const subject = { name: 'Boogie by the Bay', startDate: '2026-10-08', countryCode: 'US' };
    const found = findDuplicates(subject, [
      candidate(1, 'Budafest', '2026-10-08', 'HU'),
      candidate(2, 'Boogie by the Bay 2026', '2026-10-09', 'US'),
      candidate(3, 'Boogie by the Bay', '2026-10-07', null),
      candidate(4, 'Boogie by the Bay', '2026-10-08', 'US'),
      candidate(5, 'Bay Area Boogie', '2026-10-18', 'US'),
    ]);
    // 4: 1.0; 2 and 3: 0.99 (one day each way, id breaks the tie); 5: {bay, area, boogie} vs
    // {boogie, by, bay}: 2 × 2 / 6 = 2/3, 10 days: 0.46667 + 0.2 = 0.66667.
    expect(found.map((d) => [d.event_id, d.overall_score])).toEqual([
      [4, 1],
      [2, 0.99],
      [3, 0.99],
      [5, 0.6667],
    ]);
  });

  it('keeps the ten best', () => {
    const subject = { name: 'Budafest', startDate: '2026-01-22', countryCode: 'HU' };
    const many = Array.from({ length: 12 }, (_, i) => candidate(i + 1, 'Budafest', '2026-01-22', 'HU'));
    expect(findDuplicates(subject, many).map((d) => d.event_id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
