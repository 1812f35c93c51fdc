import { describe, expect, it } from 'vitest';
import { overplaySeverity } from './overplay-warnings.js';

describe('overplaySeverity', () => {
  it.each([
    [50, 'warning'],
    [79.9, 'warning'],
    [80, 'high'],
    [89.9, 'high'],
    [90, 'critical'],
    [100, 'critical'],
  ] as const)('score %d is %s', (score, severity) => {
    expect(overplaySeverity(score)).toBe(severity);
  });
});
