import { describe, expect, it } from 'vitest';
import { valueScale } from './value-scale.js';

describe('valueScale', () => {
  it('rounds a BPM range out to whole, evenly spaced ticks', () => {
    expect(valueScale(94.3, 104.8)).toEqual({ min: 90, max: 105, ticks: [90, 95, 100, 105] });
    expect(valueScale(118, 128)).toEqual({ min: 115, max: 130, ticks: [115, 120, 125, 130] });
  });
  it('never steps by less than 1 or by 2.5', () => {
    expect(valueScale(100.1, 100.4).ticks).toEqual([100, 101]);
    expect(valueScale(90, 100).ticks).toEqual([90, 95, 100]);
  });
  it('widens a single value to a step either side', () => {
    expect(valueScale(100, 100)).toEqual({ min: 99, max: 101, ticks: [99, 100, 101] });
    expect(valueScale(0, 0)).toEqual({ min: -1, max: 1, ticks: [-1, 0, 1] });
  });
  it('keeps a fixed range as it is', () => {
    expect(valueScale(40, 60, [0, 100])).toEqual({ min: 0, max: 100, ticks: [0, 25, 50, 75, 100] });
    expect(valueScale(3, 4, [0, 10])).toEqual({ min: 0, max: 10, ticks: [0, 5, 10] });
  });
  it('copes with large ranges', () => {
    const { min, max, ticks } = valueScale(0, 1234);
    expect([min, max]).toEqual([0, 1500]);
    expect(ticks).toEqual([0, 500, 1000, 1500]);
  });
});
