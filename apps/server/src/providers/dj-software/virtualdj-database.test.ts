import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DjFormatError } from './types.js';
import { virtualDjDatabaseReader } from './virtualdj-database.js';

const fixture = readFileSync(path.join(import.meta.dirname, 'fixtures/virtualdj-database.xml'));
const library = virtualDjDatabaseReader.read(fixture);

const UNSTEADY = 'C:\\Users\\dj\\Music\\WCS\\X Ambassadors - Unsteady.mp3';
const SENORITA = 'C:\\Users\\dj\\Music\\WCS\\Shawn Mendes - Señorita.m4a';
const SUNSHINE = "C:\\Users\\dj\\Music\\WCS\\Ain't No Sunshine.mp3";
const BLUES = 'D:\\Blues\\Blues Jam.wav';
const track = (key: string) => library.tracks.find((candidate) => candidate.key === key)!;

describe('VirtualDJ database.xml reader', () => {
  it('reads every Song, keyed and located by FilePath as written (UTF-8 with a byte-order mark)', () => {
    expect(library.format).toBe('virtualdj-database');
    expect(library.tracks.map((t) => t.key)).toEqual([UNSTEADY, SENORITA, SUNSHINE, BLUES]);
    expect(library.tracks.map((t) => t.location)).toEqual([UNSTEADY, SENORITA, SUNSHINE, BLUES]);
  });

  it('reads Tags Title and Author', () => {
    expect(track(SENORITA).title).toBe('Señorita');
    expect(track(SENORITA).artist).toBe('Shawn Mendes & Camila Cabello');
    expect(track(SUNSHINE).title).toBe("Ain't No Sunshine");
    expect(track(BLUES).artist).toBe('');
  });

  it('reads Tags Album and Genre', () => {
    expect(track(UNSTEADY).album).toBe('VHS');
    expect(track(UNSTEADY).genre).toBe('Pop');
    expect(track(SENORITA)).not.toHaveProperty('album');
    expect(track(SUNSHINE)).not.toHaveProperty('genre');
  });

  it('reads Infos SongLength in seconds', () => {
    expect(track(UNSTEADY).durationSeconds).toBe(192.809796);
    expect(track(SUNSHINE).durationSeconds).toBe(125);
  });

  it('turns the stored seconds per beat into BPM, the hand-set Tags value before the Scan one', () => {
    expect(track(UNSTEADY).bpm).toBe(104.5);
    expect(track(SENORITA).bpm).toBe(117);
    expect(track(BLUES).bpm).toBe(88.2);
    expect(track(SUNSHINE)).not.toHaveProperty('bpm');
  });

  it('reads the key as written, Tags before Scan', () => {
    expect(track(UNSTEADY).musicalKey).toBe('8A');
    expect(track(SENORITA).musicalKey).toBe('Am');
    expect(track(SUNSHINE)).not.toHaveProperty('musicalKey');
  });

  it('reads Infos PlayCount', () => {
    expect(track(SENORITA).playCount).toBe(31);
    expect(track(SUNSHINE)).not.toHaveProperty('playCount');
  });

  it('reads Infos FirstSeen (Unix time) as the date added, in the given zone', () => {
    expect(track(UNSTEADY).dateAdded).toBe('2023-01-14');
    expect(track(SENORITA).dateAdded).toBe('2019-07-01');
    const chicago = virtualDjDatabaseReader.read(fixture, { timeZone: 'America/Chicago' });
    expect(chicago.tracks[1]!.dateAdded).toBe('2019-06-30');
    expect(track(BLUES)).not.toHaveProperty('dateAdded');
  });

  it('reads Tags Stars, 0 as unrated', () => {
    expect(track(UNSTEADY).rating).toBe(4);
    expect(track(BLUES).rating).toBe(1);
    expect(track(SUNSHINE)).not.toHaveProperty('rating');
  });

  it('has no playlists and no history (those are separate files)', () => {
    expect(library.playlists).toEqual([]);
    expect(library.history).toEqual([]);
  });

  it('refuses another XML file and a bad time zone', () => {
    expect(() => virtualDjDatabaseReader.read('<?xml version="1.0"?><DJ_PLAYLISTS/>')).toThrow(DjFormatError);
    expect(() => virtualDjDatabaseReader.read(fixture, { timeZone: 'Mars/Olympus' })).toThrow(
      /Unknown time zone/,
    );
  });
});
