import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvReader, csvWriter, DEFAULT_CSV_MAPPING } from './csv.js';
import { type DjCsvMapping, DjFormatError, type DjLibrary, type DjTrack } from './types.js';

const fixture = readFileSync(path.join(import.meta.dirname, 'fixtures/tracklist.csv'));
const mapping: DjCsvMapping = {
  title: 'Track Title',
  artist: 'Artist',
  album: 'Album',
  genre: 'Genre',
  durationSeconds: 'Time',
  bpm: 'BPM',
  musicalKey: 'Key',
  playCount: 'Plays',
  dateAdded: 'Added',
  rating: 'Stars',
  playedAt: 'Played',
  location: 'File',
};
const library = csvReader.read(fixture, {
  csvMapping: mapping,
  fileName: 'Friday Night.csv',
  timeZone: 'America/Chicago',
});
const [unsteady, senorita, sunshine, blues] = library.tracks;

describe('CSV reader with a column mapping', () => {
  it('finds the semicolon delimiter and reads every row, quoted fields included', () => {
    expect(library.format).toBe('csv');
    expect(library.tracks).toHaveLength(4);
  });

  it('reads the title and artist columns, with embedded delimiters and doubled quotes', () => {
    expect(unsteady).toMatchObject({ title: 'Unsteady', artist: 'X Ambassadors' });
    expect(senorita).toMatchObject({ title: 'Señorita', artist: 'Shawn Mendes; Camila Cabello' });
    expect(sunshine).toMatchObject({ title: 'Ain\'t No Sunshine "Live"', artist: 'Bill Withers' });
    expect(blues).toMatchObject({ title: 'Blues Jam', artist: '' });
  });

  it('reads the album and genre columns, empty cells left out', () => {
    expect(unsteady).toMatchObject({ album: 'VHS', genre: 'Pop' });
    expect(senorita).not.toHaveProperty('album');
    expect(blues).not.toHaveProperty('genre');
  });

  it('reads the location column, decoding file:// URLs; keys by it, else by "artist - title"', () => {
    expect(unsteady!.location).toBe('/Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3');
    expect(senorita!.location).toBe('/Users/dj/Music/WCS/Shawn Mendes - Señorita.m4a');
    expect(blues!.location).toBe('D:\\Blues\\Blues Jam.wav');
    expect(sunshine).not.toHaveProperty('location');
    expect(sunshine!.key).toBe('Bill Withers - Ain\'t No Sunshine "Live"');
    expect(unsteady!.key).toBe(unsteady!.location);
  });

  it('reads durations as m:ss or seconds', () => {
    expect(unsteady!.durationSeconds).toBe(193);
    expect(senorita!.durationSeconds).toBe(191);
    expect(blues!.durationSeconds).toBe(240);
    expect(sunshine).not.toHaveProperty('durationSeconds');
  });

  it('reads the BPM, a decimal comma included', () => {
    expect(unsteady!.bpm).toBe(104.5);
    expect(blues!.bpm).toBe(88.2);
  });

  it('reads the key as written', () => {
    expect(unsteady!.musicalKey).toBe('8A');
    expect(blues!.musicalKey).toBe('F#m');
  });

  it('reads the play count', () => {
    expect(senorita!.playCount).toBe(31);
    expect(sunshine!.playCount).toBe(0);
  });

  it('reads the date added, YYYY-MM-DD or YYYY/M/D', () => {
    expect(unsteady!.dateAdded).toBe('2023-01-14');
    expect(senorita!.dateAdded).toBe('2019-07-01');
  });

  it('reads the rating in stars, 0 as unrated', () => {
    expect(senorita!.rating).toBe(5);
    expect(sunshine).not.toHaveProperty('rating');
  });

  it('with a playedAt column, reads one history session: wall times in the zone, offsets, Unix time', () => {
    expect(library.playlists).toEqual([]);
    expect(library.history).toEqual([
      {
        name: 'Friday Night',
        startedAt: '2024-05-04T02:02:10Z',
        date: '2024-05-03',
        entries: [
          { trackKey: unsteady!.key, playedAt: '2024-05-04T02:02:10Z' },
          { trackKey: senorita!.key, playedAt: '2024-05-04T02:06:40Z' },
          { trackKey: sunshine!.key, playedAt: '2024-05-04T04:58:00Z' },
          { trackKey: blues!.key, playedAt: '2024-05-04T05:03:05Z' },
        ],
      },
    ]);
  });

  it('without one, reads one playlist in row order', () => {
    const { playedAt: _playedAt, ...noTimes } = mapping;
    const list = csvReader.read(fixture, { csvMapping: noTimes });
    expect(list.history).toEqual([]);
    expect(list.playlists).toEqual([{ name: 'CSV', path: [], trackKeys: library.tracks.map((t) => t.key) }]);
  });

  it('matches headers regardless of case, and says which mapped column is missing', () => {
    expect(
      csvReader.read('TITLE,ARTIST\nA,B\n', { csvMapping: { title: 'Title', artist: 'Artist' } }).tracks,
    ).toEqual([{ key: 'B - A', title: 'A', artist: 'B' }]);
    expect(() => csvReader.read(fixture, { csvMapping: { ...mapping, bpm: 'Tempo' } })).toThrow(
      /no column "Tempo" \(for bpm\)/,
    );
    expect(() => csvReader.read(fixture)).toThrow(DjFormatError);
  });
});

describe('CSV writer', () => {
  const source: DjLibrary = {
    format: 'csv',
    tracks: [
      {
        key: 'a',
        title: 'Señorita, "Live"',
        artist: 'Shawn Mendes; Camila Cabello',
        album: 'Line\nbreak',
        genre: 'Contemporary',
        location: '/Users/dj/Music/Señorita.m4a',
        durationSeconds: 190.5,
        bpm: 117.25,
        musicalKey: '8A',
        playCount: 31,
        dateAdded: '2019-07-01',
        rating: 5,
      },
      { key: 'b', title: 'Blues Jam', artist: '', durationSeconds: 240 },
    ],
    playlists: [],
    history: [
      {
        name: 'Friday',
        startedAt: '2024-05-04T02:02:10Z',
        date: '2024-05-03',
        entries: [
          { trackKey: 'a', playedAt: '2024-05-04T02:02:10Z' },
          { trackKey: 'b', playedAt: '2024-05-04T05:03:05Z' },
          { trackKey: 'a', playedAt: '2024-05-04T05:10:00Z' },
        ],
      },
    ],
  };
  const written = csvWriter.write(source) as string;
  const back = csvReader.read(written, { csvMapping: DEFAULT_CSV_MAPPING, fileName: 'Friday.csv' });
  const withoutKey = ({ key: _key, ...fields }: DjTrack) => fields;

  it('writes a header and quotes cells with commas, quotes and line breaks (RFC 4180)', () => {
    expect(written.split('\r\n')[0]).toBe(
      'Title,Artist,Album,Genre,Location,Duration,BPM,Key,Play Count,Date Added,Rating,Played At',
    );
    expect(written).toContain('"Señorita, ""Live""","Shawn Mendes; Camila Cabello","Line\nbreak",');
  });

  it('reads back every field and the play times with the same mapping', () => {
    expect(back.tracks.map(withoutKey)).toEqual(source.tracks.map(withoutKey));
    expect(back.history[0]!.entries.map((entry) => entry.playedAt)).toEqual(
      source.history[0]!.entries.map((e) => e.playedAt),
    );
    expect(back.history[0]!.startedAt).toBe('2024-05-04T02:02:10Z');
  });

  it('writes only the mapped columns, and no play time for a playlist', () => {
    const custom = csvWriter.write(
      { tracks: source.tracks, playlists: [{ name: 'P', path: [], trackKeys: ['b'] }] },
      { csvMapping: { title: 'Track', artist: 'By', playedAt: 'When' } },
    );
    expect(custom).toBe('Track,By\r\nBlues Jam,\r\n');
  });

  it('writes every cell byte for byte: empty for a missing field, 0 kept, quoted at an edge space or a tab', () => {
    const edges: DjTrack = { key: 'c', title: ' Lead', artist: 'Tab\there', playCount: 0, bpm: 0 };
    const tracks = [...source.tracks, edges];
    expect(
      csvWriter.write({ tracks, playlists: [{ name: 'P', path: [], trackKeys: ['c', 'b', 'a'] }] }),
    ).toBe(
      'Title,Artist,Album,Genre,Location,Duration,BPM,Key,Play Count,Date Added,Rating\r\n' +
        '" Lead","Tab\there",,,,,0,,0,,\r\n' +
        'Blues Jam,,,,,240,,,,,\r\n' +
        '"Señorita, ""Live""","Shawn Mendes; Camila Cabello","Line\nbreak",Contemporary,' +
        '/Users/dj/Music/Señorita.m4a,190.5,117.25,8A,31,2019-07-01,5\r\n',
    );
    const history = csvWriter.write({ ...source, tracks }) as string;
    expect(history.split('\r\n').slice(1)).toEqual([
      '"Señorita, ""Live""","Shawn Mendes; Camila Cabello","Line\nbreak",Contemporary,' +
        '/Users/dj/Music/Señorita.m4a,190.5,117.25,8A,31,2019-07-01,5,2024-05-04T02:02:10Z',
      'Blues Jam,,,,,240,,,,,,2024-05-04T05:03:05Z',
      '"Señorita, ""Live""","Shawn Mendes; Camila Cabello","Line\nbreak",Contemporary,' +
        '/Users/dj/Music/Señorita.m4a,190.5,117.25,8A,31,2019-07-01,5,2024-05-04T05:10:00Z',
      '',
    ]);
  });
});
