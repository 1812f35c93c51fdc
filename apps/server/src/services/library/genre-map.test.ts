import { GENRES } from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import { GENRE_TABLE, genreKey, mapGenre } from './genre-map.js';

describe('mapGenre', () => {
  it.each([
    ['Blues', 'Blues/Jazz'],
    ['jazz', 'Blues/Jazz'],
    ['Swing', 'Blues/Jazz'],
    ['Soul', 'Blues/Jazz'],
    ['Hip-Hop', 'Hip-Hop/R&B'],
    ['hip hop', 'Hip-Hop/R&B'],
    ['Rap', 'Hip-Hop/R&B'],
    ['R&B', 'Hip-Hop/R&B'],
    ['r & b', 'Hip-Hop/R&B'],
    ['RnB', 'Hip-Hop/R&B'],
    ["R'n'B", 'Hip-Hop/R&B'],
    ['Acoustic', 'Acoustic'],
    ['Folk', 'Acoustic'],
    ['Singer-Songwriter', 'Acoustic'],
    ['singer/songwriter', 'Acoustic'],
    ['Country', 'Acoustic'],
    ['Pop', 'Pop'],
    ['Dance-Pop', 'Pop'],
    ['Electropop', 'Pop'],
    ['Contemporary', 'Contemporary'],
    ['Electronic', 'Contemporary'],
    ['Indie', 'Contemporary'],
    ['Alternative', 'Contemporary'],
    ['Rock', 'Contemporary'],
    ['Lyrical', 'Contemporary'],
    ['Trip-Hop', 'Contemporary'],
  ])('maps %s to %s', (tag, genre) => {
    expect(mapGenre(tag)).toBe(genre);
  });

  it('ignores case, accents and white space around the tag', () => {
    expect(mapGenre('  ÉLECTRONIC ')).toBe('Contemporary');
    expect(mapGenre('SOUL')).toBe('Blues/Jazz');
  });

  it('maps unknown and empty tags to null', () => {
    expect(mapGenre('Polka')).toBeNull();
    expect(mapGenre('')).toBeNull();
    expect(mapGenre([])).toBeNull();
    expect(mapGenre(null)).toBeNull();
    expect(mapGenre(undefined)).toBeNull();
  });

  it('takes the first known value of several tags, and the first known part of a combined tag', () => {
    expect(mapGenre(['Polka', 'Soul', 'Pop'])).toBe('Blues/Jazz');
    expect(mapGenre('Pop/Rock')).toBe('Pop');
    expect(mapGenre('Polka; Folk, Pop')).toBe('Acoustic');
    expect(mapGenre(['Polka', 'Schlager'])).toBeNull();
  });

  it('keeps a tag that contains a separator whole when the whole tag is known', () => {
    // Split first, 'singer' and 'songwriter' would both be unknown.
    expect(mapGenre('Singer/Songwriter')).toBe('Acoustic');
  });

  it('lists every product genre in the table and no tag under two genres', () => {
    expect(Object.keys(GENRE_TABLE).sort()).toEqual([...GENRES].sort());
    const seen = new Map<string, string>();
    for (const [genre, tags] of Object.entries(GENRE_TABLE)) {
      for (const tag of tags) {
        const key = genreKey(tag);
        expect(seen.get(key) ?? genre, `tag ${tag}`).toBe(genre);
        seen.set(key, genre);
      }
    }
  });
});
