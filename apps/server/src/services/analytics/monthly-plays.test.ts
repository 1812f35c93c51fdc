import { describe, expect, it } from 'vitest';
import { fillMonthGaps, nextMonth } from './monthly-plays.js';

describe('nextMonth', () => {
  it('steps months and years', () => {
    expect(nextMonth('2026-01')).toBe('2026-02');
    expect(nextMonth('2026-09')).toBe('2026-10');
    expect(nextMonth('2026-12')).toBe('2027-01');
  });
});

describe('fillMonthGaps', () => {
  it('lists every month from the first to the last, empty ones at 0, in order', () => {
    expect(
      fillMonthGaps([
        { month: '2026-02', plays: 1 },
        { month: '2025-11', plays: 2 },
      ]),
    ).toEqual([
      { month: '2025-11', plays: 2 },
      { month: '2025-12', plays: 0 },
      { month: '2026-01', plays: 0 },
      { month: '2026-02', plays: 1 },
    ]);
  });

  it('keeps a single month and gives nothing for no plays', () => {
    expect(fillMonthGaps([{ month: '2026-07', plays: 3 }])).toEqual([{ month: '2026-07', plays: 3 }]);
    expect(fillMonthGaps([])).toEqual([]);
  });
});
