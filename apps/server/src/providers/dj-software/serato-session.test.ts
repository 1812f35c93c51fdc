import { describe, expect, it } from 'vitest';
import { seratoSessionReader } from './serato-session.js';
import { DjFormatError } from './types.js';

/**
 * A session built byte by byte in the layout SSL Scrobbler and What's Now Playing read: 'vrsn',
 * then 'oent' chunks each holding an 'adat' chunk of numbered fields (4-byte id, 4-byte length,
 * value; strings UTF-16BE with a trailing NUL, numbers 4-byte big-endian, the played flag 1 byte).
 */
function chunk(tag: string, payload: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(payload.length);
  return Buffer.concat([Buffer.from(tag, 'ascii'), length, payload]);
}
function numbered(id: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(id, 0);
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}
function utf16z(text: string): Buffer {
  const bytes = Buffer.alloc((text.length + 1) * 2);
  for (let i = 0; i < text.length; i++) bytes.writeUInt16BE(text.charCodeAt(i), i * 2);
  return bytes;
}
function u32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}
function entry(fields: Array<[number, Buffer]>): Buffer {
  return chunk(
    'oent',
    chunk('adat', Buffer.concat([numbered(1, u32(7)), ...fields.map(([id, value]) => numbered(id, value))])),
  );
}
const UNSTEADY = '/Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3';
const SENORITA = '/Users/dj/Music/WCS/Shawn Mendes - Señorita.m4a';
const session = Buffer.concat([
  chunk('vrsn', utf16z('1.0/Serato Scratch LIVE Review')),
  entry([
    [2, utf16z(UNSTEADY)],
    [6, utf16z('Unsteady')],
    [7, utf16z('X Ambassadors')],
    [8, utf16z('VHS')],
    [9, utf16z('Pop')],
    [10, utf16z('03:13.81')],
    [15, u32(104)],
    [17, utf16z('slow opener')],
    [28, u32(1714788130)],
    [29, u32(1714788400)],
    [31, u32(1)],
    [50, Buffer.from([1])],
    [51, utf16z('8A')],
    [53, u32(1714788400)],
  ]),
  // Loaded on deck 2 and ejected without playing.
  entry([
    [2, utf16z('/Users/dj/Music/Other.mp3')],
    [6, utf16z('Other')],
    [28, u32(1714788200)],
    [50, Buffer.from([0])],
  ]),
  chunk('oren', chunk('adat', numbered(1, u32(9)))),
  entry([
    [2, utf16z(SENORITA)],
    [6, utf16z('Señorita')],
    [7, utf16z('Shawn Mendes & Camila Cabello')],
    [28, u32(1714788400)],
    [31, u32(2)],
    [50, Buffer.from([1])],
  ]),
  entry([
    [2, utf16z(UNSTEADY)],
    [6, utf16z('Unsteady')],
    [28, u32(1714791000)],
  ]),
]);

describe('Serato session reader', () => {
  const library = seratoSessionReader.read(session, {
    fileName: 'History/Sessions/42.session',
    timeZone: 'America/Chicago',
  });
  const [unsteady, senorita] = library.tracks;

  it('reads the file as one history session dated by its first play', () => {
    expect(library.format).toBe('serato-session');
    expect(library.playlists).toEqual([]);
    expect(library.history[0]).toMatchObject({
      name: '42',
      startedAt: '2024-05-04T02:02:10Z',
      date: '2024-05-03',
    });
  });

  it('reads field 28 (Unix start time) of each played entry, repeats kept, unplayed ones left out', () => {
    expect(library.history[0]!.entries).toEqual([
      { trackKey: UNSTEADY, playedAt: '2024-05-04T02:02:10Z' },
      { trackKey: SENORITA, playedAt: '2024-05-04T02:06:40Z' },
      { trackKey: UNSTEADY, playedAt: '2024-05-04T02:50:00Z' },
    ]);
    const all = seratoSessionReader.read(session, { includeUnplayed: true });
    expect(all.history[0]!.entries).toHaveLength(4);
  });

  it('reads field 2 as the key and location, 6 as the title, 7 as the artist', () => {
    expect(unsteady).toMatchObject({
      key: UNSTEADY,
      location: UNSTEADY,
      title: 'Unsteady',
      artist: 'X Ambassadors',
    });
    expect(senorita).toMatchObject({ title: 'Señorita', artist: 'Shawn Mendes & Camila Cabello' });
  });

  it('reads field 8 as the album and 9 as the genre', () => {
    expect(unsteady).toMatchObject({ album: 'VHS', genre: 'Pop' });
    expect(senorita).not.toHaveProperty('album');
  });

  it('reads field 10 (length text) as the duration and 15 as the BPM', () => {
    expect(unsteady!.durationSeconds).toBeCloseTo(193.81, 6);
    expect(unsteady!.bpm).toBe(104);
    expect(senorita).not.toHaveProperty('bpm');
  });

  it('reads field 51 as the key, not field 17 (comments in two of three sources)', () => {
    expect(unsteady!.musicalKey).toBe('8A');
    expect(senorita).not.toHaveProperty('musicalKey');
  });

  it('refuses text, a crate and a truncated session', () => {
    expect(() => seratoSessionReader.read('vrsn')).toThrow(/binary/);
    expect(() => seratoSessionReader.read(chunk('otrk', Buffer.alloc(0)))).toThrow(/Not a Serato session/);
    expect(() => seratoSessionReader.read(session.subarray(0, 120))).toThrow(DjFormatError);
  });
});
