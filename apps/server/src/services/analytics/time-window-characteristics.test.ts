import { describe, expect, it } from 'vitest';
import { topGenre } from './time-window-characteristics.js';

describe('topGenre', () => {
  it('is the genre with the most plays', () => {
    expect(
      topGenre([
        { genre: 'Pop', plays: 1 },
        { genre: 'Blues/Jazz', plays: 2 },
        { genre: 'Contemporary', plays: 1 },
      ]),
    ).toBe('Blues/Jazz');
  });

  it('breaks ties by the order of the genres, not by the order given', () => {
    expect(
      topGenre([
        { genre: 'Blues/Jazz', plays: 2 },
        { genre: 'Pop', plays: 2 },
        { genre: 'Acoustic', plays: 1 },
      ]),
    ).toBe('Pop');
  });

  it('never picks songs without a genre', () => {
    expect(
      topGenre([
        { genre: null, plays: 5 },
        { genre: 'Pop', plays: 1 },
      ]),
    ).toBe('Pop');
    expect(topGenre([{ genre: null, plays: 3 }])).toBeNull();
    expect(topGenre([])).toBeNull();
  });
});
