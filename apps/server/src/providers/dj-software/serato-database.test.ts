import { describe, expect, it } from 'vitest';
import { seratoCrateReader } from './serato-crate.js';
import { seratoDatabaseReader } from './serato-database.js';
import { field, u32, utf16 } from './serato-test-bytes.js';
import { DjFormatError } from './types.js';

/**
 * A 'database V2' built byte by byte in the layout Mixxx's Serato importer and serato-tools
 * read: 'vrsn', then one 'otrk' per track holding tagged fields (text UTF-16BE, 'u' fields 4-byte
 * big-endian, 'b' fields one byte), unread fields included as a real library has them.
 */
const UNSTEADY = 'Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3';
const SENORITA = 'Users/dj/Music/WCS/Shawn Mendes - Señorita.m4a';
const BLUES = 'Music/Blues Jam.wav';

const track = (...fields: Buffer[]) => field('otrk', Buffer.concat(fields));
const database = Buffer.concat([
  field('vrsn', utf16('2.0/Serato Scratch LIVE Database')),
  track(
    field('ttyp', utf16('mp3')),
    field('pfil', utf16(UNSTEADY)),
    field('tsng', utf16('Unsteady')),
    field('tart', utf16('X Ambassadors')),
    field('talb', utf16('VHS')),
    field('tgen', utf16('Pop')),
    field('tlen', utf16('03:13.81')),
    field('tbit', utf16('320.0kbps')),
    field('tbpm', utf16('104.50')),
    field('tcom', utf16('slow opener')),
    field('ttyr', utf16('2015')),
    field('tadd', utf16('1673654400')),
    field('tkey', utf16('8A')),
    field('uadd', u32(1673654400)),
    field('utme', u32(1673600000)),
    field('bmis', Buffer.from([0])),
    field('bply', Buffer.from([1])),
    field('bbgl', Buffer.from([0])),
  ),
  track(
    field('pfil', utf16(SENORITA)),
    field('tsng', utf16('Señorita')),
    field('tart', utf16('Shawn Mendes & Camila Cabello')),
    field('tgen', utf16('')),
    field('tlen', utf16('191')),
    field('tbpm', utf16('117.00')),
    field('tkey', utf16('Am')),
    // Only the text form of the date added.
    field('tadd', utf16('1561939200')),
  ),
  track(field('pfil', utf16(BLUES)), field('tbpm', utf16('0.00')), field('tlen', utf16(''))),
  // A second record for the same file, and one without a path: both skipped.
  track(field('pfil', utf16(UNSTEADY)), field('tsng', utf16('Duplicate'))),
  track(field('tsng', utf16('No path'))),
]);

describe('Serato database V2 reader', () => {
  const library = seratoDatabaseReader.read(database, { timeZone: 'America/Chicago' });
  const byKey = (key: string) => library.tracks.find((candidate) => candidate.key === key)!;

  it('reads one track per otrk with a new pfil, keyed by that path; no playlists or history', () => {
    expect(library.format).toBe('serato-database');
    expect(library.tracks.map((t) => t.key)).toEqual([UNSTEADY, SENORITA, BLUES]);
    expect(library.playlists).toEqual([]);
    expect(library.history).toEqual([]);
  });

  it('reads tsng as the title, the file name when absent', () => {
    expect(byKey(UNSTEADY).title).toBe('Unsteady');
    expect(byKey(SENORITA).title).toBe('Señorita');
    expect(byKey(BLUES).title).toBe('Blues Jam');
  });

  it('reads tart as the artist, empty when absent', () => {
    expect(byKey(SENORITA).artist).toBe('Shawn Mendes & Camila Cabello');
    expect(byKey(BLUES).artist).toBe('');
  });

  it('reads talb and tgen, leaving out empty and absent ones', () => {
    expect(byKey(UNSTEADY)).toMatchObject({ album: 'VHS', genre: 'Pop' });
    expect(byKey(SENORITA)).not.toHaveProperty('album');
    expect(byKey(SENORITA)).not.toHaveProperty('genre');
  });

  it('makes pfil absolute from the drive root, "/" unless told', () => {
    expect(byKey(UNSTEADY).location).toBe(`/${UNSTEADY}`);
    const onD = seratoDatabaseReader.read(database, { root: 'D:/' });
    expect(onD.tracks[2]!.location).toBe('D:/Music/Blues Jam.wav');
  });

  it('reads tlen as mm:ss.cc or as seconds', () => {
    expect(byKey(UNSTEADY).durationSeconds).toBeCloseTo(193.81, 6);
    expect(byKey(SENORITA).durationSeconds).toBe(191);
    expect(byKey(BLUES)).not.toHaveProperty('durationSeconds');
  });

  it('reads tbpm, and 0.00 as no BPM', () => {
    expect(byKey(UNSTEADY).bpm).toBe(104.5);
    expect(byKey(SENORITA).bpm).toBe(117);
    expect(byKey(BLUES)).not.toHaveProperty('bpm');
  });

  it('reads tkey as written', () => {
    expect(byKey(UNSTEADY).musicalKey).toBe('8A');
    expect(byKey(SENORITA).musicalKey).toBe('Am');
    expect(byKey(BLUES)).not.toHaveProperty('musicalKey');
  });

  it('reads uadd (else tadd) as the calendar day in timeZone', () => {
    expect(byKey(UNSTEADY).dateAdded).toBe('2023-01-13');
    expect(seratoDatabaseReader.read(database).tracks[0]!.dateAdded).toBe('2023-01-14');
    expect(byKey(SENORITA).dateAdded).toBe('2019-06-30');
    expect(byKey(BLUES)).not.toHaveProperty('dateAdded');
  });

  it('has no play count or rating (the database keeps none)', () => {
    expect(library.tracks.some((t) => 'playCount' in t || 'rating' in t)).toBe(false);
  });

  it("gives a crate's tracks their titles by key: a crate's ptrk is the database's pfil", () => {
    const crate = Buffer.concat([
      field('vrsn', utf16('1.0/Serato ScratchLive Crate')),
      field('otrk', field('ptrk', utf16(SENORITA))),
      field('otrk', field('ptrk', utf16(UNSTEADY))),
    ]);
    const keys = seratoCrateReader.read(crate).playlists[0]!.trackKeys;
    expect(keys.map((key) => byKey(key).title)).toEqual(['Señorita', 'Unsteady']);
  });

  it('refuses text, a crate and a truncated database', () => {
    expect(() => seratoDatabaseReader.read('vrsn')).toThrow(/binary/);
    expect(() => seratoDatabaseReader.read(field('vrsn', utf16('1.0/Serato ScratchLive Crate')))).toThrow(
      /Not a Serato database V2/,
    );
    expect(() => seratoDatabaseReader.read(database.subarray(0, database.length - 5))).toThrow(DjFormatError);
  });
});
