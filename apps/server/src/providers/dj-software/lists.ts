/**
 * What a one-list format (M3U, Serato crate, CSV) writes out of a whole library: the list named by
 * `listName`, else the first playlist, else the first history session, else every track.
 */
import type { DjFormat, DjTrack, DjWriteInput, DjWriteOptions } from './types.js';
import { DjFormatError } from './types.js';

export interface ListRow {
  track: DjTrack;
  playedAt?: string;
}

export interface PickedList {
  name: string;
  rows: ListRow[];
  /** True when the rows come from a history session (they may carry play times). */
  isHistory: boolean;
}

/** The name of a one-list file of every track (no list named, none in the library). */
export const ALL_TRACKS = 'Tracks';

export function pickList(
  input: DjWriteInput,
  options: DjWriteOptions | undefined,
  format: DjFormat,
): PickedList {
  const byKey = new Map(input.tracks.map((track) => [track.key, track]));
  const resolve = (key: string): DjTrack => {
    const track = byKey.get(key);
    if (!track)
      throw new DjFormatError(format, `The list refers to track '${key}', which is not among the tracks.`);
    return track;
  };
  const playlists = input.playlists ?? [];
  const history = input.history ?? [];
  const wanted = options?.listName;
  const playlist = wanted === undefined ? playlists[0] : playlists.find((list) => list.name === wanted);
  const session = wanted === undefined ? history[0] : history.find((list) => list.name === wanted);
  if (playlist) {
    return {
      name: playlist.name,
      rows: playlist.trackKeys.map((key) => ({ track: resolve(key) })),
      isHistory: false,
    };
  }
  if (session) {
    return {
      name: session.name,
      rows: session.entries.map((entry) => ({
        track: resolve(entry.trackKey),
        ...(entry.playedAt !== undefined ? { playedAt: entry.playedAt } : {}),
      })),
      isHistory: true,
    };
  }
  if (wanted !== undefined) {
    throw new DjFormatError(format, `No playlist or history session is named '${wanted}'.`);
  }
  return { name: ALL_TRACKS, rows: input.tracks.map((track) => ({ track })), isHistory: false };
}
