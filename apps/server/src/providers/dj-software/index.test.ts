import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { DJ_FORMATS, DJ_READERS, DJ_WRITERS, type DjLibrary, detectDjFormat } from './index.js';

const fixturesDir = path.join(import.meta.dirname, 'fixtures');
const SQL = await initSqlJs();
const fixture = (name: string) => readFileSync(path.join(fixturesDir, name));

describe('detectDjFormat', () => {
  it('names the format of every fixture from its content and name', () => {
    const detected = Object.fromEntries(
      readdirSync(fixturesDir)
        .filter((name) => name !== 'README.md')
        .map((name) => [name, detectDjFormat(name, fixture(name).subarray(0, 4096))]),
    );
    expect(detected).toEqual({
      'playlist.m3u8': 'm3u8',
      'rekordbox.xml': 'rekordbox-xml',
      'serato-history.csv': 'serato-history-csv',
      'traktor-collection.nml': 'traktor-nml',
      'traktor-history_2024y05m03d_21h02m10s.nml': 'traktor-nml',
      'tracklist.csv': 'csv',
      'virtualdj-2024-05-03.m3u': 'virtualdj-m3u',
      'virtualdj-database.xml': 'virtualdj-database',
    });
  });

  it('goes by the XML root, not the extension', () => {
    expect(detectDjFormat('export.txt', '<?xml version="1.0"?>\n<DJ_PLAYLISTS Version="1.0.0">')).toBe(
      'rekordbox-xml',
    );
    expect(detectDjFormat('database.xml', '\uFEFF<?xml version="1.0"?><VirtualDJ_Database>')).toBe(
      'virtualdj-database',
    );
    expect(detectDjFormat('iTunes Library.xml', '<?xml version="1.0"?><!DOCTYPE plist><plist>')).toBeNull();
  });

  it("tells Serato's binary files apart by their version chunk", () => {
    const version = (text: string) => {
      const payload = Buffer.from(text, 'utf16le').swap16();
      const header = Buffer.alloc(8);
      header.write('vrsn', 0, 'latin1');
      header.writeUInt32BE(payload.length, 4);
      return Buffer.concat([header, payload]);
    };
    expect(detectDjFormat('Friday.crate', version('1.0/Serato ScratchLive Crate'))).toBe('serato-crate');
    expect(detectDjFormat('x.bin', version('1.0/Serato ScratchLive Crate'))).toBe('serato-crate');
    expect(detectDjFormat('42.session', version('1.0/Serato Scratch LIVE Review'))).toBe('serato-session');
    expect(detectDjFormat('database V2', version('2.0/Serato Scratch LIVE Database'))).toBe(
      'serato-database',
    );
    expect(detectDjFormat('x.bin', version('2.0/Serato Scratch LIVE Database'))).toBe('serato-database');
  });

  it('tells Engine DJ and Mixxx databases apart by file name, else by the tables the first page shows', () => {
    const header = Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(84)]);
    expect(detectDjFormat('Engine Library/Database2/m.db', header)).toBe('engine-dj');
    expect(detectDjFormat('hm.db', header)).toBe('engine-dj');
    expect(detectDjFormat('mixxxdb.sqlite', header)).toBe('mixxx');
    expect(detectDjFormat('backup.db', header)).toBeNull();
    const database = (schema: string) => {
      const db = new SQL.Database();
      db.run(schema);
      const bytes = Buffer.from(db.export());
      db.close();
      return bytes.subarray(0, 4096);
    };
    expect(
      detectDjFormat(
        'engine backup.db',
        database(
          'CREATE TABLE Track (id INTEGER PRIMARY KEY, path TEXT); CREATE TABLE PlaylistEntity (id INTEGER PRIMARY KEY, listId INTEGER);',
        ),
      ),
    ).toBe('engine-dj');
    expect(
      detectDjFormat(
        'mixxx copy.db',
        database(
          'CREATE TABLE library (id INTEGER PRIMARY KEY); CREATE TABLE track_locations (id INTEGER PRIMARY KEY, location TEXT);',
        ),
      ),
    ).toBe('mixxx');
    expect(detectDjFormat('mixxxdb.sqlite', 'SQLite format 3 as text')).toBeNull();
  });

  it('reads M3U by content too, and leaves unknown files alone', () => {
    expect(detectDjFormat('list.txt', '#EXTM3U\n#EXTINF:1,a - b\n/x.mp3')).toBe('m3u8');
    expect(detectDjFormat('2024-05-03.m3u', '#EXTVDJ:<time>21:02</time>')).toBe('virtualdj-m3u');
    expect(detectDjFormat('song.mp3', Buffer.from([0x49, 0x44, 0x33, 4, 0]))).toBeNull();
    expect(detectDjFormat('notes.txt', 'hello')).toBeNull();
  });
});

describe('the format registries', () => {
  it('has a reader for every format, under its own name', () => {
    for (const format of DJ_FORMATS) expect(DJ_READERS[format].format).toBe(format);
  });

  it('has writers whose output the reader of the same format reads back', () => {
    const library: DjLibrary = {
      format: 'csv',
      tracks: [
        {
          key: '1',
          title: 'Unsteady',
          artist: 'X Ambassadors',
          location: '/Users/dj/Unsteady.mp3',
          durationSeconds: 193,
        },
        {
          key: '2',
          title: 'Señorita',
          artist: 'Shawn Mendes',
          location: '/Users/dj/Señorita.m4a',
          durationSeconds: 191,
        },
      ],
      playlists: [{ name: 'Friday', path: [], trackKeys: ['2', '1'] }],
      history: [],
    };
    const writers = Object.values(DJ_WRITERS);
    expect(writers.map((writer) => writer.format).sort()).toEqual([
      'csv',
      'm3u8',
      'rekordbox-xml',
      'serato-crate',
      'traktor-nml',
      'virtualdj-m3u',
    ]);
    for (const writer of writers) {
      const back = DJ_READERS[writer.format].read(writer.write(library), {
        fileName: 'Friday',
        csvMapping: { title: 'Title', artist: 'Artist', location: 'Location' },
      });
      const order = back.playlists[0]!.trackKeys.map(
        (key) => back.tracks.find((t) => t.key === key)!.location,
      );
      expect(order, writer.format).toEqual(['/Users/dj/Señorita.m4a', '/Users/dj/Unsteady.mp3']);
    }
  });
});
