import { describe, expect, it } from 'vitest';
import { monthNumber, parseWsdcDates } from './wsdc-dates.js';

describe('parseWsdcDates', () => {
  it('reads a range within one month', () => {
    expect(parseWsdcDates('Sep 24 - 28, 2026')).toEqual({ start: '2026-09-24', end: '2026-09-28' });
    expect(parseWsdcDates('Jan 1 - 4, 2027')).toEqual({ start: '2027-01-01', end: '2027-01-04' });
  });

  it('reads a range across a month end', () => {
    expect(parseWsdcDates('Apr 30 - May 3, 2026')).toEqual({ start: '2026-04-30', end: '2026-05-03' });
    expect(parseWsdcDates('Oct 28 - Nov 2, 2026')).toEqual({ start: '2026-10-28', end: '2026-11-02' });
  });

  it('reads a range across a year end with both years written', () => {
    expect(parseWsdcDates('Dec 28 2026 - Jan 3 2027')).toEqual({ start: '2026-12-28', end: '2027-01-03' });
    expect(parseWsdcDates('Dec 28, 2026 - Jan 3, 2027')).toEqual({
      start: '2026-12-28',
      end: '2027-01-03',
    });
  });

  it('puts the start of a year-end range with one written year in the year before', () => {
    expect(parseWsdcDates('Dec 30 - Jan 2, 2027')).toEqual({ start: '2026-12-30', end: '2027-01-02' });
    expect(parseWsdcDates('Dec 31 - Jan 1, 2027')).toEqual({ start: '2026-12-31', end: '2027-01-01' });
  });

  it('reads a single day with and without the comma', () => {
    expect(parseWsdcDates('Mar 7, 2026')).toEqual({ start: '2026-03-07', end: '2026-03-07' });
    expect(parseWsdcDates('Mar 7 2026')).toEqual({ start: '2026-03-07', end: '2026-03-07' });
  });

  it('accepts 29 February only in leap years', () => {
    expect(parseWsdcDates('Feb 29 - Mar 5, 2028')).toEqual({ start: '2028-02-29', end: '2028-03-05' });
    expect(parseWsdcDates('Feb 26 - 29, 2024')).toEqual({ start: '2024-02-26', end: '2024-02-29' });
    expect(parseWsdcDates('Feb 29, 2027')).toBeNull();
    expect(parseWsdcDates('Feb 27 - Mar 1, 2027')).toEqual({ start: '2027-02-27', end: '2027-03-01' });
    // 2100 is not a leap year (divisible by 100, not by 400); 2000 was.
    expect(parseWsdcDates('Feb 29, 2100')).toBeNull();
    expect(parseWsdcDates('Feb 29, 2000')).toEqual({ start: '2000-02-29', end: '2000-02-29' });
  });

  it('accepts a span of up to 31 days, no longer', () => {
    expect(parseWsdcDates('Jul 1 - Aug 1, 2026')).toEqual({ start: '2026-07-01', end: '2026-08-01' });
    expect(parseWsdcDates('Jul 1 - Aug 2, 2026')).toBeNull();
  });

  it('reads full and dotted month names, any case, en and em dashes, non-breaking spaces', () => {
    expect(parseWsdcDates('September 24 - 28, 2026')).toEqual({ start: '2026-09-24', end: '2026-09-28' });
    expect(parseWsdcDates('Sept. 24 \u2013 28, 2026')).toEqual({ start: '2026-09-24', end: '2026-09-28' });
    expect(parseWsdcDates('OCT 28\u2014NOV 2, 2026')).toEqual({ start: '2026-10-28', end: '2026-11-02' });
    expect(parseWsdcDates('  Jul\u00a02  -  6,  2026 ')).toEqual({ start: '2026-07-02', end: '2026-07-06' });
  });

  it('answers null for text that is not a date form of the calendar', () => {
    for (const text of [
      'TBA 2027',
      'TBD',
      '',
      'Sep 2026',
      'Fall 2026',
      'Sep 24 - 28',
      'Mar 7',
      'Smarch 7, 2026',
      'Ma 7, 2026',
      'Apr 31, 2026',
      'Sep 0 - 3, 2026',
      'Sep 28 - 24, 2026',
      'Nov 2 - Oct 28 2026',
      'Nov 2 - Oct 28, 2026',
      'Sep 1 - Oct 3, 2026',
      'Sep 24 - 28, 2026 (postponed)',
    ]) {
      expect(parseWsdcDates(text), text).toBeNull();
    }
  });
});

describe('monthNumber', () => {
  it('knows abbreviations of at least three letters and full names', () => {
    expect(monthNumber('Jan')).toBe(1);
    expect(monthNumber('sept')).toBe(9);
    expect(monthNumber('Sept.')).toBe(9);
    expect(monthNumber('December')).toBe(12);
    expect(monthNumber('Ju')).toBeNull();
    expect(monthNumber('Jux')).toBeNull();
  });
});
