import { describe, expect, it } from 'vitest';
import {
  analysisStatus,
  energyBand,
  hasAnyFilter,
  NO_FILTERS,
  popularityBand,
  songListQuery,
} from './song-filters.js';

describe('songListQuery', () => {
  it('pages by 50 and sends every filter and the search to the server', () => {
    expect(songListQuery(NO_FILTERS, '', 0)).toEqual({
      skip: 0,
      limit: 50,
      genre: undefined,
      age_category: undefined,
      has_file: undefined,
      energy: undefined,
      analysis: undefined,
      popularity: undefined,
      q: undefined,
    });
    expect(
      songListQuery(
        {
          genre: 'Blues/Jazz',
          age: 'old',
          fileStatus: 'not_downloaded',
          energy: 'high',
          analysis: 'pending',
          popularity: 'niche',
        },
        '  Amy ',
        2,
      ),
    ).toEqual({
      skip: 100,
      limit: 50,
      genre: 'Blues/Jazz',
      age_category: 'old',
      has_file: 'false',
      energy: 'high',
      analysis: 'pending',
      popularity: 'niche',
      q: 'Amy',
    });
    expect(songListQuery({ ...NO_FILTERS, fileStatus: 'downloaded' }, '', 0).has_file).toBe('true');
    expect(songListQuery(NO_FILTERS, '   ', 0).q).toBeUndefined();
  });
});

describe('bands and statuses', () => {
  it('reads energy bands on the 0-1000 scale', () => {
    expect(energyBand(1000)).toBe('high');
    expect(energyBand(700)).toBe('high');
    expect(energyBand(699)).toBe('mid');
    expect(energyBand(400)).toBe('mid');
    expect(energyBand(399)).toBe('low');
    expect(energyBand(0)).toBe('low');
    expect(energyBand(null)).toBeNull();
  });
  it('reads popularity bands', () => {
    expect(popularityBand(90)).toBe('hot');
    expect(popularityBand(89)).toBe('popular');
    expect(popularityBand(60)).toBe('popular');
    expect(popularityBand(59)).toBe('niche');
    expect(popularityBand(null)).toBeNull();
  });
  it('tells analysed, pending and no-file songs apart', () => {
    expect(analysisStatus({ analyzed_at: '2025-01-01T00:00:00Z', file_present: true })).toBe('analyzed');
    expect(analysisStatus({ analyzed_at: null, file_present: true })).toBe('pending');
    expect(analysisStatus({ analyzed_at: null, file_present: false })).toBe('no-file');
  });
  it('knows when a filter is set', () => {
    expect(hasAnyFilter(NO_FILTERS)).toBe(false);
    expect(hasAnyFilter({ ...NO_FILTERS, popularity: 'niche' })).toBe(true);
  });
});
