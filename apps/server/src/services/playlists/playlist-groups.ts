import {
  AGE_CATEGORIES,
  type AgeCategory,
  type EditableSettings,
  ENERGY_BANDS,
  type EnergyBand,
  GENRES,
  type Genre,
  TIME_WINDOWS,
  type TimeWindow,
} from '@wcs/contract';

/**
 * The rules of generated playlists (docs/metrics.md "Playlists"), pure: which songs qualify, which
 * time window a song belongs to, which group it falls in, and how a group is named and ordered.
 * `playlists.ts` loads the library, applies these, and stores and writes the result.
 */

/** A group becomes a playlist from this many songs on. */
export const PLAYLIST_MIN_SONGS = 5;
/** Energy (0-1000) is divided by this in the window distance, so it counts in percent beside BPM. */
export const ENERGY_DISTANCE_DIVISOR = 10;

/** A song that has a file and an analysis (the caller selects only those). */
export interface PlaylistSong {
  id: number;
  title: string;
  bpm: number | null;
  /** 0-1000. */
  energy: number | null;
  genre: Genre | null;
  /** Null when the release date is unknown. */
  ageCategory: AgeCategory | null;
  overplayScore: number;
  /** Number of the song's plays in each time window (plays without a window are not counted). */
  windowPlays: Partial<Record<TimeWindow, number>>;
}

/** Average BPM and energy (0-1000) of the plays in a window, over every played song. */
export interface WindowAverage {
  window: TimeWindow;
  bpm: number;
  energy: number;
}

export type OverplayThresholds = Pick<EditableSettings, 'overplay_new_threshold' | 'overplay_mid_threshold'>;

/**
 * Overplayed for its age: a new song from `overplay_new_threshold` on, a mid or old one from
 * `overplay_mid_threshold` on. A song without a release date is treated as old: nothing says
 * it is new, and the stricter threshold keeps a worn-out song of unknown age out.
 */
export function isOverplayedForAge(
  overplayScore: number,
  ageCategory: AgeCategory | null,
  thresholds: OverplayThresholds,
): boolean {
  const threshold =
    ageCategory === 'new' ? thresholds.overplay_new_threshold : thresholds.overplay_mid_threshold;
  return overplayScore >= threshold;
}

/** The window with the most plays of the song; a tie goes to the earliest window of the night. */
export function mostPlayedWindow(windowPlays: Partial<Record<TimeWindow, number>>): TimeWindow | null {
  let best: TimeWindow | null = null;
  let bestCount = 0;
  for (const window of TIME_WINDOWS) {
    const count = windowPlays[window] ?? 0;
    if (count > bestCount) {
      best = window;
      bestCount = count;
    }
  }
  return best;
}

/**
 * For a song never played in a window: the window whose average (BPM, energy) of played songs is
 * nearest, by Euclidean distance on BPM and energy in percent (energy / 10), so that 10 BPM
 * weigh as much as 10 points of energy. A tie goes to the earliest window. Null when the song
 * lacks BPM or energy, or no window has averages yet.
 */
export function nearestWindow(
  song: { bpm: number | null; energy: number | null },
  averages: readonly WindowAverage[],
): TimeWindow | null {
  if (song.bpm === null || song.energy === null) return null;
  let best: TimeWindow | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const window of TIME_WINDOWS) {
    const average = averages.find((candidate) => candidate.window === window);
    if (!average) continue;
    const distance = Math.hypot(
      song.bpm - average.bpm,
      (song.energy - average.energy) / ENERGY_DISTANCE_DIVISOR,
    );
    if (distance < bestDistance) {
      best = window;
      bestDistance = distance;
    }
  }
  return best;
}

/** Energy band of a 0-1000 energy: high >= 700, mid 400-699, low < 400. */
export function energyBandOf(energy: number | null): EnergyBand | null {
  if (energy === null) return null;
  if (energy >= ENERGY_BANDS.high.min) return 'high';
  if (energy >= ENERGY_BANDS.mid.min) return 'mid';
  return 'low';
}

export interface PlaylistGroupKey {
  ageCategory: AgeCategory | null;
  genre: Genre | null;
  window: TimeWindow | null;
  energyBand: EnergyBand | null;
}

export interface PlaylistGroup extends PlaylistGroupKey {
  /** "age|genre|window|energy", 'unknown' for a missing value: the playlist's identity. */
  key: string;
  name: string;
  /** Ordered by BPM, then title. */
  songs: PlaylistSong[];
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function playlistGroupKey(group: PlaylistGroupKey): string {
  return [group.ageCategory, group.genre, group.window, group.energyBand]
    .map((part) => part ?? 'unknown')
    .join('|');
}

/** `Mid · Blues/Jazz · 00-02 · Low energy`; a missing value reads 'Unknown'. */
export function playlistName(group: PlaylistGroupKey): string {
  return [
    group.ageCategory ? capitalise(group.ageCategory) : 'Unknown',
    group.genre ?? 'Unknown',
    group.window ?? 'Unknown',
    `${group.energyBand ? capitalise(group.energyBand) : 'Unknown'} energy`,
  ].join(' · ');
}

/** The M3U8 file name of a playlist: its name with ' · ' as ' - ' and no '/' (genres contain one). */
export function playlistFileName(name: string): string {
  return `${name.replaceAll(' · ', ' - ').replaceAll('/', '-')}.m3u8`;
}

/** BPM ascending (unknown last), then title, then id so that the order never depends on chance. */
export function comparePlaylistSongs(a: PlaylistSong, b: PlaylistSong): number {
  if (a.bpm !== b.bpm) {
    if (a.bpm === null) return 1;
    if (b.bpm === null) return -1;
    return a.bpm - b.bpm;
  }
  return a.title.localeCompare(b.title, 'en') || a.id - b.id;
}

const orderOf = <T>(list: readonly T[], value: T | null) =>
  value === null ? list.length : list.indexOf(value);
const ENERGY_ORDER: readonly EnergyBand[] = ['low', 'mid', 'high'];

/**
 * Every group of the eligible songs that are not overplayed for their age, whatever its size
 * (the caller keeps those with at least `PLAYLIST_MIN_SONGS`), in a stable order: age, genre,
 * window, energy.
 */
export function assignPlaylistGroups(
  songs: readonly PlaylistSong[],
  averages: readonly WindowAverage[],
  thresholds: OverplayThresholds,
): PlaylistGroup[] {
  const groups = new Map<string, PlaylistGroup>();
  for (const song of songs) {
    if (isOverplayedForAge(song.overplayScore, song.ageCategory, thresholds)) continue;
    const groupKey: PlaylistGroupKey = {
      ageCategory: song.ageCategory,
      genre: song.genre,
      window: mostPlayedWindow(song.windowPlays) ?? nearestWindow(song, averages),
      energyBand: energyBandOf(song.energy),
    };
    const key = playlistGroupKey(groupKey);
    let group = groups.get(key);
    if (!group) {
      group = { ...groupKey, key, name: playlistName(groupKey), songs: [] };
      groups.set(key, group);
    }
    group.songs.push(song);
  }
  for (const group of groups.values()) group.songs.sort(comparePlaylistSongs);
  return [...groups.values()].sort(
    (a, b) =>
      orderOf(AGE_CATEGORIES, a.ageCategory) - orderOf(AGE_CATEGORIES, b.ageCategory) ||
      orderOf(GENRES, a.genre) - orderOf(GENRES, b.genre) ||
      orderOf(TIME_WINDOWS, a.window) - orderOf(TIME_WINDOWS, b.window) ||
      orderOf(ENERGY_ORDER, a.energyBand) - orderOf(ENERGY_ORDER, b.energyBand),
  );
}
