import { describe, expect, it } from 'vitest';
import { estimateSetEnd, estimateTimestamps } from './estimate-timestamps.js';

describe('estimateTimestamps', () => {
  it('adds the cumulative song durations to the start time', () => {
    expect(estimateTimestamps('22:30', [180, 240, 200])).toEqual(['22:30', '22:33', '22:37']);
  });
  it('starts at 22:00 without a start time', () => {
    expect(estimateTimestamps(null, [300, 300])).toEqual(['22:00', '22:05']);
  });
  it('wraps past midnight', () => {
    expect(estimateTimestamps('23:55', [240, 240, 240])).toEqual(['23:55', '23:59', '00:03']);
  });
  it('rounds down to the minute and ignores negative durations', () => {
    expect(estimateTimestamps('01:00', [59, 61, -30, 10])).toEqual(['01:00', '01:00', '01:02', '01:02']);
  });
  it('falls back to 22:00 for an unreadable start', () => {
    expect(estimateTimestamps('late', [60])).toEqual(['22:00']);
  });
  it('gives no stamps for an empty set', () => {
    expect(estimateTimestamps('20:00', [])).toEqual([]);
  });
});

describe('estimateSetEnd', () => {
  it('is the start plus every duration', () => {
    expect(estimateSetEnd('22:30', [180, 240, 200])).toBe('22:40');
    expect(estimateSetEnd(null, Array(40).fill(225))).toBe('00:30');
  });
});
