import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDuration, formatHms, formatMb, MISSING } from './format';

// Dates are built from local parts so the tests pass in any time zone.
describe('formatDate', () => {
  it('writes dd.mm.yyyy with leading zeros', () => {
    expect(formatDate(new Date(2026, 2, 5, 9, 7))).toBe('05.03.2026');
    expect(formatDate(new Date(2025, 11, 31, 23, 59))).toBe('31.12.2025');
  });

  it('writes what Intl writes for de-DE, for every day of a year', () => {
    const intl = new Intl.DateTimeFormat('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric' });
    for (let day = 0; day < 366; day += 1) {
      const date = new Date(2028, 0, 1 + day, 12);
      expect(formatDate(date)).toBe(intl.format(date));
    }
    expect(formatDate(new Date(999, 0, 1))).toBe(intl.format(new Date(999, 0, 1)));
  });

  it('accepts ISO strings and epoch milliseconds', () => {
    expect(formatDate(new Date(2026, 0, 9).toISOString())).toBe('09.01.2026');
    expect(formatDate(new Date(2026, 0, 9).getTime())).toBe('09.01.2026');
  });

  it('shows a dash for missing or unreadable dates', () => {
    expect(formatDate('2026-03-05')).toBe('05.03.2026'); // a calendar date never moves a day
    expect(formatDate(null)).toBe(MISSING);
    expect(formatDate(undefined)).toBe(MISSING);
    expect(formatDate('')).toBe(MISSING);
    expect(formatDate('not a date')).toBe(MISSING);
  });
});

describe('formatDateTime', () => {
  it('writes dd.mm.yyyy, HH:MM in 24-hour time', () => {
    expect(formatDateTime(new Date(2026, 2, 5, 9, 7))).toBe('05.03.2026, 09:07');
    expect(formatDateTime(new Date(2026, 2, 5, 23, 45, 59))).toBe('05.03.2026, 23:45');
    expect(formatDateTime(new Date(2026, 2, 6, 0, 5))).toBe('06.03.2026, 00:05');
  });

  it('shows a dash for a missing date', () => {
    expect(formatDateTime(null)).toBe(MISSING);
  });
});

describe('formatDuration', () => {
  it('writes m:ss from milliseconds', () => {
    expect(formatDuration(225_000)).toBe('3:45');
    expect(formatDuration(61_000)).toBe('1:01');
    expect(formatDuration(0)).toBe('0:00');
  });

  it('drops partial seconds rather than rounding up', () => {
    expect(formatDuration(225_999)).toBe('3:45');
    expect(formatDuration(59_999)).toBe('0:59');
  });

  it('keeps counting minutes past an hour', () => {
    expect(formatDuration(3_723_000)).toBe('62:03');
  });

  it('shows a dash for missing or impossible values', () => {
    expect(formatDuration(null)).toBe(MISSING);
    expect(formatDuration(undefined)).toBe(MISSING);
    expect(formatDuration(Number.NaN)).toBe(MISSING);
    expect(formatDuration(-1)).toBe(MISSING);
  });
});

describe('formatHms', () => {
  it('writes hh:mm:ss from seconds', () => {
    expect(formatHms(3723)).toBe('01:02:03');
    expect(formatHms(59)).toBe('00:00:59');
    expect(formatHms(0)).toBe('00:00:00');
    expect(formatHms(86_399)).toBe('23:59:59');
  });

  it('drops fractions and lets hours exceed a day', () => {
    expect(formatHms(90.9)).toBe('00:01:30');
    expect(formatHms(100 * 3600)).toBe('100:00:00');
  });

  it('treats negative and non-finite input as zero', () => {
    expect(formatHms(-5)).toBe('00:00:00');
    expect(formatHms(Number.NaN)).toBe('00:00:00');
  });
});

describe('formatMb', () => {
  it('writes megabytes of 1024 × 1024 bytes with one decimal', () => {
    expect(formatMb(1_572_864)).toBe('1.5 MB');
    expect(formatMb(0)).toBe('0.0 MB');
    expect(formatMb(480_000)).toBe('0.5 MB');
    expect(formatMb(104_857_600)).toBe('100.0 MB');
  });

  it('shows a dash for missing or impossible values', () => {
    expect(formatMb(null)).toBe(MISSING);
    expect(formatMb(-1)).toBe(MISSING);
  });
});
