import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { traktorNmlReader, traktorNmlWriter } from './traktor-nml.js';
import { DjFormatError, type DjLibrary, type DjTrack } from './types.js';

const HISTORY_FILE = 'traktor-history_2024y05m03d_21h02m10s.nml';
const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name));
const collection = traktorNmlReader.read(fixture('traktor-collection.nml'));

const UNSTEADY = 'Macintosh HD/:Users/:dj/:Music/:WCS/:X Ambassadors - Unsteady.mp3';
const SENORITA = 'D:/:Music/:WCS/:Shawn Mendes - Señorita.m4a';
const SUNSHINE = "Macintosh HD/:Users/:dj/:Music/:WCS/:Ain't No Sunshine.mp3";
const BLUES = 'USB DJ/:Blues/:Blues Jam.wav';
const track = (key: string) => collection.tracks.find((candidate) => candidate.key === key)!;

describe('Traktor NML reader on the collection fixture', () => {
  it('keys each ENTRY by its primary key, VOLUME + DIR + FILE', () => {
    expect(collection.format).toBe('traktor-nml');
    expect(collection.tracks.map((t) => t.key)).toEqual([UNSTEADY, SENORITA, SUNSHINE, BLUES]);
  });

  it('reads TITLE and ARTIST, entities decoded', () => {
    expect(track(SENORITA).title).toBe('Señorita');
    expect(track(SENORITA).artist).toBe('Shawn Mendes & Camila Cabello');
    expect(track(BLUES).artist).toBe('');
  });

  it('reads ALBUM TITLE and INFO GENRE', () => {
    expect(track(UNSTEADY).album).toBe('VHS');
    expect(track(UNSTEADY).genre).toBe('Pop');
    expect(track(SENORITA)).not.toHaveProperty('album');
    expect(track(BLUES)).not.toHaveProperty('genre');
  });

  it('builds the location from VOLUME, the /: separated DIR and FILE', () => {
    expect(track(UNSTEADY).location).toBe('/Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3');
    expect(track(SENORITA).location).toBe('D:/Music/WCS/Shawn Mendes - Señorita.m4a');
    expect(track(BLUES).location).toBe('/Volumes/USB DJ/Blues/Blues Jam.wav');
  });

  it('reads the start-up volume under another name when told its name', () => {
    const renamed = traktorNmlReader.read(fixture('traktor-collection.nml'), { rootVolume: 'Data' });
    expect(renamed.tracks[0]!.location).toBe(
      '/Volumes/Macintosh HD/Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3',
    );
  });

  it('reads PLAYTIME_FLOAT, else PLAYTIME, as the duration', () => {
    expect(track(UNSTEADY).durationSeconds).toBe(192.809799);
    expect(track(SENORITA).durationSeconds).toBe(191);
  });

  it('reads TEMPO BPM', () => {
    expect(track(UNSTEADY).bpm).toBe(104.499992);
    expect(track(SUNSHINE)).not.toHaveProperty('bpm');
  });

  it('reads INFO KEY as written, else names MUSICAL_KEY VALUE', () => {
    expect(track(UNSTEADY).musicalKey).toBe('1m');
    expect(track(SUNSHINE).musicalKey).toBe('4d');
    expect(track(SENORITA).musicalKey).toBe('F#m');
  });

  it('reads INFO PLAYCOUNT', () => {
    expect(track(SENORITA).playCount).toBe(31);
    expect(track(SUNSHINE)).not.toHaveProperty('playCount');
  });

  it('reads INFO IMPORT_DATE (yyyy/m/d) as the date added', () => {
    expect(track(UNSTEADY).dateAdded).toBe('2023-01-14');
    expect(track(SUNSHINE).dateAdded).toBe('2020-02-29');
  });

  it('reads INFO RANKING, 51 per star, 0 as unrated', () => {
    expect(track(UNSTEADY).rating).toBe(4);
    expect(track(SENORITA).rating).toBe(5);
    expect(track(BLUES).rating).toBe(1);
    expect(track(SUNSHINE)).not.toHaveProperty('rating');
  });

  it('reads the playlist tree under $ROOT with folder paths, dropping keys not in the collection', () => {
    expect(collection.playlists).toEqual([
      { name: 'Friday Night', path: ['Events', '2024'], trackKeys: [UNSTEADY, SENORITA, BLUES] },
      { name: 'Preparation', path: [], trackKeys: [] },
      { name: 'Warm-up', path: [], trackKeys: [SUNSHINE, UNSTEADY] },
    ]);
    expect(collection.history).toEqual([]);
  });
});

describe('Traktor NML reader on a history file', () => {
  const history = traktorNmlReader.read(fixture(HISTORY_FILE), {
    fileName: `History/${HISTORY_FILE}`,
    timeZone: 'America/Chicago',
  });

  it('reads the played tracks of its COLLECTION', () => {
    expect(history.tracks.map((t) => t.key)).toEqual([UNSTEADY, SENORITA, BLUES]);
    expect(history.playlists).toEqual([]);
  });

  it('reads STARTDATE and STARTTIME as local wall time in the given zone, past midnight too', () => {
    expect(history.history).toEqual([
      {
        name: 'traktor-history_2024y05m03d_21h02m10s',
        startedAt: '2024-05-04T02:02:10Z',
        date: '2024-05-03',
        entries: [
          { trackKey: UNSTEADY, playedAt: '2024-05-04T02:02:10Z' },
          { trackKey: SENORITA, playedAt: '2024-05-04T02:06:40Z' },
          { trackKey: BLUES, playedAt: '2024-05-04T05:03:05Z' },
        ],
      },
    ]);
  });

  it('keeps the entries not played to the room (PLAYEDPUBLIC="0") only when asked', () => {
    const all = traktorNmlReader.read(fixture(HISTORY_FILE), { timeZone: 'UTC', includeUnplayed: true });
    expect(all.history[0]!.entries.map((entry) => entry.playedAt)).toEqual([
      '2024-05-03T21:02:10Z',
      '2024-05-03T21:05:00Z',
      '2024-05-03T21:06:40Z',
      '2024-05-04T00:03:05Z',
    ]);
    expect(all.history[0]!.name).toBe('HISTORY');
  });

  it('refuses other XML and a broken file', () => {
    expect(() => traktorNmlReader.read('<DJ_PLAYLISTS/>')).toThrow(/expected <NML>/);
    expect(() => traktorNmlReader.read(Buffer.from('<NML VERSION="19"><COLLECTION>'))).toThrow(DjFormatError);
  });
});

describe('Traktor NML writer', () => {
  const source: DjLibrary = {
    format: 'traktor-nml',
    tracks: [
      {
        key: 'a',
        title: 'Señorita',
        artist: 'Shawn Mendes & Camila Cabello',
        album: 'Shawn Mendes <Deluxe>',
        genre: 'Contemporary',
        location: '/Users/dj/Music/WCS/Señorita.m4a',
        durationSeconds: 190.5,
        bpm: 117.25,
        musicalKey: '8A',
        playCount: 31,
        dateAdded: '2019-07-01',
        rating: 5,
      },
      { key: 'b', title: 'Blues Jam', artist: '', location: 'D:/Music/Blues Jam.wav', musicalKey: 'F#m' },
      { key: 'c', title: 'External', artist: 'X', location: '/Volumes/USB DJ/x.mp3' },
      { key: 'd', title: 'No file', artist: 'Nobody' },
    ],
    playlists: [{ name: 'Friday Night', path: ['Events'], trackKeys: ['a', 'd', 'b'] }],
    history: [
      {
        name: 'Friday 2024-05-03',
        startedAt: '2024-05-04T02:02:10Z',
        date: '2024-05-03',
        entries: [
          { trackKey: 'b', playedAt: '2024-05-04T02:02:10Z' },
          { trackKey: 'a', playedAt: '2024-05-04T05:03:05Z' },
        ],
      },
    ],
  };
  const written = traktorNmlWriter.write(source, { timeZone: 'America/Chicago' }) as string;
  const back = traktorNmlReader.read(written, { timeZone: 'America/Chicago' });
  const withoutKey = ({ key: _key, ...fields }: DjTrack) => fields;

  it('writes LOCATION in Traktor form and MUSICAL_KEY numbers beside the written key', () => {
    expect(written).toContain(
      '<LOCATION DIR="/:Users/:dj/:Music/:WCS/:" FILE="Señorita.m4a" VOLUME="Macintosh HD"',
    );
    expect(written).toContain('<LOCATION DIR="/:Music/:" FILE="Blues Jam.wav" VOLUME="D:"');
    expect(written).toContain('<MUSICAL_KEY VALUE="21"/>');
    expect(written).toContain('<MUSICAL_KEY VALUE="18"/>');
    expect(written).toContain('IMPORT_DATE="2019/7/1"');
  });

  it('reads back every field it carries, for the tracks with a location', () => {
    expect(back.tracks.map(withoutKey)).toEqual(source.tracks.slice(0, 3).map(withoutKey));
  });

  it('reads back the playlists and the history with its play times', () => {
    const keyOf = new Map(back.tracks.map((t, index) => [source.tracks[index]!.key, t.key]));
    expect(back.playlists).toEqual([
      { name: 'Friday Night', path: ['Events'], trackKeys: [keyOf.get('a'), keyOf.get('b')] },
    ]);
    expect(back.history).toEqual([
      {
        name: 'Friday 2024-05-03',
        startedAt: '2024-05-04T02:02:10Z',
        date: '2024-05-03',
        entries: [
          { trackKey: keyOf.get('b'), playedAt: '2024-05-04T02:02:10Z' },
          { trackKey: keyOf.get('a'), playedAt: '2024-05-04T05:03:05Z' },
        ],
      },
    ]);
  });

  it('writes the collection fixture back to the same library', () => {
    const again = traktorNmlReader.read(traktorNmlWriter.write(collection) as string);
    expect(again.tracks).toEqual(collection.tracks);
    expect(again.playlists).toEqual(collection.playlists);
  });
});
