/**
 * VirtualDJ 'database.xml' (VirtualDJ 8 and 2021+; one per drive), per the VirtualDJ wiki page
 * "VDJ_database" (docs/interop.md links it):
 *
 *   <VirtualDJ_Database Version="8.1">
 *     <Song FilePath="D:\Music\a.mp3" FileSize>
 *       <Tags Author Title Genre Album Year Bpm Key Stars (0-5) .../>
 *       <Infos SongLength (seconds) FirstSeen (Unix time) LastPlay PlayCount .../>
 *       <Scan Bpm Key .../>  <Poi .../>
 *     </Song>
 *   </VirtualDJ_Database>
 *
 * BPM is stored as the time between two beats in seconds (0.5 = 120 BPM), in Scan (the analysis)
 * and in Tags (a BPM set by hand, which wins). A value above 10 can only be a BPM already and is
 * taken as one. The database has no playlists and no history: those live in 'History/*.m3u'
 * (see m3u.ts) and 'Playlists/' or 'My Lists/'.
 */
import { wallTimeAt } from '../../zoned-time.js';
import { dateOf, zoneOption } from './time.js';
import type { DjFormatReader, DjLibrary, DjReadOptions, DjTrack } from './types.js';
import { compactTrack, count, positive, stars, text } from './values.js';
import { attr, child, children, parseXmlRoot } from './xml.js';

const FORMAT = 'virtualdj-database';

/** BPM from VirtualDJ's seconds per beat. */
function bpmOf(value: string | undefined): number | undefined {
  const stored = positive(value);
  if (stored === undefined) return undefined;
  const bpm = stored > 10 ? stored : 60 / stored;
  return Number(bpm.toFixed(3));
}

function read(input: Buffer | string, options: DjReadOptions = {}): DjLibrary {
  const root = parseXmlRoot(input, 'VirtualDJ_Database', FORMAT);
  const timeZone = zoneOption(options.timeZone);
  const tracks: DjTrack[] = [];
  const seen = new Set<string>();
  for (const song of children(root, 'Song')) {
    const path = text(attr(song, 'FilePath'));
    if (path === undefined || seen.has(path)) continue;
    seen.add(path);
    const tags = child(song, 'Tags');
    const infos = child(song, 'Infos');
    const scan = child(song, 'Scan');
    const firstSeen = positive(attr(infos, 'FirstSeen'));
    tracks.push(
      compactTrack({
        key: path,
        title: attr(tags, 'Title') ?? '',
        artist: attr(tags, 'Author') ?? '',
        album: text(attr(tags, 'Album')),
        genre: text(attr(tags, 'Genre')),
        location: path,
        durationSeconds: positive(attr(infos, 'SongLength')),
        bpm: bpmOf(attr(tags, 'Bpm')) ?? bpmOf(attr(scan, 'Bpm')),
        musicalKey: text(attr(tags, 'Key')) ?? text(attr(scan, 'Key')),
        playCount: count(attr(infos, 'PlayCount')),
        dateAdded: firstSeen === undefined ? undefined : dateOf(wallTimeAt(firstSeen * 1000, timeZone)),
        rating: stars(attr(tags, 'Stars')),
      }),
    );
  }
  return { format: FORMAT, tracks, playlists: [], history: [] };
}

export const virtualDjDatabaseReader: DjFormatReader = { format: FORMAT, read };
