import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rekordboxXmlReader, rekordboxXmlWriter } from './rekordbox-xml.js';
import { DjFormatError, type DjLibrary, type DjTrack } from './types.js';

const fixture = readFileSync(path.join(import.meta.dirname, 'fixtures/rekordbox.xml'));
const library = rekordboxXmlReader.read(fixture);
const track = (key: string) => library.tracks.find((candidate) => candidate.key === key)!;

describe('rekordbox XML reader on the collection fixture', () => {
  it('reads every COLLECTION track, keyed by TrackID, in file order', () => {
    expect(library.format).toBe('rekordbox-xml');
    expect(library.tracks.map((t) => t.key)).toEqual(['101', '102', '103', '104']);
  });

  it('reads Name as the title, with entities decoded', () => {
    expect(track('101').title).toBe('Unsteady');
    expect(track('103').title).toBe("Ain't No Sunshine");
    expect(track('102').title).toBe('Señorita');
  });

  it('reads Artist, empty when the attribute is empty', () => {
    expect(track('102').artist).toBe('Shawn Mendes & Camila Cabello');
    expect(track('104').artist).toBe('');
  });

  it('reads Album and Genre, leaving out empty ones', () => {
    expect(track('101').album).toBe('VHS');
    expect(track('101').genre).toBe('Pop');
    expect(track('102')).not.toHaveProperty('album');
    expect(track('104')).not.toHaveProperty('genre');
  });

  it('decodes Location from its file://localhost/ URL: spaces, UTF-8, #, Windows drives, volumes', () => {
    expect(track('101').location).toBe('/Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3');
    expect(track('102').location).toBe('D:/Music/WCS/Shawn Mendes - Señorita.m4a');
    expect(track('103').location).toBe("/Users/dj/Music/WCS/Ain't No Sunshine #2.mp3");
    expect(track('104').location).toBe('/Volumes/USB DJ/Blues/Blues Jam.wav');
  });

  it('reads TotalTime as whole seconds', () => {
    expect(track('101').durationSeconds).toBe(193);
    expect(track('103').durationSeconds).toBe(125);
  });

  it('reads AverageBpm, and "0.00" (not analysed) as no BPM', () => {
    expect(track('101').bpm).toBe(104.5);
    expect(track('102').bpm).toBe(117);
    expect(track('103')).not.toHaveProperty('bpm');
  });

  it('reads Tonality as written, and an empty one as no key', () => {
    expect(track('101').musicalKey).toBe('8A');
    expect(track('102').musicalKey).toBe('Am');
    expect(track('104').musicalKey).toBe('F#m');
    expect(track('103')).not.toHaveProperty('musicalKey');
  });

  it('reads PlayCount, zero included', () => {
    expect(track('102').playCount).toBe(31);
    expect(track('103').playCount).toBe(0);
  });

  it('reads DateAdded', () => {
    expect(track('101').dateAdded).toBe('2023-01-14');
    expect(track('103').dateAdded).toBe('2020-02-29');
  });

  it('reads Rating 51 per star, and 0 as unrated', () => {
    expect(track('101').rating).toBe(4);
    expect(track('102').rating).toBe(5);
    expect(track('104').rating).toBe(1);
    expect(track('103')).not.toHaveProperty('rating');
  });

  it('reads playlists with their folder path, skipping keys missing from the collection', () => {
    expect(library.playlists).toEqual([
      { name: 'Friday Night', path: ['Events', '2024'], trackKeys: ['101', '102', '103'] },
      { name: 'Warm-up', path: [], trackKeys: ['104', '101'] },
      { name: 'By location', path: [], trackKeys: ['102', '104'] },
    ]);
  });

  it('reads the playlists under the HISTORY folder as sessions dated by their name', () => {
    expect(library.history).toEqual([
      {
        name: 'HISTORY 2024-05-03',
        date: '2024-05-03',
        entries: [{ trackKey: '101' }, { trackKey: '102' }, { trackKey: '104' }],
      },
      { name: 'HISTORY 2024-05-04 (2)', date: '2024-05-04', entries: [{ trackKey: '103' }] },
    ]);
  });

  it('refuses a file that is not rekordbox XML, saying why', () => {
    expect(() => rekordboxXmlReader.read('<NML VERSION="19"></NML>')).toThrow(/root element is <NML>/);
    expect(() => rekordboxXmlReader.read('<DJ_PLAYLISTS><COLLECTION>')).toThrow(DjFormatError);
  });
});

describe('rekordbox XML writer', () => {
  const source: DjLibrary = {
    format: 'rekordbox-xml',
    tracks: [
      {
        key: 'a',
        title: 'Señorita',
        artist: 'Shawn Mendes & Camila Cabello',
        album: 'Shawn Mendes (Deluxe) <2019>',
        genre: 'Contemporary',
        location: '/Users/dj/Music/WCS/Se%orita #1 (edit).m4a',
        durationSeconds: 191,
        bpm: 117.25,
        musicalKey: '8A',
        playCount: 31,
        dateAdded: '2019-07-01',
        rating: 5,
      },
      { key: 'b', title: 'Blues Jam', artist: '', location: 'D:/Music/Blues Jam.wav', durationSeconds: 240 },
      { key: 'c', title: 'No file', artist: 'Nobody' },
    ],
    playlists: [
      { name: 'Friday Night', path: ['Events', '2024'], trackKeys: ['a', 'b', 'c'] },
      { name: 'Saturday', path: ['Events', '2024'], trackKeys: ['b'] },
      { name: 'Loose', path: [], trackKeys: ['a'] },
    ],
    history: [
      { name: 'HISTORY 2024-05-03', date: '2024-05-03', entries: [{ trackKey: 'b' }, { trackKey: 'a' }] },
    ],
  };
  const written = rekordboxXmlWriter.write(source) as string;
  const back = rekordboxXmlReader.read(written);
  const withoutKey = ({ key: _key, ...fields }: DjTrack) => fields;

  it('writes the bridge layout: AverageBpm, Tonality, Location as file://localhost/ URLs', () => {
    expect(written).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<DJ_PLAYLISTS Version="1.0.0">/);
    expect(written).toContain('AverageBpm="117.25"');
    expect(written).toContain('Tonality="8A"');
    expect(written).toContain(
      'Location="file://localhost/Users/dj/Music/WCS/Se%25orita%20%231%20(edit).m4a"',
    );
    expect(written).toContain('Location="file://localhost/D:/Music/Blues%20Jam.wav"');
    expect(written).toContain('<COLLECTION Entries="2">');
  });

  it('reads back every field it carries, for every track that has a location', () => {
    expect(back.tracks.map(withoutKey)).toEqual(source.tracks.slice(0, 2).map(withoutKey));
  });

  it('reads back the playlists in their folders and the history sessions, renumbering the keys', () => {
    expect(back.tracks.map((t) => t.key)).toEqual(['1', '2']);
    expect(back.playlists).toEqual([
      { name: 'Friday Night', path: ['Events', '2024'], trackKeys: ['1', '2'] },
      { name: 'Saturday', path: ['Events', '2024'], trackKeys: ['2'] },
      { name: 'Loose', path: [], trackKeys: ['1'] },
    ]);
    expect(back.history).toEqual([
      { name: 'HISTORY 2024-05-03', date: '2024-05-03', entries: [{ trackKey: '2' }, { trackKey: '1' }] },
    ]);
  });

  it('keeps whole-number TrackIDs and writes the fixture back to the same library', () => {
    const again = rekordboxXmlReader.read(rekordboxXmlWriter.write(library) as string);
    expect(again.tracks).toEqual(library.tracks);
    expect(again.playlists).toEqual(library.playlists);
    expect(again.history).toEqual(library.history);
  });
});
