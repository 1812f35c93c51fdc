import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seratoHistoryCsvReader } from './serato-history-csv.js';
import { DjFormatError } from './types.js';

const fixture = readFileSync(path.join(import.meta.dirname, 'fixtures/serato-history.csv'));
const library = seratoHistoryCsvReader.read(fixture, { fileName: 'Friday.csv' });
const session = library.history[0]!;

describe('Serato history CSV reader on an export', () => {
  it('reads one history session named by the first row, dated and timed by its start time', () => {
    expect(library.format).toBe('serato-history-csv');
    expect(library.history).toHaveLength(1);
    expect(session.name).toBe('Friday Night Swing');
    expect(session.date).toBe('2024-05-03');
    expect(session.startedAt).toBe('2024-05-03T18:02:10Z');
  });

  it('reads "name" as the title and "artist", embedded commas and quotes included', () => {
    expect(library.tracks.map((t) => [t.title, t.artist])).toEqual([
      ['Unsteady', 'X Ambassadors'],
      ['Señorita', 'Shawn Mendes, Camila Cabello'],
      ["Ain't No Sunshine", 'Bill Withers'],
      ['Blues Jam', ''],
    ]);
  });

  it('keys a track by "artist - title" (the export has no paths) and keeps repeat plays', () => {
    expect(session.entries.map((entry) => entry.trackKey)).toEqual([
      'X Ambassadors - Unsteady',
      'Shawn Mendes, Camila Cabello - Señorita',
      "Bill Withers - Ain't No Sunshine",
      'Blues Jam',
      'X Ambassadors - Unsteady',
    ]);
    expect(library.tracks[0]).not.toHaveProperty('location');
  });

  it('reads each "start time" with the zone it names, on the next day once the clock passes midnight', () => {
    expect(session.entries.map((entry) => entry.playedAt)).toEqual([
      '2024-05-03T18:02:10Z',
      '2024-05-03T18:06:40Z',
      '2024-05-03T20:58:00Z',
      '2024-05-03T21:03:05Z',
      '2024-05-03T21:08:11Z',
    ]);
  });

  it('reads month-first dates, 12-hour clocks and US zones', () => {
    const us = [
      '"name","artist","start time","end time","playtime","deck","notes"',
      '"Saturday","","5/4/2024, 11:58:00 PM CDT","","","",""',
      '"Unsteady","X Ambassadors","11:58:00 PM CDT","","","1",""',
      '"Blues Jam","","12:03:05 AM CDT","","","2",""',
    ].join('\r\n');
    const read = seratoHistoryCsvReader.read(us).history[0]!;
    expect(read.date).toBe('2024-05-04');
    expect(read.entries.map((entry) => entry.playedAt)).toEqual([
      '2024-05-05T04:58:00Z',
      '2024-05-05T05:03:05Z',
    ]);
  });

  it('reads a zone it does not know in the given time zone, and honours a given date order', () => {
    const odd = [
      'name,artist,start time',
      'Set,,"05.04.2024, 21.00.00 XYZ"',
      'Unsteady,X Ambassadors,21.02.10 XYZ',
    ].join('\n');
    const read = seratoHistoryCsvReader.read(odd, { timeZone: 'Europe/Paris', dateOrder: 'mdy' }).history[0]!;
    expect(read.date).toBe('2024-05-04');
    expect(read.entries[0]!.playedAt).toBe('2024-05-04T19:02:10Z');
  });

  it('refuses a CSV without the Serato columns', () => {
    expect(() => seratoHistoryCsvReader.read('title,artist\nA,B\n')).toThrow(DjFormatError);
  });
});
