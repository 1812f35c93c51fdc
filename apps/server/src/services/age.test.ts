import { describe, expect, it } from 'vitest';
import { ageCategory, ageCutoffs, localDate, subtractMonths } from './age.js';

describe('subtractMonths', () => {
  it('moves back whole months on the same day', () => {
    expect(subtractMonths('2025-07-15', 6)).toBe('2025-01-15');
    expect(subtractMonths('2025-03-10', 6)).toBe('2024-09-10');
    expect(subtractMonths('2025-03-10', 24)).toBe('2023-03-10');
    expect(subtractMonths('2025-01-01', 1)).toBe('2024-12-01');
    expect(subtractMonths('2025-12-31', 12)).toBe('2024-12-31');
  });

  it('clamps to the last day of a shorter month, like PostgreSQL', () => {
    // select date '2025-08-31' - interval '6 months'  ->  2025-02-28
    expect(subtractMonths('2025-08-31', 6)).toBe('2025-02-28');
    // select date '2024-08-31' - interval '6 months'  ->  2024-02-29 (leap year)
    expect(subtractMonths('2024-08-31', 6)).toBe('2024-02-29');
    // select date '2024-02-29' - interval '2 years'  ->  2022-02-28
    expect(subtractMonths('2024-02-29', 24)).toBe('2022-02-28');
    expect(subtractMonths('2025-10-31', 6)).toBe('2025-04-30');
  });
});

describe('ageCutoffs', () => {
  it('are 6 months and 2 years before today', () => {
    expect(ageCutoffs('2025-06-15')).toEqual({ newAfter: '2024-12-15', oldBefore: '2023-06-15' });
  });
});

describe('ageCategory', () => {
  const today = '2025-06-15';

  it('is null without a release date', () => {
    expect(ageCategory(null, today)).toBeNull();
    expect(ageCategory('', today)).toBeNull();
  });

  it('is new under 6 months, including today and future releases', () => {
    expect(ageCategory('2025-06-15', today)).toBe('new');
    expect(ageCategory('2025-09-01', today)).toBe('new');
    expect(ageCategory('2024-12-16', today)).toBe('new');
  });

  it('is mid at exactly 6 months', () => {
    expect(ageCategory('2024-12-15', today)).toBe('mid');
    expect(ageCategory('2024-12-14', today)).toBe('mid');
  });

  it('is mid at exactly 2 years and old the day before', () => {
    expect(ageCategory('2023-06-16', today)).toBe('mid');
    expect(ageCategory('2023-06-15', today)).toBe('mid');
    expect(ageCategory('2023-06-14', today)).toBe('old');
    expect(ageCategory('1987-01-01', today)).toBe('old');
  });

  it('follows month-end clamping at the boundaries', () => {
    // On 2025-08-31, 6 months ago is 2025-02-28.
    expect(ageCategory('2025-03-01', '2025-08-31')).toBe('new');
    expect(ageCategory('2025-02-28', '2025-08-31')).toBe('mid');
    // On 2024-02-29, 2 years ago is 2022-02-28.
    expect(ageCategory('2022-02-28', '2024-02-29')).toBe('mid');
    expect(ageCategory('2022-02-27', '2024-02-29')).toBe('old');
  });
});

describe('localDate', () => {
  it('is the local calendar date as YYYY-MM-DD', () => {
    expect(localDate(new Date(2025, 0, 5, 23, 59))).toBe('2025-01-05');
    expect(localDate(new Date(2024, 11, 31, 0, 0))).toBe('2024-12-31');
  });
});
