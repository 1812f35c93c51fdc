import type { Song } from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import {
  analysisStatus,
  energyBand,
  filterLoadedSongs,
  hasAnyFilter,
  NO_FILTERS,
  popularityBand,
  songListQuery,
} from './song-filters.js';

function song(overrides: Partial<Song>): Song {
  return {
    song_id: 1,
    title: 'Title',
    artist: 'Artist',
    album: null,
    genre: 'Pop',
    release_date: null,
    age_category: null,
    bpm: 96,
    bpm_alt: 192,
    key: 'A minor',
    key_confidence: 0.8,
    key_uncertain: false,
    energy_level: 500,
    danceability: 600,
    valence: 400,
    spotify_popularity: 70,
    duration_ms: 200_000,
    analyzed_at: '2025-01-02T10:00:00Z',
    analysis_version: 'v1',
    file_present: true,
    file_path: '/music/a.mp3',
    overplay_score: 10,
    play_count: 3,
    isrc: null,
    artwork_url: null,
    preview_url: null,
    sources: {},
    ...overrides,
  };
}

describe('songListQuery', () => {
  it('pages by 50 and sends only the server filters', () => {
    expect(songListQuery(NO_FILTERS, 0)).toEqual({
      skip: 0,
      limit: 50,
      genre: undefined,
      age_category: undefined,
      has_file: undefined,
    });
    expect(
      songListQuery(
        { ...NO_FILTERS, genre: 'Blues/Jazz', age: 'old', fileStatus: 'not_downloaded', energy: 'high' },
        2,
      ),
    ).toEqual({ skip: 100, limit: 50, genre: 'Blues/Jazz', age_category: 'old', has_file: 'false' });
    expect(songListQuery({ ...NO_FILTERS, fileStatus: 'downloaded' }, 0).has_file).toBe('true');
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

describe('filterLoadedSongs', () => {
  const songs = [
    song({
      song_id: 1,
      title: 'Crazy in Love',
      artist: 'Beyoncé',
      energy_level: 800,
      spotify_popularity: 95,
    }),
    song({ song_id: 2, title: 'Slow Burn', artist: 'Kacey Musgraves', energy_level: 300, analyzed_at: null }),
    song({
      song_id: 3,
      title: 'Valerie',
      artist: 'Amy Winehouse',
      energy_level: null,
      spotify_popularity: 40,
    }),
  ];
  const ids = (list: Song[]) => list.map((s) => s.song_id);

  it('keeps everything without filters or search', () => {
    expect(ids(filterLoadedSongs(songs, NO_FILTERS, ''))).toEqual([1, 2, 3]);
  });
  it('searches title or artist, case-insensitively', () => {
    expect(ids(filterLoadedSongs(songs, NO_FILTERS, 'CRAZY'))).toEqual([1]);
    expect(ids(filterLoadedSongs(songs, NO_FILTERS, 'winehouse'))).toEqual([3]);
    expect(ids(filterLoadedSongs(songs, NO_FILTERS, '  slow '))).toEqual([2]);
    expect(ids(filterLoadedSongs(songs, NO_FILTERS, 'nothing'))).toEqual([]);
  });
  it('filters by energy band, leaving out songs without energy', () => {
    expect(ids(filterLoadedSongs(songs, { ...NO_FILTERS, energy: 'high' }, ''))).toEqual([1]);
    expect(ids(filterLoadedSongs(songs, { ...NO_FILTERS, energy: 'low' }, ''))).toEqual([2]);
  });
  it('filters by analysis status and popularity band, combined with search', () => {
    expect(ids(filterLoadedSongs(songs, { ...NO_FILTERS, analysis: 'pending' }, ''))).toEqual([2]);
    expect(ids(filterLoadedSongs(songs, { ...NO_FILTERS, analysis: 'analyzed' }, ''))).toEqual([1, 3]);
    expect(ids(filterLoadedSongs(songs, { ...NO_FILTERS, popularity: 'niche' }, ''))).toEqual([3]);
    expect(ids(filterLoadedSongs(songs, { ...NO_FILTERS, analysis: 'analyzed' }, 'amy'))).toEqual([3]);
  });
});
