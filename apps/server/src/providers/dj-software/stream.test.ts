import { describe, expect, it } from 'vitest';
import { DJ_WRITERS } from './index.js';
import type { DjFormat, DjTrack, DjWriteInput, DjWriteOptions } from './types.js';

/**
 * A writer's `stream` (head, each track, tail) makes the very bytes of its `write`: the export
 * streams a library of 200,000 songs through it (services/interop/export.ts).
 */

const tracks: DjTrack[] = [
  {
    key: '12',
    title: 'Señorita & "Friends" <live>',
    artist: 'Shawn Mendes',
    album: 'Album\nwith a line break',
    genre: 'Pop',
    location: '/srv/music/WCS/Señorita.m4a',
    durationSeconds: 191.4,
    bpm: 117,
    musicalKey: 'F#m',
    playCount: 3,
    dateAdded: '2026-03-01',
  },
  { key: '7', title: 'Wanted', artist: 'Nobody' },
  { key: '30', title: 'Relative', artist: '', location: 'music/relative.mp3', playCount: 0 },
  { key: '4', title: 'Drive', artist: 'Incubus', location: 'D:\\Music\\Drive.mp3', bpm: 90.25 },
  { key: '5', title: "Mac's", artist: 'A', location: '/Volumes/USB/Music/a.aiff', durationSeconds: 200 },
];

const playlists = [
  { name: 'New Pop', path: ['WCS playlists'], trackKeys: ['4', '7', '12', '4'] },
  { name: 'Old', path: ['WCS playlists', 'Old'], trackKeys: ['5'] },
  { name: 'Empty', path: [], trackKeys: [] },
];

/** The file a track at a time, as the export streams it. */
function streamed(format: DjFormat, input: DjWriteInput, options: DjWriteOptions): Buffer {
  const writer = DJ_WRITERS[format]!.stream!(options);
  const count = input.tracks.filter((track) => writer.writes(track)).length;
  return Buffer.concat(
    [writer.head(count), ...input.tracks.map((track) => writer.track(track)), ...writer.tail(input)].map(
      (part) => Buffer.from(part),
    ),
  );
}

describe('DJ files written a track at a time', () => {
  it('are the bytes of the whole file, for a collection with playlists (rekordbox, Traktor)', () => {
    for (const format of ['rekordbox-xml', 'traktor-nml'] as const) {
      for (const input of [
        { tracks, playlists },
        { tracks, playlists: [] },
        {
          tracks,
          playlists,
          history: [
            {
              name: 'Night',
              entries: [{ trackKey: '12', playedAt: '2026-03-14T21:05:00.000Z' }, { trackKey: '7' }],
            },
          ],
        },
        { tracks: tracks.filter((track) => track.location === undefined), playlists },
        { tracks: [], playlists: [] },
      ]) {
        const whole = Buffer.from(DJ_WRITERS[format]!.write(input, {}));
        expect(streamed(format, input, {}).toString(), format).toBe(whole.toString());
      }
    }
  });

  it('are the bytes of the whole file, for a list of every track (M3U, VirtualDJ, Serato crate, CSV)', () => {
    for (const format of ['m3u8', 'virtualdj-m3u', 'serato-crate', 'csv'] as const) {
      for (const input of [{ tracks }, { tracks: tracks.slice(1, 2) }, { tracks: [] }]) {
        const whole = Buffer.from(DJ_WRITERS[format]!.write(input, {}));
        expect(streamed(format, input, {}).equals(whole), format).toBe(true);
      }
      // A list named, as the export writes one playlist or a filtered library.
      const named = {
        tracks,
        playlists: [{ name: 'Night, "one"', path: [], trackKeys: tracks.map((t) => t.key) }],
      };
      const whole = Buffer.from(DJ_WRITERS[format]!.write(named, { listName: 'Night, "one"' }));
      expect(streamed(format, { tracks }, { listName: 'Night, "one"' }).equals(whole), format).toBe(true);
    }
  });

  it('refuses rekordbox track keys it would have to renumber', () => {
    const writer = DJ_WRITERS['rekordbox-xml']!.stream!({});
    writer.head(1);
    expect(() => writer.track({ key: 'abc', title: 't', artist: 'a', location: '/m/a.mp3' })).toThrow(
      /whole-number/,
    );
  });
});
