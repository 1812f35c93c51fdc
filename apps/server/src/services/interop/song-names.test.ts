import { describe, expect, it } from 'vitest';
import { mainArtist, normalizeTitle, songNameKey, splitArtistFromTitle } from './song-names.js';

describe('song name keys', () => {
  it('drop featuring credits and edit words, fold case, accents and punctuation', () => {
    const key = songNameKey('Señorita', 'Shawn Mendes & Camila Cabello');
    expect(songNameKey('Senorita (feat. Camila Cabello) [Radio Edit]', 'Shawn Mendes')).toBe(key);
    expect(songNameKey('SEÑORITA - Radio Edit', 'Shawn Mendes feat. Camila Cabello')).toBe(key);
    expect(songNameKey('Señorita ft. Camila Cabello', 'Shawn Mendes, Camila Cabello')).toBe(key);
    expect(songNameKey("Ain't No Sunshine (2011 Remaster)", 'Bill Withers')).toBe(
      songNameKey('Aint No Sunshine', 'Bill Withers'),
    );
    expect(songNameKey('Rock & Roll (Clean)', 'A')).toBe(songNameKey('Rock and Roll', 'A'));
  });

  it('keep remixes, live and acoustic versions apart, written alike in brackets or after a dash', () => {
    expect(songNameKey('Unsteady (Kygo Remix)', 'X Ambassadors')).not.toBe(
      songNameKey('Unsteady', 'X Ambassadors'),
    );
    expect(songNameKey('Unsteady - Kygo Remix', 'X Ambassadors')).toBe(
      songNameKey('Unsteady [Kygo Remix]', 'X Ambassadors'),
    );
    expect(normalizeTitle('Stay (Live)')).toBe('stay live');
    expect(normalizeTitle('Stay (Acoustic Version)')).toBe('stay acoustic version');
  });

  it('keeps the first artist credited, and meets only unknown artists without one', () => {
    expect(mainArtist('Zedd x Maren Morris vs. Grey')).toBe('zedd');
    expect(mainArtist('AC/DC')).toBe('ac');
    expect(songNameKey('Blues Jam', '')).toBe(songNameKey('Blues Jam', 'Unknown Artist'));
    expect(songNameKey('Blues Jam', '')).not.toBe(songNameKey('Blues Jam', 'Jam Band'));
    expect(songNameKey('', 'Somebody')).toBeNull();
  });

  it('splits "Artist - Title" file names when no artist is given', () => {
    expect(splitArtistFromTitle('X Ambassadors - Unsteady', '')).toEqual({
      artist: 'X Ambassadors',
      title: 'Unsteady',
    });
    expect(splitArtistFromTitle('Unsteady - Kygo Remix', 'X Ambassadors')).toEqual({
      artist: 'X Ambassadors',
      title: 'Unsteady - Kygo Remix',
    });
  });
});
