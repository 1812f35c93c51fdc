import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { mixxxReader } from './mixxx.js';
import { DjFormatError } from './types.js';

/**
 * A Mixxx library built here with sql.js in the layout of Mixxx's schema 39 ('res/schema.xml':
 * the base tables of revision 1 and the columns later revisions add), with set logs as Mixxx
 * writes them: `Playlists.hidden = 2`, `pl_datetime_added` from SQLite's CURRENT_TIMESTAMP (UTC).
 */
const SQL = await initSqlJs();

type Row = Record<string, string | number | null>;

function build(statements: string, tables: Record<string, Row[]> = {}): Buffer {
  const db = new SQL.Database();
  db.run(statements);
  for (const [table, rows] of Object.entries(tables)) {
    for (const row of rows) {
      const columns = Object.keys(row);
      db.run(
        `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        Object.values(row),
      );
    }
  }
  const bytes = Buffer.from(db.export());
  db.close();
  return bytes;
}

const SETTINGS = `CREATE TABLE settings (name TEXT UNIQUE NOT NULL, value TEXT, locked INTEGER DEFAULT 0,
  hidden INTEGER DEFAULT 0);`;
const LOCATIONS = `CREATE TABLE track_locations (id INTEGER PRIMARY KEY AUTOINCREMENT,
  location varchar(512) UNIQUE, filename varchar(512), directory varchar(512), filesize INTEGER,
  fs_deleted INTEGER, needs_verification INTEGER);`;
const LIBRARY = `CREATE TABLE library (id INTEGER PRIMARY KEY AUTOINCREMENT, artist varchar(64),
  title varchar(64), album varchar(64), year varchar(16), genre varchar(64), tracknumber varchar(3),
  location INTEGER REFERENCES track_locations(location), comment varchar(256), url varchar(256),
  duration FLOAT, bitrate INTEGER, samplerate INTEGER, cuepoint INTEGER, bpm FLOAT,
  wavesummaryhex BLOB, channels INTEGER, datetime_added DEFAULT CURRENT_TIMESTAMP,
  mixxx_deleted INTEGER, played INTEGER, header_parsed INTEGER DEFAULT 0,
  filetype varchar(8) DEFAULT '?', replaygain FLOAT DEFAULT 0, timesplayed INTEGER DEFAULT 0,
  rating INTEGER DEFAULT 0, key varchar(8) DEFAULT '', composer varchar(64) DEFAULT '',
  key_id INTEGER DEFAULT 0, color INTEGER, last_played_at DATETIME DEFAULT NULL);`;
const PLAYLISTS = `CREATE TABLE Playlists (id INTEGER PRIMARY KEY, name varchar(48), position INTEGER,
  hidden INTEGER DEFAULT 0 NOT NULL, date_created datetime, date_modified datetime, locked INTEGER DEFAULT 0);`;
const PLAYLIST_TRACKS = `CREATE TABLE PlaylistTracks (id INTEGER PRIMARY KEY,
  playlist_id INTEGER REFERENCES Playlists(id), track_id INTEGER REFERENCES library(id),
  position INTEGER, pl_datetime_added);`;
const CRATES = `CREATE TABLE crates (id INTEGER PRIMARY KEY AUTOINCREMENT, name varchar(48) UNIQUE NOT NULL,
  count INTEGER DEFAULT 0, show INTEGER DEFAULT 1, locked INTEGER DEFAULT 0, autodj_source INTEGER DEFAULT 0);
  CREATE TABLE crate_tracks (crate_id INTEGER NOT NULL REFERENCES crates(id),
  track_id INTEGER NOT NULL REFERENCES library(id), UNIQUE (crate_id, track_id));`;
const SCHEMA = `${SETTINGS}${LOCATIONS}${LIBRARY}${PLAYLISTS}${PLAYLIST_TRACKS}${CRATES}`;

const version = (value: string): Row => ({ name: 'mixxx.schema.version', value });

const tables: Record<string, Row[]> = {
  settings: [version('39'), { name: 'mixxx.schema.min_compatible_version', value: '3' }],
  track_locations: [
    {
      id: 1,
      location: '/Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3',
      filename: 'X Ambassadors - Unsteady.mp3',
    },
    { id: 2, location: 'C:/Music/WCS/Shawn Mendes - Señorita.m4a', filename: 'Shawn Mendes - Señorita.m4a' },
    { id: 3, location: '/Users/dj/Music/Blues/Blues Jam.wav', filename: 'Blues Jam.wav' },
    { id: 4, location: '/Users/dj/Music/Old/Removed.mp3', filename: 'Removed.mp3' },
    { id: 5, location: '/Users/dj/Music/Old/Gone.mp3', filename: 'Gone.mp3' },
    { id: 6, location: '/Users/dj/Music/Old/Queued.mp3', filename: 'Queued.mp3' },
  ],
  library: [
    {
      id: 1,
      location: 1,
      title: 'Unsteady',
      artist: 'X Ambassadors',
      album: 'VHS',
      genre: 'Pop',
      duration: 193.8125,
      bpm: 104.00000000001,
      key: '8A',
      rating: 4,
      timesplayed: 12,
      // Written by Qt from a UTC QDateTime.
      datetime_added: '2023-01-14T03:30:00.000Z',
      mixxx_deleted: 0,
    },
    {
      id: 2,
      location: 2,
      title: 'Señorita',
      artist: 'Shawn Mendes & Camila Cabello',
      genre: '',
      duration: 191,
      bpm: 117,
      key: 'Am',
      rating: 0,
      timesplayed: 0,
      // SQLite's CURRENT_TIMESTAMP form.
      datetime_added: '2019-07-01 12:00:00',
      mixxx_deleted: 0,
    },
    {
      id: 3,
      location: 3,
      title: '',
      artist: null,
      duration: 240,
      bpm: 0,
      key: '',
      datetime_added: null,
      mixxx_deleted: 0,
    },
    { id: 4, location: 4, title: 'Removed', artist: 'Someone', mixxx_deleted: 1 },
    { id: 5, location: 5, title: 'Gone', artist: 'Someone', mixxx_deleted: 1 },
    { id: 6, location: 6, title: 'Queued', artist: 'Someone', mixxx_deleted: 1 },
  ],
  Playlists: [
    { id: 1, name: 'Friday Night', position: 2, hidden: 0, date_created: '2024-04-01 10:00:00' },
    { id: 2, name: 'Warm-up', position: 1, hidden: 0, date_created: '2024-04-02 10:00:00' },
    { id: 3, name: 'Auto DJ', position: 0, hidden: 1 },
    { id: 4, name: '2024-05-03', position: 3, hidden: 2, date_created: '2024-05-04 01:55:00' },
    { id: 5, name: '2024-05-04', position: 4, hidden: 2, date_created: '2024-05-05 01:00:00' },
    { id: 6, name: '2024-05-01', position: 5, hidden: 2, date_created: '2024-05-02 01:00:00' },
  ],
  PlaylistTracks: [
    { playlist_id: 1, track_id: 2, position: 1, pl_datetime_added: '2024-04-01 10:00:00' },
    { playlist_id: 1, track_id: 1, position: 3, pl_datetime_added: '2024-04-01 10:00:00' },
    { playlist_id: 1, track_id: 3, position: 2, pl_datetime_added: '2024-04-01 10:00:00' },
    { playlist_id: 1, track_id: 999, position: 4, pl_datetime_added: '2024-04-01 10:00:00' },
    { playlist_id: 2, track_id: 1, position: 1, pl_datetime_added: '2024-04-02 10:00:00' },
    { playlist_id: 2, track_id: 1, position: 2, pl_datetime_added: '2024-04-02 10:00:00' },
    { playlist_id: 3, track_id: 6, position: 1, pl_datetime_added: '2024-05-03 10:00:00' },
    { playlist_id: 4, track_id: 1, position: 1, pl_datetime_added: '2024-05-04 02:02:10' },
    { playlist_id: 4, track_id: 2, position: 2, pl_datetime_added: '2024-05-04 02:06:40' },
    { playlist_id: 4, track_id: 4, position: 3, pl_datetime_added: '2024-05-04 02:50:00' },
    { playlist_id: 4, track_id: 1, position: 4, pl_datetime_added: '2024-05-04 03:10:00' },
    { playlist_id: 6, track_id: 3, position: 1, pl_datetime_added: null },
  ],
  crates: [
    { id: 1, name: 'Blues' },
    { id: 2, name: 'anthems' },
  ],
  crate_tracks: [
    { crate_id: 1, track_id: 3 },
    { crate_id: 1, track_id: 1 },
    { crate_id: 2, track_id: 2 },
  ],
};

const mixxxDb = build(SCHEMA, tables);

describe('Mixxx reader (schema 39)', () => {
  const library = mixxxReader.read(mixxxDb, { fileName: 'mixxxdb.sqlite', timeZone: 'America/Chicago' });
  const track = (key: string) => library.tracks.find((candidate) => candidate.key === key)!;

  it('reads library rows keyed by id, leaving out removed tracks no list holds', () => {
    expect(library.format).toBe('mixxx');
    expect(library.tracks.map((t) => t.key)).toEqual(['1', '2', '3', '4']);
  });

  it('reads title, falling back on the file name', () => {
    expect(track('1').title).toBe('Unsteady');
    expect(track('2').title).toBe('Señorita');
    expect(track('3').title).toBe('Blues Jam');
  });

  it('reads artist, empty when NULL', () => {
    expect(track('2').artist).toBe('Shawn Mendes & Camila Cabello');
    expect(track('3').artist).toBe('');
  });

  it('reads album and genre, leaving out NULL and empty ones', () => {
    expect(track('1')).toMatchObject({ album: 'VHS', genre: 'Pop' });
    expect(track('2')).not.toHaveProperty('album');
    expect(track('2')).not.toHaveProperty('genre');
  });

  it('reads the location from track_locations, as written', () => {
    expect(track('1').location).toBe('/Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3');
    expect(track('2').location).toBe('C:/Music/WCS/Shawn Mendes - Señorita.m4a');
  });

  it('reads duration as seconds', () => {
    expect(track('1').durationSeconds).toBe(193.8125);
    expect(track('3').durationSeconds).toBe(240);
  });

  it('reads bpm (3 decimals), and 0 as no BPM', () => {
    expect(track('1').bpm).toBe(104);
    expect(track('2').bpm).toBe(117);
    expect(track('3')).not.toHaveProperty('bpm');
  });

  it('reads key as written, and an empty one as no key', () => {
    expect(track('1').musicalKey).toBe('8A');
    expect(track('2').musicalKey).toBe('Am');
    expect(track('3')).not.toHaveProperty('musicalKey');
  });

  it('reads rating as stars, 0 as unrated', () => {
    expect(track('1').rating).toBe(4);
    expect(track('2')).not.toHaveProperty('rating');
  });

  it('reads timesplayed, zero included', () => {
    expect(track('1').playCount).toBe(12);
    expect(track('2').playCount).toBe(0);
  });

  it('reads datetime_added (UTC, either form Mixxx writes) as the calendar day in timeZone', () => {
    expect(track('1').dateAdded).toBe('2023-01-13');
    expect(mixxxReader.read(mixxxDb).tracks[0]!.dateAdded).toBe('2023-01-14');
    expect(track('2').dateAdded).toBe('2019-07-01');
    expect(track('3')).not.toHaveProperty('dateAdded');
  });

  it('reads playlists (hidden = 0) by position, their tracks by position; crates after, under "Crates"', () => {
    expect(library.playlists).toEqual([
      { name: 'Warm-up', path: [], trackKeys: ['1', '1'] },
      { name: 'Friday Night', path: [], trackKeys: ['2', '3', '1'] },
      { name: 'anthems', path: ['Crates'], trackKeys: ['2'] },
      { name: 'Blues', path: ['Crates'], trackKeys: ['3', '1'] },
    ]);
  });

  it('reads set logs (hidden = 2) as sessions: pl_datetime_added in UTC, the day in timeZone; skips Auto DJ and empty logs', () => {
    expect(library.history).toEqual([
      {
        name: '2024-05-01',
        startedAt: '2024-05-02T01:00:00Z',
        date: '2024-05-01',
        entries: [{ trackKey: '3' }],
      },
      {
        name: '2024-05-03',
        startedAt: '2024-05-04T02:02:10Z',
        date: '2024-05-03',
        entries: [
          { trackKey: '1', playedAt: '2024-05-04T02:02:10Z' },
          { trackKey: '2', playedAt: '2024-05-04T02:06:40Z' },
          { trackKey: '4', playedAt: '2024-05-04T02:50:00Z' },
          { trackKey: '1', playedAt: '2024-05-04T03:10:00Z' },
        ],
      },
    ]);
  });
});

describe('Mixxx reader on older schemas and other files', () => {
  it('reads a schema 14 library (no pl_datetime_added yet): set log entries without times', () => {
    const old = build(
      `${SETTINGS}${LOCATIONS}${LIBRARY}${PLAYLISTS}CREATE TABLE PlaylistTracks (id INTEGER PRIMARY KEY,
        playlist_id INTEGER, track_id INTEGER, position INTEGER);`,
      {
        settings: [version('14')],
        track_locations: [tables.track_locations![0]!],
        library: [tables.library![0]!],
        Playlists: [
          { id: 4, name: '2011-05-03', position: 1, hidden: 2, date_created: '2011-05-04 01:55:00' },
        ],
        PlaylistTracks: [{ playlist_id: 4, track_id: 1, position: 1 }],
      },
    );
    expect(mixxxReader.read(old).history).toEqual([
      {
        name: '2011-05-03',
        startedAt: '2011-05-04T01:55:00Z',
        date: '2011-05-04',
        entries: [{ trackKey: '1' }],
      },
    ]);
  });

  it('refuses a database without a library table, naming the schema version', () => {
    const engine = build(`${SETTINGS}CREATE TABLE Track (id INTEGER PRIMARY KEY);`, {
      settings: [version('39')],
    });
    expect(() => mixxxReader.read(engine)).toThrow(
      "Not a Mixxx library (schema 39): it has no 'library' table.",
    );
    const noSettings = build('CREATE TABLE Track (id INTEGER PRIMARY KEY);');
    expect(() => mixxxReader.read(noSettings)).toThrow(/\(no schema version\)/);
  });

  it('names a missing table or column', () => {
    const noPlaylistTracks = build(`${SETTINGS}${LOCATIONS}${LIBRARY}${PLAYLISTS}`, {
      settings: [version('7')],
    });
    expect(() => mixxxReader.read(noPlaylistTracks)).toThrow(
      "Mixxx library (schema 7) has no 'PlaylistTracks' table.",
    );
    const noLocation = build(
      `${SETTINGS}${LOCATIONS}CREATE TABLE library (id INTEGER PRIMARY KEY, artist TEXT, title TEXT);`,
      { settings: [version('2')] },
    );
    expect(() => mixxxReader.read(noLocation)).toThrow(
      "Mixxx library (schema 2): table 'library' has no column 'location'.",
    );
  });

  it('refuses text and files that are not SQLite', () => {
    expect(() => mixxxReader.read('SQLite format 3')).toThrow(/pass the file as a Buffer/);
    expect(() => mixxxReader.read(Buffer.from('<?xml version="1.0"?><NML/>'))).toThrow(DjFormatError);
  });
});
