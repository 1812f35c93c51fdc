/**
 * Traktor NML: the collection ('collection.nml') and the history files
 * ('History/history_2024y05m03d_21h02m10s.nml'), which share one layout (NML VERSION 19, Traktor
 * Pro 3 and 4):
 *
 *   <NML VERSION="19"><HEAD COMPANY PROGRAM/>
 *     <COLLECTION ENTRIES><ENTRY TITLE ARTIST>
 *       <LOCATION DIR="/:Users/:dj/:Music/:" FILE VOLUME VOLUMEID/>   DIR uses '/:' as separator
 *       <ALBUM TITLE/> <INFO GENRE KEY PLAYCOUNT PLAYTIME PLAYTIME_FLOAT RANKING (0-255)
 *       IMPORT_DATE="2024/5/3"/> <TEMPO BPM/> <MUSICAL_KEY VALUE (0-23)/></ENTRY></COLLECTION>
 *     <PLAYLISTS><NODE TYPE="FOLDER" NAME="$ROOT"><SUBNODES><NODE TYPE="FOLDER"|"PLAYLIST" NAME>
 *       <PLAYLIST TYPE="LIST"|"PROTOCOL"><ENTRY><PRIMARYKEY TYPE="TRACK" KEY="<VOLUME><DIR><FILE>"/>
 *       <EXTENDEDDATA EXTENDEDTYPE="HistoryData" STARTDATE STARTTIME PLAYEDPUBLIC DECK DURATION/>
 *   </NML>
 *
 * A history file holds the played tracks in its COLLECTION and one playlist 'HISTORY' of type
 * PROTOCOL whose entries carry EXTENDEDDATA: STARTDATE packs the local date as
 * (year << 16) | (month << 8) | day and STARTTIME is the local time in seconds of the day.
 * Any playlist whose entries carry that data is read as a history session.
 */
import { createHash } from 'node:crypto';
import { wallTimeAt } from '../../zoned-time.js';
import { keyNameOfTraktorIndex, traktorKeyIndex } from './keys.js';
import { fileStem } from './paths.js';
import { dateOf, isoOfWallTime, validDate, zoneOption } from './time.js';
import type {
  DjFormatReader,
  DjFormatWriter,
  DjHistoryEntry,
  DjHistorySession,
  DjLibrary,
  DjPlaylist,
  DjReadOptions,
  DjStreamWriter,
  DjTrack,
  DjWriteInput,
  DjWriteOptions,
} from './types.js';
import {
  compactTrack,
  count,
  durationSeconds,
  isoDate,
  number,
  positive,
  starsFrom255,
  text,
} from './values.js';
import {
  attr,
  attrs,
  buildXml,
  child,
  children,
  parseXmlRoot,
  STREAM_MARK,
  splitAtStreamMark,
  streamPartMark,
  streamParts,
  type XmlElement,
  xmlFragment,
} from './xml.js';

const FORMAT = 'traktor-nml';
const DEFAULT_ROOT_VOLUME = 'Macintosh HD';

interface TraktorLocation {
  volume: string;
  dir: string;
  file: string;
}

/**
 * The absolute path of a LOCATION: a Windows drive volume ('C:') gives 'C:/Music/a.mp3'; the
 * Mac start-up volume gives '/Users/...'; any other volume is mounted under '/Volumes/'.
 */
function pathOfLocation(location: TraktorLocation, rootVolume: string): string {
  const folders = location.dir.split('/:').filter((segment) => segment !== '');
  const inside = [...folders, location.file].join('/');
  if (/^[A-Za-z]:$/.test(location.volume)) return `${location.volume}/${inside}`;
  if (location.volume === rootVolume || location.volume === '') return `/${inside}`;
  return `/Volumes/${location.volume}/${inside}`;
}

/** The inverse of `pathOfLocation`; null for a path that is not absolute. */
function locationOfPath(path: string, rootVolume: string): TraktorLocation | null {
  const slashed = path.replace(/\\/g, '/');
  let volume: string;
  let inside: string;
  const drive = /^([A-Za-z]:)\/(.*)$/.exec(slashed);
  const mounted = /^\/Volumes\/([^/]+)\/(.*)$/.exec(slashed);
  if (drive) [volume, inside] = [drive[1]!, drive[2]!];
  else if (mounted) [volume, inside] = [mounted[1]!, mounted[2]!];
  else if (slashed.startsWith('/')) [volume, inside] = [rootVolume, slashed.slice(1)];
  else return null;
  const segments = inside.split('/').filter((segment) => segment !== '');
  const file = segments.pop();
  if (file === undefined) return null;
  return { volume, dir: `/:${segments.map((segment) => `${segment}/:`).join('')}`, file };
}

function primaryKey(location: TraktorLocation): string {
  return `${location.volume}${location.dir}${location.file}`;
}

function readTrack(entry: XmlElement, rootVolume: string): DjTrack | null {
  const locationElement = child(entry, 'LOCATION');
  const file = attr(locationElement, 'FILE');
  if (file === undefined || file === '') return null;
  const location = {
    volume: attr(locationElement, 'VOLUME') ?? '',
    dir: attr(locationElement, 'DIR') ?? '/:',
    file,
  };
  const info = child(entry, 'INFO');
  const keyIndex = number(attr(child(entry, 'MUSICAL_KEY'), 'VALUE'));
  return compactTrack({
    key: primaryKey(location),
    title: attr(entry, 'TITLE') ?? '',
    artist: attr(entry, 'ARTIST') ?? '',
    album: text(attr(child(entry, 'ALBUM'), 'TITLE')),
    genre: text(attr(info, 'GENRE')),
    location: pathOfLocation(location, rootVolume),
    durationSeconds: positive(attr(info, 'PLAYTIME_FLOAT')) ?? durationSeconds(attr(info, 'PLAYTIME')),
    bpm: positive(attr(child(entry, 'TEMPO'), 'BPM')),
    musicalKey:
      text(attr(info, 'KEY')) ??
      (keyIndex === undefined ? undefined : (keyNameOfTraktorIndex(keyIndex) ?? undefined)),
    playCount: count(attr(info, 'PLAYCOUNT')),
    dateAdded: isoDate(attr(info, 'IMPORT_DATE')),
    rating: starsFrom255(attr(info, 'RANKING')),
  });
}

/** The local date of a STARTDATE number, or null for 0 and impossible dates. */
function decodeStartDate(value: number): { year: number; month: number; day: number } | null {
  return validDate(Math.floor(value / 65536), Math.floor(value / 256) % 256, value % 256);
}

/** The date in a history file name: 'history_2024y05m03d_21h02m10s.nml'. */
function dateOfHistoryFileName(fileName: string | undefined): string | undefined {
  const match = fileName === undefined ? null : /(\d{4})y(\d{1,2})m(\d{1,2})d/.exec(fileName);
  return match ? isoDate(`${match[1]}-${match[2]}-${match[3]}`) : undefined;
}

function read(input: Buffer | string, options: DjReadOptions = {}): DjLibrary {
  const root = parseXmlRoot(input, 'NML', FORMAT);
  const rootVolume = options.rootVolume ?? DEFAULT_ROOT_VOLUME;
  const timeZone = zoneOption(options.timeZone);
  const tracks: DjTrack[] = [];
  const keys = new Set<string>();
  for (const entry of children(child(root, 'COLLECTION'), 'ENTRY')) {
    const track = readTrack(entry, rootVolume);
    if (!track || keys.has(track.key)) continue;
    keys.add(track.key);
    tracks.push(track);
  }

  const playlists: DjPlaylist[] = [];
  const history: DjHistorySession[] = [];
  const readList = (node: XmlElement, path: string[]): void => {
    const name = attr(node, 'NAME') ?? '';
    const list = child(node, 'PLAYLIST');
    const entries = children(list, 'ENTRY');
    const isHistory =
      attr(list, 'TYPE') === 'PROTOCOL' ||
      entries.some((entry) => attr(child(entry, 'EXTENDEDDATA'), 'EXTENDEDTYPE') === 'HistoryData');
    const trackKeyOf = (entry: XmlElement) => {
      const key = attr(child(entry, 'PRIMARYKEY'), 'KEY');
      return key !== undefined && keys.has(key) ? key : undefined;
    };
    if (!isHistory) {
      playlists.push({ name, path, trackKeys: entries.flatMap((entry) => trackKeyOf(entry) ?? []) });
      return;
    }
    const played: DjHistoryEntry[] = [];
    let firstDate: string | undefined;
    for (const entry of entries) {
      const trackKey = trackKeyOf(entry);
      const data = child(entry, 'EXTENDEDDATA');
      if (trackKey === undefined) continue;
      if (attr(data, 'PLAYEDPUBLIC') === '0' && !options.includeUnplayed) continue;
      const day = decodeStartDate(number(attr(data, 'STARTDATE')) ?? 0);
      const seconds = number(attr(data, 'STARTTIME'));
      if (day && seconds !== undefined && seconds >= 0 && seconds < 86_400) {
        const wall = {
          ...day,
          hour: Math.floor(seconds / 3600),
          minute: Math.floor(seconds / 60) % 60,
          second: Math.floor(seconds % 60),
        };
        firstDate ??= dateOf(day);
        played.push({ trackKey, playedAt: isoOfWallTime(wall, timeZone) });
      } else {
        played.push({ trackKey });
      }
    }
    // The file name names a history file's session better than its one playlist, 'HISTORY'.
    const sessionName =
      name === 'HISTORY' && options.fileName !== undefined ? fileStem(options.fileName) : name;
    const date = firstDate ?? dateOfHistoryFileName(options.fileName);
    const startedAt = played.map((entry) => entry.playedAt).find((playedAt) => playedAt !== undefined);
    history.push({
      name: sessionName,
      ...(startedAt !== undefined ? { startedAt } : {}),
      ...(date !== undefined ? { date } : {}),
      entries: played,
    });
  };
  const walk = (folder: XmlElement, path: string[]): void => {
    for (const node of children(child(folder, 'SUBNODES'), 'NODE')) {
      const type = attr(node, 'TYPE');
      if (type === 'FOLDER') walk(node, [...path, attr(node, 'NAME') ?? '']);
      else if (type === 'PLAYLIST') readList(node, path);
    }
  };
  for (const top of children(child(root, 'PLAYLISTS'), 'NODE')) {
    // The top node is the folder '$ROOT', which is not part of any playlist's path.
    if (attr(top, 'TYPE') === 'FOLDER') walk(top, []);
    else if (attr(top, 'TYPE') === 'PLAYLIST') readList(top, []);
  }

  return { format: FORMAT, tracks, playlists, history };
}

export const traktorNmlReader: DjFormatReader = { format: FORMAT, read };

/** A stable 32-hex-digit UUID for a written playlist, so the same library writes the same file. */
function playlistUuid(path: string[], name: string): string {
  return createHash('md5')
    .update(JSON.stringify([...path, name]))
    .digest('hex');
}

/** A playlist's NODE: a list of the DJ's, or a history session (PROTOCOL), with its entries. */
function playlistNode(
  name: string,
  type: 'LIST' | 'PROTOCOL',
  uuid: string,
  entries: XmlElement[],
): XmlElement {
  return {
    ...attrs({ TYPE: 'PLAYLIST', NAME: name }),
    PLAYLIST: [{ ...attrs({ ENTRIES: entries.length, TYPE: type, UUID: uuid }), ENTRY: entries }],
  };
}

function entryElement(track: DjTrack, location: TraktorLocation): XmlElement {
  const keyIndex = track.musicalKey === undefined ? null : traktorKeyIndex(track.musicalKey);
  const added = isoDate(track.dateAdded);
  return {
    ...attrs({ TITLE: track.title, ARTIST: track.artist }),
    LOCATION: [
      attrs({ DIR: location.dir, FILE: location.file, VOLUME: location.volume, VOLUMEID: location.volume }),
    ],
    ...(track.album !== undefined ? { ALBUM: [attrs({ TITLE: track.album })] } : {}),
    INFO: [
      attrs({
        GENRE: track.genre,
        KEY: track.musicalKey,
        PLAYCOUNT: track.playCount,
        PLAYTIME: track.durationSeconds === undefined ? undefined : Math.round(track.durationSeconds),
        PLAYTIME_FLOAT: track.durationSeconds === undefined ? undefined : track.durationSeconds.toFixed(6),
        RANKING: track.rating === undefined ? undefined : Math.round(track.rating) * 51,
        IMPORT_DATE: added === undefined ? undefined : added.split('-').map(Number).join('/'),
      }),
    ],
    ...(track.bpm !== undefined
      ? { TEMPO: [attrs({ BPM: track.bpm.toFixed(6), BPM_QUALITY: '100.000000' })] }
      : {}),
    ...(keyIndex !== null ? { MUSICAL_KEY: [attrs({ VALUE: keyIndex })] } : {}),
  };
}

interface Folder {
  folders: Map<string, Folder>;
  /** Folders, and playlists whose NODE is made when it is written. */
  nodes: Array<{ folder: string } | { node: () => XmlElement }>;
}

function folderNode(
  name: string,
  folder: Folder,
  playlistNode: (node: () => XmlElement) => XmlElement = (node) => node(),
): XmlElement {
  const nodes = folder.nodes.map((item) =>
    'folder' in item
      ? folderNode(item.folder, folder.folders.get(item.folder)!, playlistNode)
      : playlistNode(item.node),
  );
  return {
    ...attrs({ TYPE: 'FOLDER', NAME: name }),
    SUBNODES: [{ ...attrs({ COUNT: nodes.length }), NODE: nodes }],
  };
}

/** A track's location in NML, or null when Traktor could not find it by it (not absolute). */
function locationOf(track: DjTrack, rootVolume: string): TraktorLocation | null {
  return track.location === undefined ? null : locationOfPath(track.location, rootVolume);
}

/**
 * The playlists in their folders and each history session as a PROTOCOL playlist; `keyOf` gives
 * the primary key of a track written in the collection.
 */
function playlistsFolder(input: DjWriteInput, keyOf: Map<string, string>, timeZone: string): Folder {
  const primaryKeyElement = (key: string) => attrs({ TYPE: 'TRACK', KEY: key });
  const root: Folder = { folders: new Map(), nodes: [] };
  for (const playlist of input.playlists ?? []) {
    let folder = root;
    for (const name of playlist.path) {
      let next = folder.folders.get(name);
      if (!next) {
        next = { folders: new Map(), nodes: [] };
        folder.folders.set(name, next);
        folder.nodes.push({ folder: name });
      }
      folder = next;
    }
    folder.nodes.push({
      node: () => {
        const keys = playlist.trackKeys.flatMap((key) => keyOf.get(key) ?? []);
        return playlistNode(
          playlist.name,
          'LIST',
          playlistUuid(playlist.path, playlist.name),
          keys.map((key) => ({ PRIMARYKEY: [primaryKeyElement(key)] })),
        );
      },
    });
  }
  for (const session of input.history ?? []) {
    const node = () => {
      const played = session.entries.flatMap((entry) => {
        const key = keyOf.get(entry.trackKey);
        if (key === undefined) return [];
        let startDate = 0;
        let startTime = 0;
        if (entry.playedAt !== undefined) {
          const wall = wallTimeAt(Date.parse(entry.playedAt), timeZone);
          startDate = wall.year * 65536 + wall.month * 256 + wall.day;
          startTime = wall.hour * 3600 + wall.minute * 60 + wall.second;
        }
        const data = attrs({
          EXTENDEDTYPE: 'HistoryData',
          PLAYEDPUBLIC: 1,
          STARTDATE: startDate,
          STARTTIME: startTime,
        });
        return [{ PRIMARYKEY: [primaryKeyElement(key)], EXTENDEDDATA: [data] }];
      });
      return playlistNode(session.name, 'PROTOCOL', playlistUuid(['history'], session.name), played);
    };
    root.nodes.push({ node });
  }
  return root;
}

/**
 * The document: `entries` tracks, the collection's content (its ENTRYs, or a stream mark), the
 * playlists (each one's NODE made by `playlistNode`).
 */
function nmlDocument(
  entries: number,
  collection: XmlElement,
  root: Folder,
  playlistNode?: (node: () => XmlElement) => XmlElement,
): string {
  return buildXml(
    'NML',
    {
      ...attrs({ VERSION: 19 }),
      HEAD: [attrs({ COMPANY: 'www.native-instruments.com', PROGRAM: 'Traktor' })],
      MUSICFOLDERS: [''],
      COLLECTION: [{ ...attrs({ ENTRIES: entries }), ...collection }],
      SETS: [attrs({ ENTRIES: 0 })],
      PLAYLISTS: [{ NODE: [folderNode('$ROOT', root, playlistNode)] }],
    },
    '<?xml version="1.0" encoding="UTF-8" standalone="no" ?>',
  );
}

/**
 * NML of a library: the tracks that have an absolute location (Traktor identifies a track by it),
 * the playlists in their folders, and each history session as a PROTOCOL playlist whose entries
 * carry their start times in the history-file form, in `options.timeZone`.
 */
function write(input: DjWriteInput, options: DjWriteOptions = {}): string {
  const rootVolume = options.rootVolume ?? DEFAULT_ROOT_VOLUME;
  const timeZone = zoneOption(options.timeZone);
  const keyOf = new Map<string, string>();
  const entries: XmlElement[] = [];
  for (const track of input.tracks) {
    const location = locationOf(track, rootVolume);
    if (!location || keyOf.has(track.key)) continue;
    keyOf.set(track.key, primaryKey(location));
    entries.push(entryElement(track, location));
  }
  return nmlDocument(entries.length, { ENTRY: entries }, playlistsFolder(input, keyOf, timeZone));
}

/** The same file a track at a time; its tracks' keys must differ (a library's songs' ids do). */
function stream(options: DjWriteOptions = {}): DjStreamWriter {
  const rootVolume = options.rootVolume ?? DEFAULT_ROOT_VOLUME;
  const timeZone = zoneOption(options.timeZone);
  let count = 0;
  const mark = { [STREAM_MARK]: [''] };
  const empty = (): Folder => ({ folders: new Map(), nodes: [] });
  return {
    writes: (track) => locationOf(track, rootVolume) !== null,
    head(entries) {
      count = entries;
      // No track: the collection is one empty element, written whole by `tail`.
      return count === 0 ? '' : splitAtStreamMark(nmlDocument(count, mark, empty()))[0];
    },
    track(track) {
      const location = locationOf(track, rootVolume);
      return location ? xmlFragment('ENTRY', entryElement(track, location), 2) : '';
    },
    *tail(input) {
      if (count === 0) {
        yield write({ ...input, tracks: [] }, options);
        return;
      }
      const keyOf = new Map<string, string>();
      for (const track of input.tracks) {
        const location = locationOf(track, rootVolume);
        if (location) keyOf.set(track.key, primaryKey(location));
      }
      // Each playlist's NODE is made when its part is taken: the document is built with marks.
      const nodes: Array<() => XmlElement> = [];
      const marked = (node: () => XmlElement) => streamPartMark(nodes.push(node) - 1);
      const root = playlistsFolder(input, keyOf, timeZone);
      const [, after] = splitAtStreamMark(nmlDocument(count, mark, root, marked));
      yield* streamParts(after, 'NODE', (index, depth) => xmlFragment('NODE', nodes[index]!(), depth));
    },
  };
}

export const traktorNmlWriter: DjFormatWriter = { format: FORMAT, write, stream };
