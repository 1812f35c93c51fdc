import path from 'node:path';
import { parseFile } from 'music-metadata';

/** Release years outside this range are typos or placeholders (0000, 9999), not dates. */
const MIN_RELEASE_YEAR = 1900;
const MAX_RELEASE_YEAR = 2100;

/**
 * A release date from the date and year tags: a full date (YYYY-MM-DD, with or without a time)
 * is kept; a year and month (YYYY-MM) becomes the first of that month; a year alone (YYYY, or the
 * numeric year tag) becomes YYYY-01-01. Anything else, or a year outside 1900-2100, is no date.
 */
export function releaseDateFromTags(date: string | undefined, year: number | undefined): string | null {
  const match = date?.trim().match(/^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/);
  if (match) {
    const [, y, m = '01', d = '01'] = match;
    const candidate = `${y}-${m}-${d}`;
    if (isPlausibleDate(candidate)) return candidate;
  }
  if (year !== undefined && Number.isInteger(year)) {
    const candidate = `${String(year).padStart(4, '0')}-01-01`;
    if (isPlausibleDate(candidate)) return candidate;
  }
  return null;
}

function isPlausibleDate(isoDate: string): boolean {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  if (year < MIN_RELEASE_YEAR || year > MAX_RELEASE_YEAR) return false;
  const parsed = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2019-02-30 over into March: a date that does not round-trip does not exist.
  return parsed.toISOString().slice(0, 10) === isoDate;
}

/**
 * Text that was UTF-8 but got decoded as Latin-1 ('TÃ¯tle' for 'Tïtle'), as RIFF INFO tags
 * written by ffmpeg and many ID3 tags declared Latin-1 are: decoded again as UTF-8 when that gives
 * valid UTF-8. Real Latin-1 text ('Café' as Latin-1 bytes) is not valid UTF-8 and stays as it is.
 */
export function repairMojibake(text: string): string {
  const codes = [...text].map((char) => char.codePointAt(0)!);
  // Only text made of Latin-1 code points, some of them beyond ASCII, can be UTF-8 misread.
  if (!codes.some((code) => code >= 0x80) || codes.some((code) => code > 0xff)) return text;
  const decoded = Buffer.from(text, 'latin1').toString('utf8');
  return decoded.includes('\uFFFD') ? text : decoded;
}

const cleanText = (value: string | undefined | null): string | null => {
  if (value === undefined || value === null) return null;
  const text = repairMojibake(value).trim();
  return text === '' ? null : text;
};

/** What an import reads from one audio file. */
export interface AudioFileTags {
  /** Null when the file has no title tag (the caller falls back to the file name). */
  title: string | null;
  /** Null when the file has no artist tag. */
  artist: string | null;
  album: string | null;
  /** The genre tags as written in the file. */
  genres: string[];
  releaseDate: string | null;
  year: number | null;
  albumArtist: string | null;
  track: number | null;
  durationMs: number;
}

/** A file the import cannot use, with a reason a person can act on. */

export class UnusableFile extends Error {}

/** Reads the tags and duration of an audio file; throws UnusableFile when no audio can be read. */
export async function readAudioFileTags(file: string): Promise<AudioFileTags> {
  let metadata: Awaited<ReturnType<typeof parseFile>>;
  try {
    metadata = await parseFile(file, { skipCovers: true });
    // Ogg Vorbis (and headerless MP3) declare no duration: scan the whole stream for it then.
    if (metadata.format.duration === undefined) {
      metadata = await parseFile(file, { skipCovers: true, duration: true });
    }
  } catch (error) {
    throw new UnusableFile(`not a readable audio file: ${(error as Error).message}`);
  }
  const { common, format } = metadata;
  // A file with no measurable duration has no audio stream the parser could find: random bytes
  // that happen to contain an MPEG frame sync, or a truncated header.
  if (format.duration === undefined || !Number.isFinite(format.duration) || format.duration <= 0) {
    throw new UnusableFile(
      `no audio stream could be read (is the file complete, and is it really ${path.extname(file).slice(1)}?)`,
    );
  }
  const genres = (common.genre ?? []).map((genre) => cleanText(genre)).filter((genre) => genre !== null);
  const year = common.year !== undefined && Number.isInteger(common.year) ? common.year : null;
  return {
    title: cleanText(common.title),
    artist: cleanText(common.artist) ?? cleanText(common.artists?.join(', ')),
    album: cleanText(common.album),
    genres,
    releaseDate: releaseDateFromTags(common.date, common.year),
    year,
    albumArtist: cleanText(common.albumartist),
    track: common.track.no ?? null,
    durationMs: Math.round(format.duration * 1000),
  };
}
