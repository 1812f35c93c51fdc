/**
 * rekordbox XML ("File > Export Collection in xml format"; also the file rekordbox imports through
 * Preferences > Advanced > rekordbox xml). Layout per Pioneer's "rekordbox XML format" list
 * (docs/interop.md links it):
 *
 *   <DJ_PLAYLISTS Version="1.0.0">
 *     <PRODUCT Name Version Company/>
 *     <COLLECTION Entries><TRACK TrackID Name Artist Album Genre TotalTime (whole seconds)
 *       AverageBpm DateAdded (yyyy-mm-dd) PlayCount Rating (0/51/102/153/204/255) Location
 *       (file://localhost/ URL) Tonality>...TEMPO, POSITION_MARK...</TRACK></COLLECTION>
 *     <PLAYLISTS><NODE Type="0" Name="ROOT" Count> folders (Type 0) and playlists (Type 1,
 *       KeyType 0: TRACK Key = TrackID; KeyType 1: Key = Location)</NODE></PLAYLISTS>
 *   </DJ_PLAYLISTS>
 *
 * History: rekordbox exports its history as playlists under a top-level folder 'HISTORY', named
 * like 'HISTORY 2024-05-03'; every playlist under that folder is read as a history session dated
 * by its name, without play times (the XML has none).
 */
import { fileUrlToPath, pathToFileUrl } from './paths.js';
import type {
  DjFormatReader,
  DjFormatWriter,
  DjHistorySession,
  DjLibrary,
  DjPlaylist,
  DjStreamWriter,
  DjTrack,
  DjWriteInput,
} from './types.js';
import { compactTrack, count, durationSeconds, isoDate, positive, starsFrom255, text } from './values.js';
import {
  attr,
  attrs,
  buildXml,
  children,
  parseXmlRoot,
  STREAM_MARK,
  splitAtStreamMark,
  streamPartMark,
  streamParts,
  type XmlElement,
  xmlFragment,
} from './xml.js';

const FORMAT = 'rekordbox-xml';
const HISTORY_FOLDER = 'HISTORY';

function readTrack(element: XmlElement): DjTrack | null {
  const key = text(attr(element, 'TrackID'));
  if (key === undefined) return null;
  const location = text(attr(element, 'Location'));
  return compactTrack({
    key,
    title: attr(element, 'Name') ?? '',
    artist: attr(element, 'Artist') ?? '',
    album: text(attr(element, 'Album')),
    genre: text(attr(element, 'Genre')),
    location: location === undefined ? undefined : fileUrlToPath(location),
    durationSeconds: durationSeconds(attr(element, 'TotalTime')),
    bpm: positive(attr(element, 'AverageBpm')),
    musicalKey: text(attr(element, 'Tonality')),
    playCount: count(attr(element, 'PlayCount')),
    dateAdded: isoDate(attr(element, 'DateAdded')),
    rating: starsFrom255(attr(element, 'Rating')),
  });
}

/** The date in a history playlist's name: 'HISTORY 2024-05-03', 'HISTORY 2024-05-03 (2)'. */
function dateInName(name: string): string | undefined {
  const match = /(\d{4})[-/.](\d{2})[-/.](\d{2})/.exec(name);
  return match ? isoDate(`${match[1]}-${match[2]}-${match[3]}`) : undefined;
}

function read(input: Buffer | string): DjLibrary {
  const root = parseXmlRoot(input, 'DJ_PLAYLISTS', FORMAT);
  const tracks: DjTrack[] = [];
  const keyOfLocation = new Map<string, string>();
  const keys = new Set<string>();
  for (const element of children(children(root, 'COLLECTION')[0], 'TRACK')) {
    const track = readTrack(element);
    if (!track || keys.has(track.key)) continue;
    keys.add(track.key);
    tracks.push(track);
    const location = attr(element, 'Location');
    if (location !== undefined) keyOfLocation.set(location, track.key);
  }

  const playlists: DjPlaylist[] = [];
  const history: DjHistorySession[] = [];
  const trackKeysOf = (node: XmlElement): string[] => {
    const byLocation = attr(node, 'KeyType') === '1';
    const out: string[] = [];
    for (const entry of children(node, 'TRACK')) {
      const raw = attr(entry, 'Key');
      const key = raw === undefined ? undefined : byLocation ? keyOfLocation.get(raw) : raw;
      // A key that names no collection track cannot be resolved; rekordbox skips it too.
      if (key !== undefined && keys.has(key)) out.push(key);
    }
    return out;
  };
  const walk = (node: XmlElement, path: string[], inHistory: boolean): void => {
    for (const child of children(node, 'NODE')) {
      const name = attr(child, 'Name') ?? '';
      if (attr(child, 'Type') === '0') {
        const isHistoryFolder = path.length === 0 && name.toUpperCase() === HISTORY_FOLDER;
        walk(child, [...path, name], inHistory || isHistoryFolder);
      } else if (inHistory) {
        const date = dateInName(name);
        history.push({
          name,
          ...(date !== undefined ? { date } : {}),
          entries: trackKeysOf(child).map((trackKey) => ({ trackKey })),
        });
      } else {
        playlists.push({ name, path, trackKeys: trackKeysOf(child) });
      }
    }
  };
  for (const top of children(children(root, 'PLAYLISTS')[0], 'NODE')) walk(top, [], false);

  return { format: FORMAT, tracks, playlists, history };
}

export const rekordboxXmlReader: DjFormatReader = { format: FORMAT, read };

interface FolderNode {
  folders: Map<string, FolderNode>;
  /** Folders and playlists in the order they were first met. */
  items: Array<{ kind: 'folder'; name: string } | { kind: 'playlist'; name: string; trackIds: string[] }>;
}

function emptyFolder(): FolderNode {
  return { folders: new Map(), items: [] };
}

type PlaylistItem = { name: string; trackIds: string[] };

function folderElement(
  name: string,
  folder: FolderNode,
  playlistNode: (item: PlaylistItem) => XmlElement = (item) => playlistElement(item.name, item.trackIds),
): XmlElement {
  const nodes = folder.items.map((item) =>
    item.kind === 'folder'
      ? folderElement(item.name, folder.folders.get(item.name)!, playlistNode)
      : playlistNode(item),
  );
  return { ...attrs({ Type: 0, Name: name, Count: nodes.length }), NODE: nodes };
}

function playlistElement(name: string, trackIds: string[]): XmlElement {
  return {
    ...attrs({ Name: name, Type: 1, KeyType: 0, Entries: trackIds.length }),
    TRACK: trackIds.map((id) => attrs({ Key: id })),
  };
}

function trackElement(track: DjTrack, id: string | undefined): XmlElement {
  return attrs({
    TrackID: id,
    Name: track.title,
    Artist: track.artist,
    Album: track.album,
    Genre: track.genre,
    TotalTime: track.durationSeconds === undefined ? undefined : Math.round(track.durationSeconds),
    AverageBpm: track.bpm === undefined ? undefined : track.bpm.toFixed(2),
    DateAdded: track.dateAdded,
    PlayCount: track.playCount,
    Rating: track.rating === undefined ? undefined : Math.round(track.rating) * 51,
    Location: pathToFileUrl(track.location!),
    Tonality: track.musicalKey,
  });
}

/** The playlists in their folders and the history under 'HISTORY'; `ids` gives an entry's TrackIDs. */
function playlistsRoot(input: DjWriteInput, ids: (keys: string[]) => string[]): FolderNode {
  const root = emptyFolder();
  for (const playlist of input.playlists ?? []) {
    let folder = root;
    for (const name of playlist.path) {
      let next = folder.folders.get(name);
      if (!next) {
        next = emptyFolder();
        folder.folders.set(name, next);
        folder.items.push({ kind: 'folder', name });
      }
      folder = next;
    }
    folder.items.push({ kind: 'playlist', name: playlist.name, trackIds: ids(playlist.trackKeys) });
  }
  const sessions = input.history ?? [];
  if (sessions.length > 0) {
    const historyFolder = emptyFolder();
    for (const session of sessions) {
      historyFolder.items.push({
        kind: 'playlist',
        name: session.name,
        trackIds: ids(session.entries.map((entry) => entry.trackKey)),
      });
    }
    root.folders.set(HISTORY_FOLDER, historyFolder);
    root.items.push({ kind: 'folder', name: HISTORY_FOLDER });
  }
  return root;
}

/**
 * The document: `entries` tracks, the collection's content (its TRACKs, or a stream mark), the
 * playlists (each one's NODE made by `playlistNode`).
 */
function rekordboxDocument(
  entries: number,
  collection: XmlElement,
  root: FolderNode,
  playlistNode?: (item: PlaylistItem) => XmlElement,
): string {
  return buildXml('DJ_PLAYLISTS', {
    ...attrs({ Version: '1.0.0' }),
    PRODUCT: [attrs({ Name: 'WCS DJ Library', Version: '1.0', Company: 'WCS DJ Library' })],
    COLLECTION: [{ ...attrs({ Entries: entries }), ...collection }],
    PLAYLISTS: [{ NODE: [folderElement('ROOT', root, playlistNode)] }],
  });
}

/**
 * rekordbox XML of a library: the tracks that have a location (rekordbox requires one), the
 * playlists in their folders, and the history sessions as playlists under a 'HISTORY' folder.
 * TrackIDs are kept when they are all whole numbers and renumbered from 1 otherwise.
 */
function write(input: DjWriteInput): string {
  const tracks = input.tracks.filter((track) => track.location !== undefined);
  const numeric = tracks.every((track) => /^[1-9]\d*$/.test(track.key));
  const idOf = new Map(tracks.map((track, index) => [track.key, numeric ? track.key : String(index + 1)]));
  const ids = (keys: string[]) => keys.flatMap((key) => idOf.get(key) ?? []);
  const collection = tracks.map((track) => trackElement(track, idOf.get(track.key)));
  return rekordboxDocument(collection.length, { TRACK: collection }, playlistsRoot(input, ids));
}

/**
 * The same file a track at a time. Its tracks' keys must be whole numbers (song ids), which
 * `write` keeps as TrackIDs: renumbering would need every track first.
 */
function stream(): DjStreamWriter {
  let count = 0;
  const mark = { [STREAM_MARK]: [''] };
  return {
    writes: (track) => track.location !== undefined,
    head(entries) {
      count = entries;
      // No track: the collection is one empty element, written whole by `tail`.
      return count === 0 ? '' : splitAtStreamMark(rekordboxDocument(count, mark, emptyFolder()))[0];
    },
    track(track) {
      if (track.location === undefined) return '';
      if (!/^[1-9]\d*$/.test(track.key)) {
        throw new Error(`rekordbox XML is streamed only for whole-number track keys, not '${track.key}'`);
      }
      return xmlFragment('TRACK', trackElement(track, track.key), 2);
    },
    *tail(input) {
      if (count === 0) {
        yield write({ ...input, tracks: [] });
        return;
      }
      const written = new Set(input.tracks.filter((track) => track.location !== undefined).map((t) => t.key));
      const ids = (keys: string[]) => keys.filter((key) => written.has(key));
      // Each playlist's NODE is made when its part is taken: the document is built with marks.
      const items: PlaylistItem[] = [];
      const marked = (item: PlaylistItem) => streamPartMark(items.push(item) - 1);
      const [, after] = splitAtStreamMark(rekordboxDocument(count, mark, playlistsRoot(input, ids), marked));
      yield* streamParts(after, 'NODE', (index, depth) =>
        xmlFragment('NODE', playlistElement(items[index]!.name, items[index]!.trackIds), depth),
      );
    },
  };
}

export const rekordboxXmlWriter: DjFormatWriter = { format: FORMAT, write, stream };
