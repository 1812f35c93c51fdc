import { InteropOptions } from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import {
  CSV_FIELDS,
  csvHeaderOf,
  csvMappingOf,
  guessCsvChoice,
  type ImportChoices,
  interopOptionsOf,
  needsCsvMapping,
  pathMappingsOf,
  sessionsOption,
  uploadBodyOf,
} from './import-request';

const row = (id: number, from: string, to: string) => ({ id, from, to });

describe('pathMappingsOf', () => {
  it('sends the filled rows trimmed, in their order, and leaves empty rows out', () => {
    expect(
      pathMappingsOf([
        row(1, ' C:/Music/ ', '/srv/music/ '),
        row(2, '', ''),
        row(3, '/Users/dj/Music', '/srv/music'),
      ]),
    ).toEqual({
      mappings: [
        { from: 'C:/Music/', to: '/srv/music/' },
        { from: '/Users/dj/Music', to: '/srv/music' },
      ],
      problem: null,
    });
    expect(pathMappingsOf([])).toEqual({ mappings: [], problem: null });
  });

  it('refuses a row with one side only, naming its row', () => {
    const outcome = pathMappingsOf([row(1, 'C:/Music/', '/srv/music/'), row(2, 'D:/DJ', '  ')]);
    expect(outcome.problem).toBe(
      'Mapping 2: give both the folder on the DJ computer and the folder on this server, or clear the row.',
    );
    expect(pathMappingsOf([row(1, '', '/srv')]).problem).toMatch(/^Mapping 1: /);
  });

  it('refuses the same folder mapped twice', () => {
    expect(pathMappingsOf([row(1, 'C:/Music', '/a'), row(2, 'C:/Music', '/b')]).problem).toBe(
      'Mapping 2: "C:/Music" is mapped twice.',
    );
  });

  it('refuses more mappings than the server takes', () => {
    const rows = Array.from({ length: 51 }, (_, i) => row(i, `/from/${i}`, `/to/${i}`));
    expect(pathMappingsOf(rows).problem).toBe('At most 50 path mappings.');
    expect(pathMappingsOf(rows.slice(0, 50)).problem).toBeNull();
  });
});

describe('CSV columns', () => {
  it('reads the header line with its delimiter, quotes and a byte-order mark', () => {
    expect(csvHeaderOf('Title,Artist,BPM\r\nA,B,120\r\n')).toEqual(['Title', 'Artist', 'BPM']);
    expect(csvHeaderOf('\uFEFF"Track Title";"Artist";"Played"\nx;y;z')).toEqual([
      'Track Title',
      'Artist',
      'Played',
    ]);
    expect(csvHeaderOf('Title\tArtist, feat.\tKey')).toEqual(['Title', 'Artist, feat.', 'Key']);
    expect(csvHeaderOf('"Say ""hi""",Artist')).toEqual(['Say "hi"', 'Artist']);
    expect(csvHeaderOf('\n')).toEqual([]);
  });

  it('asks for columns for a plain CSV, not for Serato history CSV, unless a format is chosen', () => {
    expect(needsCsvMapping('set.csv', ['Track', 'Artist'], '')).toBe(true);
    expect(needsCsvMapping('SET.CSV', [], '')).toBe(true);
    expect(needsCsvMapping('history.csv', ['name', 'artist', 'start time', 'end time'], '')).toBe(false);
    expect(needsCsvMapping('rekordbox.xml', [], '')).toBe(false);
    expect(needsCsvMapping('list.txt', ['Title', 'Artist'], 'csv')).toBe(true);
    expect(needsCsvMapping('set.csv', ['Title'], 'serato-history-csv')).toBe(false);
  });

  it('guesses each field from the usual headers, ignoring case, a column used once', () => {
    const choice = guessCsvChoice(['Track Title', 'ARTIST', 'Tempo', 'Played', 'Notes', 'Location']);
    expect(choice).toMatchObject({
      title: 'Track Title',
      artist: 'ARTIST',
      bpm: 'Tempo',
      playedAt: 'Played',
      location: 'Location',
      album: '',
      musicalKey: '',
    });
    expect(Object.keys(choice).sort()).toEqual(CSV_FIELDS.map((f) => f.field).sort());
    // The server's own export reads back with its own headers.
    expect(
      guessCsvChoice([
        'Title',
        'Artist',
        'Album',
        'Genre',
        'Location',
        'Duration',
        'BPM',
        'Key',
        'Play Count',
        'Date Added',
        'Rating',
        'Played At',
      ]),
    ).toEqual({
      title: 'Title',
      artist: 'Artist',
      album: 'Album',
      genre: 'Genre',
      location: 'Location',
      durationSeconds: 'Duration',
      bpm: 'BPM',
      musicalKey: 'Key',
      playCount: 'Play Count',
      dateAdded: 'Date Added',
      rating: 'Rating',
      playedAt: 'Played At',
    });
  });

  it('sends the chosen columns only, and needs the title and artist', () => {
    const none = guessCsvChoice([]);
    expect(csvMappingOf(none)).toEqual({
      mapping: null,
      problem: 'Choose the column of the title and artist.',
    });
    expect(csvMappingOf({ ...none, title: 'Song' }).problem).toBe('Choose the column of the artist.');
    expect(csvMappingOf({ ...none, title: 'Song', artist: 'By', bpm: 'Tempo' })).toEqual({
      mapping: { title: 'Song', artist: 'By', bpm: 'Tempo' },
      problem: null,
    });
  });
});

describe('sessionsOption', () => {
  it('is left out when every session is chosen, else lists the chosen ones in file order', () => {
    expect(sessionsOption([0, 1, 2], new Set([2, 0, 1]))).toBeUndefined();
    expect(sessionsOption([0, 1, 2], new Set([2, 0]))).toEqual([0, 2]);
    expect(sessionsOption([0, 1], new Set())).toEqual([]);
    expect(sessionsOption([], new Set())).toBeUndefined();
  });
});

const DEFAULTS: ImportChoices = {
  pathMappings: [],
  csvMapping: null,
  format: '',
  timeZone: '',
  nightStart: '',
  newSongs: 'all',
  sessions: undefined,
  event: { kind: 'per-night' },
};

describe('interopOptionsOf', () => {
  it('sends nothing for the defaults: the server detects, matches and makes an event per night', () => {
    expect(interopOptionsOf(DEFAULTS)).toEqual({});
  });

  it('sends every choice under the contract name, and the contract accepts it', () => {
    const options = interopOptionsOf({
      pathMappings: [{ from: 'C:/Music/', to: '/srv/music/' }],
      csvMapping: { title: 'Song', artist: 'By' },
      format: 'csv',
      timeZone: ' Europe/Berlin ',
      nightStart: '20:30',
      newSongs: 'history',
      sessions: [0, 2],
      event: { kind: 'one', eventId: 7 },
    });
    expect(options).toEqual({
      format: 'csv',
      time_zone: 'Europe/Berlin',
      path_mappings: [{ from: 'C:/Music/', to: '/srv/music/' }],
      csv_mapping: { title: 'Song', artist: 'By' },
      sessions: [0, 2],
      event_id: 7,
      new_songs: 'history',
      night_start: '20:30',
    });
    expect(InteropOptions.safeParse(options).success).toBe(true);
  });

  it('skips sessions outside every event when no event may be made; one event needs an event', () => {
    expect(interopOptionsOf({ ...DEFAULTS, event: { kind: 'existing-only' } })).toEqual({
      create_events: false,
    });
    expect(interopOptionsOf({ ...DEFAULTS, event: { kind: 'one', eventId: null } })).toEqual({});
    expect(interopOptionsOf({ ...DEFAULTS, sessions: [] })).toEqual({ sessions: [] });
  });
});

describe('uploadBodyOf', () => {
  it('is the options as JSON text, then the file as "file" with its name', async () => {
    const form = uploadBodyOf(new Blob(['<DJ_PLAYLISTS/>']), 'rekordbox.xml', { create_events: false });
    expect([...form.keys()]).toEqual(['options', 'file']);
    expect(JSON.parse(String(form.get('options')))).toEqual({ create_events: false });
    const file = form.get('file') as File;
    expect(file.name).toBe('rekordbox.xml');
    expect(await file.text()).toBe('<DJ_PLAYLISTS/>');
  });
});
