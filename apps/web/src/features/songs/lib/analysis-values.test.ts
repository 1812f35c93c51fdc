import { describe, expect, it } from 'vitest';
import { formatBpm, formatScale1000 } from './analysis-values.js';

describe('formatBpm', () => {
  it('shows the one stored decimal, and a dash without a tempo', () => {
    expect(formatBpm(99.5)).toBe('99.5');
    expect(formatBpm(100)).toBe('100.0');
    expect(formatBpm(null)).toBe('—');
    expect(formatBpm(Number.NaN)).toBe('—');
  });
});

describe('formatScale1000', () => {
  it('shows 0-1000 as a whole percent', () => {
    expect(formatScale1000(0)).toBe('0%');
    expect(formatScale1000(734)).toBe('73%');
    expect(formatScale1000(1000)).toBe('100%');
    expect(formatScale1000(null)).toBe('—');
  });
});
