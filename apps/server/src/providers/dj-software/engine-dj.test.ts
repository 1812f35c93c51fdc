import { createHash } from 'node:crypto';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { engineDjReader } from './engine-dj.js';
import { keyNameOfEngineIndex } from './keys.js';
import { DjFormatError } from './types.js';

/**
 * Engine DJ databases built here with sql.js in the Database2 layout (schema 3.0.x, Engine DJ
 * 4.1 and later; columns as libdjinterop's schema definitions list them, a few unread ones
 * included so the reader is seen to skip them). No binary file is committed.
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
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        Object.values(row),
      );
    }
  }
  const bytes = Buffer.from(db.export());
  db.close();
  return bytes;
}

const INFORMATION = `CREATE TABLE Information (id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT,
  schemaVersionMajor INTEGER, schemaVersionMinor INTEGER, schemaVersionPatch INTEGER,
  currentPlayedIndiciator INTEGER, lastRekordBoxLibraryImportReadCounter INTEGER);`;
const TRACK = `CREATE TABLE Track (id INTEGER PRIMARY KEY AUTOINCREMENT, playOrder INTEGER,
  length INTEGER, bpm INTEGER, year INTEGER, path TEXT, filename TEXT, bitrate INTEGER,
  bpmAnalyzed REAL, albumArtId INTEGER, fileBytes INTEGER, title TEXT, artist TEXT, album TEXT,
  genre TEXT, comment TEXT, label TEXT, composer TEXT, remixer TEXT, key INTEGER, rating INTEGER,
  albumArt TEXT, timeLastPlayed DATETIME, isPlayed BOOLEAN, fileType TEXT, isAnalyzed BOOLEAN,
  dateCreated DATETIME, dateAdded DATETIME, isAvailable BOOLEAN, playedIndicator INTEGER,
  uri TEXT, originDatabaseUuid TEXT, originTrackId INTEGER, lastEditTime DATETIME,
  CONSTRAINT C_path UNIQUE (path));`;
const PLAYLISTS = `CREATE TABLE Playlist (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT,
  parentListId INTEGER, isPersisted BOOLEAN, nextListId INTEGER, lastEditTime DATETIME,
  isExplicitlyExported BOOLEAN);
  CREATE TABLE PlaylistEntity (id INTEGER PRIMARY KEY AUTOINCREMENT, listId INTEGER,
  trackId INTEGER, databaseUuid TEXT, nextEntityId INTEGER, membershipReference INTEGER);`;
const HISTORY = `CREATE TABLE Historylist (id INTEGER PRIMARY KEY AUTOINCREMENT, sessionId TEXT,
  title TEXT, startTime INTEGER, timezone TEXT, originDriveName TEXT, originDatabaseUuid TEXT,
  originListId INTEGER, isDeleted BOOLEAN, editTime INTEGER);
  CREATE TABLE HistorylistEntity (id INTEGER PRIMARY KEY AUTOINCREMENT, listId INTEGER,
  trackId INTEGER, startTime INTEGER);`;

const UUID = 'a7c2b2d0-1c2e-4c3a-9a55-4b7e2f1d0c11';
const information = (version: [number, number, number]): Row => ({
  uuid: UUID,
  schemaVersionMajor: version[0],
  schemaVersionMinor: version[1],
  schemaVersionPatch: version[2],
  currentPlayedIndiciator: 0,
});

const UNSTEADY = '../WCS/X Ambassadors - Unsteady.mp3';
const SENORITA = '../WCS/Shawn Mendes - Señorita.m4a';
const SUNSHINE = "/Volumes/USB DJ/Blues/Ain't No Sunshine.mp3";
const STREAM = 'tidal://track/12345';

const unsteady: Row = {
  id: 1,
  path: UNSTEADY,
  filename: 'X Ambassadors - Unsteady.mp3',
  title: 'Unsteady',
  artist: 'X Ambassadors',
  album: 'VHS',
  genre: 'Pop',
  length: 193,
  bpm: 104,
  bpmAnalyzed: 104.50000762939453,
  key: 1,
  rating: 80,
  dateAdded: 1673654400,
  year: 2015,
  isPlayed: 1,
  fileType: 'mp3',
};
const senorita: Row = {
  id: 2,
  path: SENORITA,
  filename: 'Shawn Mendes - Señorita.m4a',
  title: 'Señorita',
  artist: 'Shawn Mendes & Camila Cabello',
  genre: '',
  length: 191,
  bpm: 117,
  key: 7,
  rating: 100,
  dateAdded: 1561939200,
};
const sunshine: Row = {
  id: 3,
  path: SUNSHINE,
  filename: "Ain't No Sunshine.mp3",
  length: 125,
  bpm: 0,
  bpmAnalyzed: 0,
  rating: 0,
};
const stream: Row = {
  id: 4,
  uri: STREAM,
  title: 'Blues Jam',
  artist: 'Jam Band',
  length: 240,
  key: 23,
  rating: 20,
  dateAdded: 1704067200,
};

const mDb = build(`${INFORMATION}${TRACK}${PLAYLISTS}`, {
  Information: [information([3, 0, 2])],
  Track: [unsteady, senorita, sunshine, stream],
  // Top level: 'Warm-up' (6) then 'Events' (1); inside 'Events', the folder '2024' holding
  // 'Friday Night' (4) then 'Saturday' (5). Ids are not the display order: nextListId is.
  Playlist: [
    { id: 1, title: 'Events', parentListId: 0, nextListId: 0, isPersisted: 1 },
    { id: 2, title: '2024', parentListId: 1, nextListId: 0, isPersisted: 1 },
    { id: 4, title: 'Friday Night', parentListId: 2, nextListId: 5, isPersisted: 1 },
    { id: 5, title: 'Saturday', parentListId: 2, nextListId: 0, isPersisted: 1 },
    { id: 6, title: 'Warm-up', parentListId: 0, nextListId: 1, isPersisted: 1 },
  ],
  // 'Friday Night': 10 -> 12 -> 13 (a track not in the table) -> 11.
  PlaylistEntity: [
    { id: 10, listId: 4, trackId: 2, databaseUuid: UUID, nextEntityId: 12, membershipReference: 0 },
    { id: 11, listId: 4, trackId: 1, databaseUuid: UUID, nextEntityId: 0, membershipReference: 0 },
    { id: 12, listId: 4, trackId: 4, databaseUuid: UUID, nextEntityId: 13, membershipReference: 0 },
    { id: 13, listId: 4, trackId: 999, databaseUuid: UUID, nextEntityId: 11, membershipReference: 0 },
    { id: 20, listId: 6, trackId: 3, databaseUuid: UUID, nextEntityId: 21, membershipReference: 0 },
    { id: 21, listId: 6, trackId: 1, databaseUuid: UUID, nextEntityId: 0, membershipReference: 0 },
  ],
});

// hm.db keeps its own copy of the played tracks, with ids of its own.
const hmDb = build(`${INFORMATION}${TRACK}${HISTORY}`, {
  Information: [information([3, 0, 2])],
  Track: [
    { ...senorita, id: 1, originDatabaseUuid: UUID, originTrackId: 2 },
    { ...unsteady, id: 2, originDatabaseUuid: UUID, originTrackId: 1 },
    { ...stream, id: 3, originDatabaseUuid: UUID, originTrackId: 4 },
  ],
  Historylist: [
    { id: 1, title: '2024-05-03', startTime: 1714788000, timezone: 'America/Chicago', isDeleted: 0 },
    { id: 2, title: null, startTime: 1714874400, isDeleted: 0 },
    { id: 3, title: 'Deleted', startTime: 1714700000, isDeleted: 1 },
    { id: 4, title: 'Empty', startTime: 1714600000, isDeleted: 0 },
  ],
  // Out of time order on purpose.
  HistorylistEntity: [
    { id: 1, listId: 1, trackId: 1, startTime: 1714788400 },
    { id: 2, listId: 1, trackId: 2, startTime: 1714788130 },
    { id: 3, listId: 1, trackId: 2, startTime: 1714791000 },
    { id: 4, listId: 2, trackId: 3, startTime: 1714874500 },
    { id: 5, listId: 3, trackId: 1, startTime: 1714700100 },
  ],
});

const LIBRARY_FILE = '/Users/dj/Music/Engine Library/Database2/m.db';

describe('Engine DJ reader on m.db (schema 3.0.2)', () => {
  const library = engineDjReader.read(mDb, { fileName: LIBRARY_FILE, timeZone: 'America/Chicago' });
  const track = (key: string) => library.tracks.find((candidate) => candidate.key === key)!;

  it('reads every Track row in id order, keyed by its path (the uri of a streamed track)', () => {
    expect(library.format).toBe('engine-dj');
    expect(library.tracks.map((t) => t.key)).toEqual([UNSTEADY, SENORITA, SUNSHINE, STREAM]);
    expect(library.history).toEqual([]);
  });

  it('reads title, falling back on the file name', () => {
    expect(track(UNSTEADY).title).toBe('Unsteady');
    expect(track(SENORITA).title).toBe('Señorita');
    expect(track(SUNSHINE).title).toBe("Ain't No Sunshine");
  });

  it('reads artist, empty when NULL', () => {
    expect(track(SENORITA).artist).toBe('Shawn Mendes & Camila Cabello');
    expect(track(SUNSHINE).artist).toBe('');
  });

  it('reads album and genre, leaving out NULL and empty ones', () => {
    expect(track(UNSTEADY)).toMatchObject({ album: 'VHS', genre: 'Pop' });
    expect(track(SENORITA)).not.toHaveProperty('album');
    expect(track(SENORITA)).not.toHaveProperty('genre');
  });

  it("resolves path against the 'Engine Library' folder above Database2, keeps absolute paths", () => {
    expect(track(UNSTEADY).location).toBe('/Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3');
    expect(track(SENORITA).location).toBe('/Users/dj/Music/WCS/Shawn Mendes - Señorita.m4a');
    expect(track(SUNSHINE).location).toBe(SUNSHINE);
    expect(track(STREAM)).not.toHaveProperty('location');
  });

  it('takes the folder from libraryFolder, Windows included, and has no location without one', () => {
    const onWindows = engineDjReader.read(mDb, { libraryFolder: 'E:\\Engine Library' });
    expect(onWindows.tracks[0]!.location).toBe('E:\\WCS\\X Ambassadors - Unsteady.mp3');
    const bare = engineDjReader.read(mDb, { fileName: 'm.db' });
    expect(bare.tracks[0]).not.toHaveProperty('location');
    expect(bare.tracks[0]!.key).toBe(UNSTEADY);
  });

  it('reads length as seconds', () => {
    expect(track(UNSTEADY).durationSeconds).toBe(193);
    expect(track(SUNSHINE).durationSeconds).toBe(125);
  });

  it('reads bpmAnalyzed (3 decimals), else bpm, and 0 as no BPM', () => {
    expect(track(UNSTEADY).bpm).toBe(104.5);
    expect(track(SENORITA).bpm).toBe(117);
    expect(track(SUNSHINE)).not.toHaveProperty('bpm');
  });

  it("names key from Engine's order (1 Am, 7 F#m, 23 Dm), NULL as no key", () => {
    expect(track(UNSTEADY).musicalKey).toBe('Am');
    expect(track(SENORITA).musicalKey).toBe('F#m');
    expect(track(STREAM).musicalKey).toBe('Dm');
    expect(track(SUNSHINE)).not.toHaveProperty('musicalKey');
  });

  it('reads rating 20 per star, 0 as unrated', () => {
    expect(track(UNSTEADY).rating).toBe(4);
    expect(track(SENORITA).rating).toBe(5);
    expect(track(STREAM).rating).toBe(1);
    expect(track(SUNSHINE)).not.toHaveProperty('rating');
  });

  it('reads dateAdded (Unix seconds) as the calendar day in timeZone', () => {
    expect(track(UNSTEADY).dateAdded).toBe('2023-01-13');
    expect(engineDjReader.read(mDb).tracks[0]!.dateAdded).toBe('2023-01-14');
    expect(track(SENORITA).dateAdded).toBe('2019-06-30');
    expect(track(SUNSHINE)).not.toHaveProperty('dateAdded');
  });

  it('has no play count (Engine keeps none per track)', () => {
    expect(library.tracks.some((t) => 'playCount' in t)).toBe(false);
  });

  it('orders sibling lists by nextListId and entries by nextEntityId; a list holding lists is a folder', () => {
    expect(library.playlists).toEqual([
      { name: 'Warm-up', path: [], trackKeys: [SUNSHINE, UNSTEADY] },
      { name: 'Friday Night', path: ['Events', '2024'], trackKeys: [SENORITA, STREAM, UNSTEADY] },
      { name: 'Saturday', path: ['Events', '2024'], trackKeys: [] },
    ]);
  });

  it('never changes the bytes it is given', () => {
    const copy = Buffer.from(mDb);
    const before = createHash('sha256').update(copy).digest('hex');
    engineDjReader.read(copy);
    expect(createHash('sha256').update(copy).digest('hex')).toBe(before);
  });
});

describe('Engine DJ reader on hm.db (the history database)', () => {
  const library = engineDjReader.read(hmDb, {
    fileName: '/Users/dj/Music/Engine Library/Database2/hm.db',
    timeZone: 'America/Chicago',
  });

  it("reads hm.db's own Track table, keyed by path like m.db, and no playlists", () => {
    expect(library.tracks.map((t) => t.key)).toEqual([SENORITA, UNSTEADY, STREAM]);
    expect(library.tracks[1]).toMatchObject({
      title: 'Unsteady',
      location: '/Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3',
    });
    expect(library.playlists).toEqual([]);
  });

  it('reads each Historylist as a session: startTime (Unix seconds) in UTC, its day in timeZone', () => {
    expect(library.history.map(({ entries: _entries, ...session }) => session)).toEqual([
      { name: '2024-05-03', startedAt: '2024-05-04T02:00:00Z', date: '2024-05-03' },
      { name: 'Engine DJ history 2024-05-04', startedAt: '2024-05-05T02:00:00Z', date: '2024-05-04' },
    ]);
  });

  it('reads HistorylistEntity in play order with its startTime, repeats kept, by the track path', () => {
    expect(library.history[0]!.entries).toEqual([
      { trackKey: UNSTEADY, playedAt: '2024-05-04T02:02:10Z' },
      { trackKey: SENORITA, playedAt: '2024-05-04T02:06:40Z' },
      { trackKey: UNSTEADY, playedAt: '2024-05-04T02:50:00Z' },
    ]);
    expect(library.history[1]!.entries).toEqual([{ trackKey: STREAM, playedAt: '2024-05-05T02:01:40Z' }]);
  });

  it('leaves out deleted (isDeleted = 1) and empty sessions', () => {
    expect(library.history.map((session) => session.name)).not.toContain('Deleted');
    expect(library.history.map((session) => session.name)).not.toContain('Empty');
  });
});

describe("Engine DJ's key numbers", () => {
  it('name the circle of fifths from C major, each major key followed by its relative minor', () => {
    expect(Array.from({ length: 24 }, (_, index) => keyNameOfEngineIndex(index))).toEqual([
      'C',
      'Am',
      'G',
      'Em',
      'D',
      'Bm',
      'A',
      'F#m',
      'E',
      'C#m',
      'B',
      'G#m',
      'F#',
      'Ebm',
      'Db',
      'Bbm',
      'Ab',
      'Fm',
      'Eb',
      'Cm',
      'Bb',
      'Gm',
      'F',
      'Dm',
    ]);
    expect(keyNameOfEngineIndex(-1)).toBeNull();
    expect(keyNameOfEngineIndex(24)).toBeNull();
  });
});

describe('Engine DJ reader refusals, naming the schema version seen', () => {
  it('refuses the Engine 1.x layout', () => {
    const v1 = build(`${INFORMATION}CREATE TABLE Track (id INTEGER PRIMARY KEY, path TEXT);`, {
      Information: [information([1, 18, 0])],
    });
    expect(() => engineDjReader.read(v1)).toThrow(/schema 1\.18\.0.*1\.x layout/);
  });

  it('refuses a database without Playlist or Historylist tables', () => {
    const bare = build(`${INFORMATION}${TRACK}`, { Information: [information([2, 18, 0])] });
    expect(() => engineDjReader.read(bare)).toThrow(
      /schema 2\.18\.0\) has neither a 'Playlist' table \(m\.db\) nor a 'Historylist' table/,
    );
  });

  it('refuses a database without a Track table', () => {
    const noTrack = build(`${INFORMATION}${PLAYLISTS}`, { Information: [information([2, 20, 1])] });
    expect(() => engineDjReader.read(noTrack)).toThrow(/schema 2\.20\.1\): it has no 'Track' table/);
  });

  it('names a missing column and a missing companion table', () => {
    const noTitle = build(
      `${INFORMATION}CREATE TABLE Track (id INTEGER PRIMARY KEY, path TEXT, filename TEXT, artist TEXT);${PLAYLISTS}`,
      { Information: [information([2, 21, 0])] },
    );
    expect(() => engineDjReader.read(noTitle)).toThrow(
      "Engine DJ database (schema 2.21.0): table 'Track' has no column 'title'.",
    );
    const noEntities = build(
      `${INFORMATION}${TRACK}CREATE TABLE Playlist (id INTEGER PRIMARY KEY, title TEXT, parentListId INTEGER, nextListId INTEGER);`,
      { Information: [information([2, 21, 2])] },
    );
    expect(() => engineDjReader.read(noEntities)).toThrow(
      "Engine DJ database (schema 2.21.2) has no 'PlaylistEntity' table.",
    );
    const noInformation = build(`${TRACK}CREATE TABLE Historylist (id INTEGER PRIMARY KEY);`);
    expect(() => engineDjReader.read(noInformation)).toThrow(
      "Engine DJ database (no schema version) has no 'HistorylistEntity' table.",
    );
  });

  it('refuses text, another binary file and a damaged database', () => {
    expect(() => engineDjReader.read('SQLite format 3')).toThrow(/pass the file as a Buffer/);
    expect(() => engineDjReader.read(Buffer.from('vrsn\0\0\0\0'))).toThrow(/Not an Engine DJ database/);
    const damaged = Buffer.from(mDb);
    damaged.fill(0xff, 100, 4096);
    expect(() => engineDjReader.read(damaged)).toThrow(DjFormatError);
  });
});
