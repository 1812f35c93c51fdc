import { GENRES } from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import { formatMonth, genreColour, seriesColour } from './palette.js';

describe('formatMonth', () => {
  it('turns YYYY-MM into MM.YYYY', () => {
    expect(formatMonth('2025-03')).toBe('03.2025');
    expect(formatMonth('2024-11-01')).toBe('11.2024');
  });
  it('leaves other text alone', () => {
    expect(formatMonth('March')).toBe('March');
  });
});

describe('colours', () => {
  it('gives every genre its own colour', () => {
    const colours = GENRES.map((genre) => genreColour(genre));
    expect(new Set(colours).size).toBe(GENRES.length);
  });
  it('cycles the series colours', () => {
    expect(seriesColour(0)).toBe(seriesColour(7));
  });
});
