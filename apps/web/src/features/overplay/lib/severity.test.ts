import { describe, expect, it } from 'vitest';
import { clampThreshold, overplayLabel } from './severity.js';

describe('overplayLabel', () => {
  it('is Critical from 90, High from 80, else Warning', () => {
    expect(overplayLabel(100)).toBe('Critical');
    expect(overplayLabel(90)).toBe('Critical');
    expect(overplayLabel(89.6)).toBe('High');
    expect(overplayLabel(80)).toBe('High');
    expect(overplayLabel(79)).toBe('Warning');
    expect(overplayLabel(50)).toBe('Warning');
  });
});

describe('clampThreshold', () => {
  it('keeps 50-100 in steps of 5', () => {
    expect(clampThreshold(70)).toBe(70);
    expect(clampThreshold(72)).toBe(70);
    expect(clampThreshold(73)).toBe(75);
    expect(clampThreshold(10)).toBe(50);
    expect(clampThreshold(120)).toBe(100);
    expect(clampThreshold(Number.NaN)).toBe(70);
  });
});
