/**
 * M3U playlists, plain and VirtualDJ's.
 *
 * Plain (extended) M3U / M3U8: '#EXTM3U', optionally '#PLAYLIST:<name>', then for each track an
 * optional '#EXTINF:<seconds>,<artist> - <title>' line and the line of its location (a path, or
 * a file:// URL). '.m3u8' is UTF-8; an old '.m3u' may be in the Windows code page (text-input.ts).
 *
 * VirtualDJ writes its history ('History/2024-05-03.m3u', one file per day) and its older
 * playlists in the same layout, with one '#EXTVDJ:' line before each location instead of EXTINF:
 *   #EXTVDJ:<time>21:02</time><lastplaytime>1714770130</lastplaytime><filesize>..</filesize>
 *           <artist>..</artist><title>..</title><remix>..</remix><songlength>..</songlength>
 * `lastplaytime` is Unix time; `time` is the local clock, read with the date in the file name
 * (and passing midnight when the clock goes back). A file whose entries carry times is read as
 * one history session; any other as one playlist.
 */

import { wallTimeAt } from '../../zoned-time.js';
import { ALL_TRACKS, pickList } from './lists.js';
import { fileStem, fileUrlToPath, isAbsolutePath } from './paths.js';
import { decodeText } from './text-input.js';
import {
  dateOf,
  isoFromUnix,
  isoOfWallTime,
  localDateOfIso,
  nextDay,
  pad2,
  validDate,
  zoneOption,
} from './time.js';
import type {
  DjFormat,
  DjFormatReader,
  DjFormatWriter,
  DjHistoryEntry,
  DjLibrary,
  DjReadOptions,
  DjTrack,
  DjWriteInput,
  DjWriteOptions,
} from './types.js';
import { compactTrack, durationSeconds, formatNumber, number, positive, text } from './values.js';

interface PendingInfo {
  artist?: string;
  title?: string;
  remix?: string;
  durationSeconds?: number;
  /** VirtualDJ `<time>`: minutes since local midnight. */
  minuteOfDay?: number;
  lastPlayTime?: number;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return XML_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function escapeEntities(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The `<tag>value</tag>` pairs of an #EXTVDJ line (a line of tags, not an XML document). */
function extVdjTags(line: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const match of line.matchAll(/<([A-Za-z_][\w-]*)>([\s\S]*?)<\/\1>/g)) {
    tags.set(match[1]!.toLowerCase(), decodeEntities(match[2]!));
  }
  return tags;
}

function parseExtVdj(line: string): PendingInfo {
  const tags = extVdjTags(line);
  const clock = /^(\d{1,2}):(\d{2})/.exec(tags.get('time') ?? '');
  const info: PendingInfo = {
    artist: text(tags.get('artist')),
    title: text(tags.get('title')),
    remix: text(tags.get('remix')),
    durationSeconds: durationSeconds(tags.get('songlength')),
    lastPlayTime: positive(tags.get('lastplaytime')),
  };
  if (clock && Number(clock[1]) < 24) info.minuteOfDay = Number(clock[1]) * 60 + Number(clock[2]);
  return info;
}

/** '#EXTINF:<seconds>[ attributes],<artist> - <title>'. */
function parseExtInf(line: string): PendingInfo {
  const body = line.slice('#EXTINF:'.length);
  const comma = body.indexOf(',');
  const head = comma === -1 ? body : body.slice(0, comma);
  const display = comma === -1 ? '' : body.slice(comma + 1).trim();
  const seconds = number(/^\s*(-?\d+(?:\.\d+)?)/.exec(head)?.[1]);
  const separator = display.indexOf(' - ');
  return {
    durationSeconds: seconds !== undefined && seconds > 0 ? seconds : undefined,
    artist: separator === -1 ? undefined : text(display.slice(0, separator)),
    title: text(separator === -1 ? display : display.slice(separator + 3)),
  };
}

/** The folder of the playlist file, when its name is an absolute path, to resolve relative entries. */
function folderOf(fileName: string | undefined): string | undefined {
  if (fileName === undefined || !isAbsolutePath(fileName)) return undefined;
  const cut = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'));
  return cut === -1 ? undefined : fileName.slice(0, cut + 1);
}

function readM3u(input: Buffer | string, options: DjReadOptions, format: DjFormat): DjLibrary {
  const timeZone = zoneOption(options.timeZone);
  const lines = decodeText(input).split(/\r\n|\n|\r/);
  const baseFolder = folderOf(options.fileName);
  const tracks: DjTrack[] = [];
  const byKey = new Map<string, DjTrack>();
  const rows: Array<{ key: string; info: PendingInfo }> = [];
  let listName: string | undefined;
  let pending: PendingInfo = {};
  for (const rawLine of lines) {
    const line = rawLine.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      if (/^#EXTVDJ:/i.test(line)) pending = { ...pending, ...definedOnly(parseExtVdj(line)) };
      else if (/^#EXTINF:/i.test(line))
        pending = { ...definedOnly(parseExtInf(line)), ...definedOnly(pending) };
      else if (/^#PLAYLIST:/i.test(line)) listName = text(line.slice('#PLAYLIST:'.length));
      continue;
    }
    const key = line;
    let location: string | undefined;
    if (/^file:\/\//i.test(line)) location = fileUrlToPath(line);
    else if (isAbsolutePath(line)) location = line;
    else if (!/^[a-z][a-z0-9+.-]*:/i.test(line) && baseFolder !== undefined) location = baseFolder + line;
    if (!byKey.has(key)) {
      const title = pending.title ?? fileStem(location ?? line);
      const withRemix =
        pending.remix !== undefined && !title.toLowerCase().includes(pending.remix.toLowerCase())
          ? `${title} (${pending.remix})`
          : title;
      const track = compactTrack({
        key,
        title: withRemix,
        artist: pending.artist ?? '',
        location,
        durationSeconds: pending.durationSeconds,
      });
      byKey.set(key, track);
      tracks.push(track);
    }
    rows.push({ key, info: pending });
    pending = {};
  }

  const timed = rows.some((row) => row.info.lastPlayTime !== undefined || row.info.minuteOfDay !== undefined);
  const stem = options.fileName === undefined ? undefined : fileStem(options.fileName);
  if (!timed) {
    const name = listName ?? stem ?? 'Playlist';
    return {
      format,
      tracks,
      playlists: [{ name, path: [], trackKeys: rows.map((row) => row.key) }],
      history: [],
    };
  }

  const nameDate = /(\d{4})-(\d{2})-(\d{2})/.exec(stem ?? '');
  let day = nameDate ? validDate(Number(nameDate[1]), Number(nameDate[2]), Number(nameDate[3])) : null;
  let previousMinute = -1;
  const entries: DjHistoryEntry[] = rows.map((row) => {
    const { minuteOfDay, lastPlayTime } = row.info;
    if (minuteOfDay !== undefined) {
      if (day && minuteOfDay < previousMinute) day = nextDay(day);
      previousMinute = minuteOfDay;
    }
    if (lastPlayTime !== undefined) return { trackKey: row.key, playedAt: isoFromUnix(lastPlayTime) };
    if (minuteOfDay !== undefined && day) {
      const wall = { ...day, hour: Math.floor(minuteOfDay / 60), minute: minuteOfDay % 60, second: 0 };
      return { trackKey: row.key, playedAt: isoOfWallTime(wall, timeZone) };
    }
    return { trackKey: row.key };
  });
  const startedAt = entries.find((entry) => entry.playedAt !== undefined)?.playedAt;
  const date = nameDate
    ? dateOf({ year: Number(nameDate[1]), month: Number(nameDate[2]), day: Number(nameDate[3]) })
    : startedAt === undefined
      ? undefined
      : localDateOfIso(startedAt, timeZone);
  return {
    format,
    tracks,
    playlists: [],
    history: [
      {
        name: stem ?? listName ?? 'History',
        ...(startedAt !== undefined ? { startedAt } : {}),
        ...(date !== undefined ? { date } : {}),
        entries,
      },
    ],
  };
}

function definedOnly(info: PendingInfo): PendingInfo {
  return Object.fromEntries(Object.entries(info).filter(([, value]) => value !== undefined)) as PendingInfo;
}

export const m3uReader: DjFormatReader = {
  format: 'm3u8',
  read: (input, options = {}) => readM3u(input, options, 'm3u8'),
};

export const virtualDjM3uReader: DjFormatReader = {
  format: 'virtualdj-m3u',
  read: (input, options = {}) => readM3u(input, options, 'virtualdj-m3u'),
};

/** The start of an M3U8 file of the list `name`. */
const m3u8Head = (name: string) => `#EXTM3U\n#PLAYLIST:${name.replace(/[\r\n]+/g, ' ')}\n`;

/** A track's two lines in an M3U8 file; none without a location. */
function m3u8Track(track: DjTrack): string {
  if (track.location === undefined) return '';
  const seconds = track.durationSeconds === undefined ? -1 : Math.round(track.durationSeconds);
  const display = track.artist === '' ? track.title : `${track.artist} - ${track.title}`;
  return `#EXTINF:${seconds},${display.replace(/[\r\n]+/g, ' ')}\n${track.location}\n`;
}

/**
 * Extended M3U in UTF-8 ('.m3u8'): '#EXTINF:<whole seconds or -1>,<artist> - <title>' and the
 * path of each track of one list (see lists.ts). Tracks without a location are left out.
 */
function writeM3u8(input: DjWriteInput, options?: DjWriteOptions): string {
  const list = pickList(input, options, 'm3u8');
  let text = m3u8Head(list.name);
  for (const { track } of list.rows) text += m3u8Track(track);
  return text;
}

export const m3u8Writer: DjFormatWriter = {
  format: 'm3u8',
  write: writeM3u8,
  stream: (options = {}) => ({
    writes: (track) => track.location !== undefined,
    head: () => m3u8Head(options.listName ?? ALL_TRACKS),
    track: m3u8Track,
    tail: () => [],
  }),
};

const VIRTUALDJ_HEAD = '#EXTM3U\r\n';

/** A track's two lines in VirtualDJ's M3U; none without a location. */
function virtualDjTrack(track: DjTrack, playedAt: string | undefined, timeZone: string): string {
  if (track.location === undefined) return '';
  let tags = '';
  if (playedAt !== undefined) {
    const ms = Date.parse(playedAt);
    const wall = wallTimeAt(ms, timeZone);
    tags += `<time>${pad2(wall.hour)}:${pad2(wall.minute)}</time><lastplaytime>${Math.floor(ms / 1000)}</lastplaytime>`;
  }
  tags += `<artist>${escapeEntities(track.artist)}</artist><title>${escapeEntities(track.title)}</title>`;
  if (track.durationSeconds !== undefined)
    tags += `<songlength>${formatNumber(track.durationSeconds, 6)}</songlength>`;
  return `#EXTVDJ:${tags.replace(/[\r\n]+/g, ' ')}\r\n${track.location}\r\n`;
}

/**
 * The VirtualDJ form: an '#EXTVDJ:' line before each path, with `<time>` (local clock in
 * `options.timeZone`) and `<lastplaytime>` for entries that have a play time, CRLF line ends as
 * VirtualDJ on Windows writes them.
 */
function writeVirtualDjM3u(input: DjWriteInput, options: DjWriteOptions = {}): string {
  const timeZone = zoneOption(options.timeZone);
  const list = pickList(input, options, 'virtualdj-m3u');
  let text = VIRTUALDJ_HEAD;
  for (const { track, playedAt } of list.rows) text += virtualDjTrack(track, playedAt, timeZone);
  return text;
}

export const virtualDjM3uWriter: DjFormatWriter = {
  format: 'virtualdj-m3u',
  write: writeVirtualDjM3u,
  stream: (options = {}) => {
    const timeZone = zoneOption(options.timeZone);
    return {
      writes: (track) => track.location !== undefined,
      head: () => VIRTUALDJ_HEAD,
      track: (track) => virtualDjTrack(track, undefined, timeZone),
      tail: () => [],
    };
  },
};
