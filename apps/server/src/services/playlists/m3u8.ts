/**
 * Extended M3U8 playlists for DJ software: `#EXTM3U`, then for each song an
 * `#EXTINF:<seconds>,<artist> - <title>` line followed by its absolute file path. Pure: the
 * caller writes the text (UTF-8, which the .m3u8 extension declares; no byte-order mark).
 */

export interface M3u8Entry {
  artist: string;
  title: string;
  /** Length in milliseconds; null when unknown. */
  durationMs: number | null;
  /** Absolute path of the audio file, as the library stores it. */
  path: string;
}

/** Whole seconds for #EXTINF: rounded; -1 is the format's own "length unknown". */
export function m3u8Seconds(durationMs: number | null): number {
  if (durationMs === null || !Number.isFinite(durationMs) || durationMs < 0) return -1;
  return Math.round(durationMs / 1000);
}

/** Every entry is one line of the file: a line break inside a tag would start a bogus entry. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

/** The playlist as text, lines ending in \n, the last one included. */
export function writeM3u8(entries: readonly M3u8Entry[]): string {
  const lines = ['#EXTM3U'];
  for (const entry of entries) {
    lines.push(`#EXTINF:${m3u8Seconds(entry.durationMs)},${oneLine(entry.artist)} - ${oneLine(entry.title)}`);
    lines.push(oneLine(entry.path));
  }
  return `${lines.join('\n')}\n`;
}
