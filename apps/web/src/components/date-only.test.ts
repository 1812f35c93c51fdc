import { describe, expect, it } from 'vitest';
import { formatDateOnly } from './date-only';

describe('formatDateOnly', () => {
  it('shows a calendar date as dd.mm.yyyy without shifting it', () => {
    expect(formatDateOnly('2026-03-05')).toBe('05.03.2026');
    expect(formatDateOnly('2026-12-31')).toBe('31.12.2026');
  });
  it('shows the missing mark without a date', () => {
    expect(formatDateOnly(null)).toBe('—');
    expect(formatDateOnly('')).toBe('—');
  });
});
