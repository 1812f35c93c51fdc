import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { m3u8Writer, m3uReader, virtualDjM3uReader, virtualDjM3uWriter } from './m3u.js';
import type { DjLibrary, DjTrack } from './types.js';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name));

describe('M3U8 reader', () => {
  const library = m3uReader.read(fixture('playlist.m3u8'), { fileName: '/Users/dj/Playlists/friday.m3u8' });
  const [unsteady, senorita, blues, untagged] = library.tracks;

  it('reads one playlist, named by #PLAYLIST, in file order with repeats', () => {
    expect(library.format).toBe('m3u8');
    expect(library.history).toEqual([]);
    expect(library.playlists).toHaveLength(1);
    expect(library.playlists[0]!.name).toBe('Friday Night');
    expect(library.playlists[0]!.path).toEqual([]);
    expect(library.playlists[0]!.trackKeys).toEqual([
      unsteady!.key,
      senorita!.key,
      blues!.key,
      untagged!.key,
      unsteady!.key,
    ]);
    expect(library.tracks).toHaveLength(4);
  });

  it('splits the EXTINF display text into artist and title at the first " - "', () => {
    expect(unsteady).toMatchObject({ artist: 'X Ambassadors', title: 'Unsteady' });
    expect(senorita).toMatchObject({ artist: 'Shawn Mendes & Camila Cabello', title: 'Señorita' });
    expect(blues).toMatchObject({ artist: '', title: 'Blues Jam' });
  });

  it('takes the file name as the title when there is no EXTINF', () => {
    expect(untagged).toMatchObject({ artist: '', title: 'Night Train' });
  });

  it('reads the EXTINF seconds as the duration, -1 as unknown', () => {
    expect(unsteady!.durationSeconds).toBe(193);
    expect(blues).not.toHaveProperty('durationSeconds');
  });

  it('reads locations: paths as written, file:// URLs decoded, relative ones beside the playlist', () => {
    expect(unsteady!.location).toBe('/Users/dj/Music/WCS/X Ambassadors - Unsteady.mp3');
    expect(senorita!.location).toBe('/Users/dj/Music/WCS/Shawn Mendes - Señorita.m4a');
    expect(blues!.location).toBe('D:\\Blues\\Blues Jam.wav');
    expect(untagged!.location).toBe('/Users/dj/Playlists/Untagged/Night Train.mp3');
    expect(m3uReader.read(fixture('playlist.m3u8')).tracks[3]).not.toHaveProperty('location');
  });

  it('reads an old .m3u in the Windows code page, named by its file without #PLAYLIST', () => {
    const bytes = Buffer.concat([
      Buffer.from('#EXTM3U\r\n#EXTINF:200,Beyonc'),
      Buffer.from([0xe9, 0x20, 0x2d, 0x20, 0x92, 0x30, 0x33]), // 'é - ’03'
      Buffer.from(' Bonnie & Clyde\r\nC:\\Music\\a.mp3\r\n'),
    ]);
    const old = m3uReader.read(bytes, { fileName: 'C:\\Playlists\\Old set.m3u' });
    expect(old.tracks[0]).toMatchObject({
      artist: 'Beyoncé',
      title: '’03 Bonnie & Clyde',
      location: 'C:\\Music\\a.mp3',
    });
    expect(old.playlists[0]!.name).toBe('Old set');
  });

  it('refuses an unknown time zone at once, even for a file without times', () => {
    expect(() => m3uReader.read(fixture('playlist.m3u8'), { timeZone: 'Nowhere/Place' })).toThrow(
      /Unknown time zone/,
    );
  });
});

describe('VirtualDJ history M3U reader', () => {
  const library = virtualDjM3uReader.read(fixture('virtualdj-2024-05-03.m3u'), {
    fileName: 'History/virtualdj-2024-05-03.m3u',
    timeZone: 'America/Chicago',
  });
  const [unsteady, senorita, sunshine, stream] = library.tracks;

  it('reads the file as one history session named and dated by its file name', () => {
    expect(library.format).toBe('virtualdj-m3u');
    expect(library.playlists).toEqual([]);
    expect(library.history).toHaveLength(1);
    expect(library.history[0]!.name).toBe('virtualdj-2024-05-03');
    expect(library.history[0]!.date).toBe('2024-05-03');
    expect(library.history[0]!.startedAt).toBe('2024-05-04T02:02:10Z');
  });

  it('reads <artist> and <title>, entities decoded or not, the <remix> added to the title', () => {
    expect(unsteady).toMatchObject({ artist: 'X Ambassadors', title: 'Unsteady' });
    expect(senorita).toMatchObject({ artist: 'Shawn Mendes & Camila Cabello', title: 'Señorita' });
    expect(sunshine).toMatchObject({ artist: 'Bill Withers', title: "Ain't No Sunshine (Live)" });
    expect(stream).toMatchObject({ artist: 'Nick Cave & The Bad Seeds', title: 'Red Right Hand' });
  });

  it('reads <songlength> as the duration', () => {
    expect(unsteady!.durationSeconds).toBe(192.809796);
    expect(senorita).not.toHaveProperty('durationSeconds');
  });

  it('keeps the path as the location, and none for a streamed track', () => {
    expect(unsteady!.location).toBe('C:\\Users\\dj\\Music\\WCS\\X Ambassadors - Unsteady.mp3');
    expect(stream!.key).toBe('netsearch://dz1873796677');
    expect(stream).not.toHaveProperty('location');
  });

  it('takes <lastplaytime> as the play time, else <time> on the file date, passing midnight', () => {
    expect(library.history[0]!.entries).toEqual([
      { trackKey: unsteady!.key, playedAt: '2024-05-04T02:02:10Z' },
      { trackKey: senorita!.key, playedAt: '2024-05-04T02:06:40Z' },
      { trackKey: sunshine!.key, playedAt: '2024-05-04T04:58:00Z' },
      { trackKey: stream!.key, playedAt: '2024-05-04T05:03:00Z' },
    ]);
  });
});

const source: DjLibrary = {
  format: 'csv',
  tracks: [
    {
      key: 'a',
      title: 'Señorita',
      artist: 'Shawn Mendes & Camila Cabello',
      location: '/Users/dj/Señorita.m4a',
      durationSeconds: 191,
      bpm: 117,
    },
    {
      key: 'b',
      title: 'Blues <Jam>',
      artist: '',
      location: 'D:\\Blues\\Blues Jam.wav',
      durationSeconds: 239.986389,
    },
    { key: 'c', title: 'No file', artist: 'Nobody' },
  ],
  playlists: [{ name: 'Friday Night', path: ['Events'], trackKeys: ['b', 'c', 'a', 'b'] }],
  history: [
    {
      name: '2024-05-03',
      date: '2024-05-03',
      startedAt: '2024-05-04T02:02:10Z',
      entries: [
        { trackKey: 'a', playedAt: '2024-05-04T02:02:10Z' },
        { trackKey: 'b', playedAt: '2024-05-04T05:03:05Z' },
      ],
    },
  ],
};
const carried = ({ title, artist, location, durationSeconds }: DjTrack) => ({
  title,
  artist,
  location,
  durationSeconds,
});

describe('M3U8 writer', () => {
  const written = m3u8Writer.write(source) as string;
  const back = m3uReader.read(written);

  it('writes #EXTINF lines with whole seconds, and the path of each track of the first playlist', () => {
    expect(written.split('\n').slice(0, 4)).toEqual([
      '#EXTM3U',
      '#PLAYLIST:Friday Night',
      '#EXTINF:240,Blues <Jam>',
      'D:\\Blues\\Blues Jam.wav',
    ]);
  });

  it('reads back title, artist, location, whole-second duration and order, leaving out tracks without a file', () => {
    expect(back.playlists[0]!.name).toBe('Friday Night');
    expect(back.playlists[0]!.trackKeys.map((key) => back.tracks.find((t) => t.key === key)!.title)).toEqual([
      'Blues <Jam>',
      'Señorita',
      'Blues <Jam>',
    ]);
    expect(back.tracks.map(carried)).toEqual([
      { ...carried(source.tracks[1]!), durationSeconds: 240 },
      carried(source.tracks[0]!),
    ]);
  });

  it('writes a history session when asked for it by name', () => {
    const history = m3uReader.read(m3u8Writer.write(source, { listName: '2024-05-03' }) as string);
    expect(history.playlists[0]!.name).toBe('2024-05-03');
    expect(history.tracks.map((t) => t.title)).toEqual(['Señorita', 'Blues <Jam>']);
    expect(() => m3u8Writer.write(source, { listName: 'Nope' })).toThrow(/No playlist or history session/);
  });
});

describe('VirtualDJ M3U writer', () => {
  const written = virtualDjM3uWriter.write(source, {
    listName: '2024-05-03',
    timeZone: 'America/Chicago',
  }) as string;
  const back = virtualDjM3uReader.read(written, { fileName: '2024-05-03.m3u', timeZone: 'America/Chicago' });

  it('writes #EXTVDJ lines with the local <time>, <lastplaytime> and escaped tags, CRLF line ends', () => {
    expect(written.split('\r\n').slice(0, 3)).toEqual([
      '#EXTM3U',
      '#EXTVDJ:<time>21:02</time><lastplaytime>1714788130</lastplaytime><artist>Shawn Mendes &amp; Camila Cabello</artist><title>Señorita</title><songlength>191</songlength>',
      '/Users/dj/Señorita.m4a',
    ]);
  });

  it('reads back title, artist, location, duration and the play times', () => {
    expect(back.tracks.map(carried)).toEqual([carried(source.tracks[0]!), carried(source.tracks[1]!)]);
    expect(back.history[0]!.entries.map((entry) => entry.playedAt)).toEqual([
      '2024-05-04T02:02:10Z',
      '2024-05-04T05:03:05Z',
    ]);
    expect(back.history[0]!.date).toBe('2024-05-03');
  });

  it('writes a playlist without times, which reads back as a playlist', () => {
    const playlist = virtualDjM3uReader.read(virtualDjM3uWriter.write(source) as string, {
      fileName: 'Friday Night.m3u',
    });
    expect(playlist.history).toEqual([]);
    expect(playlist.playlists[0]!.name).toBe('Friday Night');
    expect(playlist.playlists[0]!.trackKeys).toHaveLength(3);
  });
});
