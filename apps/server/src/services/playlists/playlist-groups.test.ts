import { describe, expect, it } from 'vitest';
import {
  assignPlaylistGroups,
  energyBandOf,
  isOverplayedForAge,
  mostPlayedWindow,
  nearestWindow,
  type PlaylistSong,
  playlistFileName,
  playlistGroupKey,
  playlistName,
} from './playlist-groups.js';

const thresholds = { overplay_new_threshold: 90, overplay_mid_threshold: 70 };

describe('isOverplayedForAge', () => {
  it('uses the new threshold for new songs and the mid threshold for mid, old and unknown ones', () => {
    expect(isOverplayedForAge(89, 'new', thresholds)).toBe(false);
    expect(isOverplayedForAge(90, 'new', thresholds)).toBe(true);
    expect(isOverplayedForAge(69, 'mid', thresholds)).toBe(false);
    expect(isOverplayedForAge(70, 'mid', thresholds)).toBe(true);
    expect(isOverplayedForAge(70, 'old', thresholds)).toBe(true);
    // Unknown age is treated as old.
    expect(isOverplayedForAge(75, null, thresholds)).toBe(true);
    expect(isOverplayedForAge(69, null, thresholds)).toBe(false);
  });
});

describe('mostPlayedWindow', () => {
  it('is the window with the most plays; a tie goes to the earliest window of the night', () => {
    expect(mostPlayedWindow({ '20-22': 1, '00-02': 4, '22-00': 2 })).toBe('00-02');
    expect(mostPlayedWindow({ '00-02': 3, '22-00': 3, '20-22': 1 })).toBe('22-00');
    expect(mostPlayedWindow({})).toBeNull();
  });
});

describe('nearestWindow', () => {
  const averages = [
    { window: '00-02' as const, bpm: 110, energy: 700 },
    { window: '20-22' as const, bpm: 90, energy: 400 },
  ];

  it('picks the window whose average (BPM, energy / 10) is nearest', () => {
    // To 20-22: hypot(104 - 90, (600 - 400) / 10) = hypot(14, 20) = 24.4;
    // to 00-02: hypot(104 - 110, (600 - 700) / 10) = hypot(-6, -10) = 11.7.
    expect(nearestWindow({ bpm: 104, energy: 600 }, averages)).toBe('00-02');
    // To 20-22: hypot(18, 3) = 18.2; to 00-02: hypot(-2, -27) = 27.1.
    expect(nearestWindow({ bpm: 108, energy: 430 }, averages)).toBe('20-22');
  });

  it('breaks a tie towards the earliest window', () => {
    // hypot(10, 15) = 18.0 to both.
    expect(nearestWindow({ bpm: 100, energy: 550 }, averages)).toBe('20-22');
  });

  it('has no answer without BPM or energy, or without any played window', () => {
    expect(nearestWindow({ bpm: null, energy: 500 }, averages)).toBeNull();
    expect(nearestWindow({ bpm: 100, energy: null }, averages)).toBeNull();
    expect(nearestWindow({ bpm: 100, energy: 500 }, [])).toBeNull();
  });
});

describe('energyBandOf', () => {
  it('is high from 700, mid from 400, low below', () => {
    expect(energyBandOf(1000)).toBe('high');
    expect(energyBandOf(700)).toBe('high');
    expect(energyBandOf(699)).toBe('mid');
    expect(energyBandOf(400)).toBe('mid');
    expect(energyBandOf(399)).toBe('low');
    expect(energyBandOf(0)).toBe('low');
    expect(energyBandOf(null)).toBeNull();
  });
});

describe('playlist names', () => {
  it('names a group "Age · Genre · Window · Energy energy", Unknown for what is missing', () => {
    const group = { ageCategory: 'mid', genre: 'Blues/Jazz', window: '00-02', energyBand: 'low' } as const;
    expect(playlistName(group)).toBe('Mid · Blues/Jazz · 00-02 · Low energy');
    expect(playlistGroupKey(group)).toBe('mid|Blues/Jazz|00-02|low');
    const unknown = { ageCategory: null, genre: null, window: null, energyBand: null };
    expect(playlistName(unknown)).toBe('Unknown · Unknown · Unknown · Unknown energy');
    expect(playlistGroupKey(unknown)).toBe('unknown|unknown|unknown|unknown');
  });

  it('makes a file name without the slash of a genre', () => {
    expect(playlistFileName('Mid · Blues/Jazz · 00-02 · Low energy')).toBe(
      'Mid - Blues-Jazz - 00-02 - Low energy.m3u8',
    );
    expect(playlistFileName('New · Hip-Hop/R&B · 22-00 · High energy')).toBe(
      'New - Hip-Hop-R&B - 22-00 - High energy.m3u8',
    );
  });
});

describe('assignPlaylistGroups', () => {
  const song = (id: number, fields: Partial<PlaylistSong>): PlaylistSong => ({
    id,
    title: `Song ${id}`,
    bpm: 100,
    energy: 500,
    genre: 'Pop',
    ageCategory: 'mid',
    overplayScore: 0,
    windowPlays: { '22-00': 1 },
    ...fields,
  });

  it('groups by age, genre, window and energy band, leaves out overplayed songs, orders by BPM then title', () => {
    const songs = [
      song(1, { bpm: 98, title: 'b' }),
      song(2, { bpm: 96 }),
      song(3, { bpm: 98, title: 'a' }),
      song(4, { overplayScore: 70 }), // overplayed for a mid song
      song(5, { energy: 800 }), // another energy band
      song(6, { windowPlays: {}, bpm: 95, energy: 480 }), // never played: nearest window is 22-00
      song(7, { windowPlays: { '00-02': 2, '22-00': 1 } }), // most played in 00-02
    ];
    const averages = [
      { window: '22-00' as const, bpm: 100, energy: 500 },
      { window: '00-02' as const, bpm: 120, energy: 800 },
    ];
    const groups = assignPlaylistGroups(songs, averages, thresholds);
    expect(groups.map((group) => [group.name, group.songs.map((s) => s.id)])).toEqual([
      ['Mid · Pop · 22-00 · Mid energy', [6, 2, 3, 1]],
      ['Mid · Pop · 22-00 · High energy', [5]],
      ['Mid · Pop · 00-02 · Mid energy', [7]],
    ]);
  });

  it('puts songs of unknown BPM last', () => {
    const groups = assignPlaylistGroups(
      [song(1, { bpm: null, title: 'a' }), song(2, { bpm: 120, title: 'z' })],
      [],
      thresholds,
    );
    expect(groups[0]!.songs.map((s) => s.id)).toEqual([2, 1]);
  });
});
