import { describe, expect, it } from 'vitest';
import { seratoCrateFileName, seratoCrateReader, seratoCrateWriter } from './serato-crate.js';
import { field, utf16 } from './serato-test-bytes.js';
import { DjFormatError, type DjLibrary } from './types.js';

// A crate built byte by byte as Serato lays it out, independently of the module's own encoder.
const crateBytes = Buffer.concat([
  field('vrsn', utf16('1.0/Serato ScratchLive Crate')),
  field('osrt', Buffer.concat([field('tvcn', utf16('song')), field('brev', Buffer.from([0]))])),
  field('ovct', Buffer.concat([field('tvcn', utf16('song')), field('tvcw', utf16('0'))])),
  field('ovct', Buffer.concat([field('tvcn', utf16('artist')), field('tvcw', utf16('0'))])),
  field('otrk', field('ptrk', utf16('Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3'))),
  field('otrk', field('ptrk', utf16('Users/dj/Music/WCS/Shawn Mendes - Señorita.m4a'))),
  field('otrk', Buffer.concat([field('ptrk', utf16('Music/Blues Jam.wav')), field('uadd', Buffer.alloc(4))])),
  field('otrk', field('ptrk', utf16('Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3'))),
]);

describe('Serato crate reader', () => {
  const library = seratoCrateReader.read(crateBytes, {
    fileName: '_Serato_/Subcrates/Events%%2024%%Friday Night.crate',
  });

  it('reads the crate as one playlist named by its file, the %% parts as its folders', () => {
    expect(library.format).toBe('serato-crate');
    expect(library.playlists).toHaveLength(1);
    expect(library.playlists[0]!.name).toBe('Friday Night');
    expect(library.playlists[0]!.path).toEqual(['Events', '2024']);
    expect(library.history).toEqual([]);
  });

  it('reads each otrk ptrk path, in order, repeats kept, unknown fields skipped', () => {
    expect(library.playlists[0]!.trackKeys).toEqual([
      'Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3',
      'Users/dj/Music/WCS/Shawn Mendes - Señorita.m4a',
      'Music/Blues Jam.wav',
      'Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3',
    ]);
    expect(library.tracks).toHaveLength(3);
  });

  it('makes the location absolute from the drive root, "/" unless told', () => {
    expect(library.tracks[1]!.location).toBe('/Users/dj/Music/WCS/Shawn Mendes - Señorita.m4a');
    const onD = seratoCrateReader.read(crateBytes, { root: 'D:/' });
    expect(onD.tracks[2]!.location).toBe('D:/Music/Blues Jam.wav');
  });

  it('has no title or artist but the file name (those live in database V2)', () => {
    expect(library.tracks[0]).toEqual({
      key: 'Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3',
      title: 'X Ambassadors - Unsteady',
      artist: '',
      location: '/Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3',
    });
  });

  it('refuses text, another Serato file and a truncated crate', () => {
    expect(() => seratoCrateReader.read('vrsn')).toThrow(/binary/);
    expect(() => seratoCrateReader.read(field('vrsn', utf16('1.0/Serato Scratch LIVE Review')))).toThrow(
      /Not a Serato crate/,
    );
    expect(() => seratoCrateReader.read(crateBytes.subarray(0, crateBytes.length - 3))).toThrow(
      DjFormatError,
    );
  });
});

describe('Serato crate writer', () => {
  const source: DjLibrary = {
    format: 'serato-crate',
    tracks: [
      { key: 'a', title: 'Unsteady', artist: 'X Ambassadors', location: '/Users/dj/Music/Unsteady.mp3' },
      { key: 'b', title: 'Blues Jam', artist: '', location: 'D:\\Blues\\Blues Jam.wav' },
      { key: 'c', title: 'On the stick', artist: '', location: '/Volumes/USB DJ/Music/c.mp3' },
      { key: 'd', title: 'No file', artist: '' },
    ],
    playlists: [{ name: 'Friday Night', path: ['Events'], trackKeys: ['a', 'b', 'd', 'a'] }],
    history: [],
  };

  it('writes the exact version header Serato DJ requires, then the tracks as otrk/ptrk', () => {
    const written = seratoCrateWriter.write(source) as Buffer;
    expect(written.subarray(0, 8)).toEqual(Buffer.from([0x76, 0x72, 0x73, 0x6e, 0, 0, 0, 56]));
    expect(written.subarray(8, 64)).toEqual(utf16('1.0/Serato ScratchLive Crate'));
    expect(written.includes(field('otrk', field('ptrk', utf16('Users/dj/Music/Unsteady.mp3'))))).toBe(true);
  });

  it('reads back the order and the locations, Windows drive letters and the given root stripped', () => {
    const back = seratoCrateReader.read(seratoCrateWriter.write(source) as Buffer);
    expect(back.playlists[0]!.trackKeys).toEqual([
      'Users/dj/Music/Unsteady.mp3',
      'Blues/Blues Jam.wav',
      'Users/dj/Music/Unsteady.mp3',
    ]);
    expect(back.tracks[0]!.location).toBe('/Users/dj/Music/Unsteady.mp3');
    const usb = seratoCrateWriter.write(
      { tracks: source.tracks, playlists: [{ name: 'USB', path: [], trackKeys: ['c'] }] },
      { root: '/Volumes/USB DJ/' },
    ) as Buffer;
    const fromUsb = seratoCrateReader.read(usb, { root: '/Volumes/USB DJ/' });
    expect(fromUsb.tracks.map((t) => [t.key, t.location])).toEqual([
      ['Music/c.mp3', '/Volumes/USB DJ/Music/c.mp3'],
    ]);
  });

  it('names the crate file with %% between its folders', () => {
    expect(seratoCrateFileName(['Events', '2024'], 'Friday: 3/5')).toBe('Events%%2024%%Friday_ 3_5.crate');
  });
});
