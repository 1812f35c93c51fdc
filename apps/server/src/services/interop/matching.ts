import type { PathMapping, TrackMatchKind } from '@wcs/contract';
import { sql } from 'drizzle-orm';
import { PITCH_NAMES } from '../../audio/analysis/key.js';
import type { Db } from '../../db/client.js';
import { songs } from '../../db/schema.js';
import { traktorKeyIndex } from '../../providers/dj-software/keys.js';
import { songSearchKey } from '../../text.js';
import { mapGenre } from '../library/genre-map.js';
import { sha256OfFile, UNKNOWN_ARTIST } from '../library/library-import.js';
import { sourcesOf } from '../metadata/sources.js';
import {
  FINGERPRINT_MATCH_LIMIT,
  type FileIdentifier,
  type FingerprintOutcome,
} from './fingerprint-match.js';
import { libraryFileChecker, mapLocation } from './path-mapping.js';
import { songNameKey, splitArtistFromTitle } from './song-names.js';
import type { SourceTrack } from './source.js';

/**
 * Each track of a DJ program's file matched to a song of the library (docs/interop.md,
 * "Matching"), in this order:
 *
 * 1. **path**: the track's location, through the path mappings, is a song's file path (without
 *    regard to case when the location was written on Windows);
 * 2. **content_hash**: the mapped file exists on this server, inside the library roots, and its
 *    sha256 (computed as the library import does) is a song's content hash: the file moved;
 * 3. **name**: the normalised title and main artist (song-names.ts) are a song's;
 * 4. **fingerprint**: the mapped file exists inside the library roots and a stretch of it is
 *    recognised as a song of the index (fingerprint-match.ts), up to FINGERPRINT_MATCH_LIMIT files
 *    an import;
 * 5. otherwise a **new_song** without a file, so that it reaches the download queue once played
 *    (or **unmatched** when the import makes no song for it).
 *
 * The BPM and key of the file fill a matched song's empty values only: the analyser's values are
 * never overwritten.
 */

export interface MatchOptions {
  pathMappings: readonly PathMapping[];
  libraryRoots: readonly string[];
  /** Which unmatched tracks become songs: all, those whose key is in `historyKeys`, or none. */
  newSongs: 'all' | 'history' | 'none';
  historyKeys: ReadonlySet<string>;
  /** Listens to reachable files that matched nothing else; without it rule 4 is skipped. */
  identify?: FileIdentifier;
  /**
   * What reading files found (hashes, fingerprints), by real path: an import matches twice (once
   * before its transaction, to listen outside it, then inside), and reads each file once.
   */
  fileCache?: FileCache;
}

export interface FileCache {
  hashes: Map<string, string | null>;
  fingerprints: Map<string, FingerprintOutcome>;
}

export const newFileCache = (): FileCache => ({ hashes: new Map(), fingerprints: new Map() });

export interface NewSong {
  title: string;
  artist: string;
  album: string | null;
  genre: ReturnType<typeof mapGenre>;
  bpm: number | null;
  musicalKey: string | null;
  durationMs: number | null;
}

export interface TrackMatch {
  track: SourceTrack;
  kind: TrackMatchKind;
  /** The song matched; null for a new song (until created) and for an unmatched track. */
  songId: number | null;
  /** Index into `MatchPlan.newSongs` of the song this track becomes. */
  newSong?: number;
}

export interface MatchPlan {
  /** One per track, in the order of the file. */
  matches: TrackMatch[];
  byKey: Map<string, TrackMatch>;
  newSongs: NewSong[];
  /** Values to write into matched songs whose BPM or key is empty. */
  fills: Map<number, { bpm?: number; musicalKey?: string }>;
  warnings: string[];
}

/** A key as the library stores it ('F# minor', 'C major'), from any notation a DJ program writes. */
export function standardKey(written: string | undefined): string | null {
  if (!written) return null;
  const index = traktorKeyIndex(written);
  if (index === null) return null;
  return `${PITCH_NAMES[index % 12]} ${index < 12 ? 'major' : 'minor'}`;
}

/** Text PostgreSQL can store: no NUL, no unpaired surrogate; trimmed. */
export function storableText(text: string): string {
  return text
    .replaceAll('\u0000', '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .trim();
}

const plausibleBpm = (bpm: number | undefined) =>
  bpm !== undefined && Number.isFinite(bpm) && bpm >= 20 && bpm <= 400 ? Math.round(bpm * 100) / 100 : null;

interface LibrarySong {
  id: number;
  bpm: number | null;
  musicalKey: string | null;
  hasFile: boolean;
}

/** The library as matching needs it, read once: 100,000 songs take a few megabytes. */
async function loadLibrary(db: Db) {
  const rows = await db
    .select({
      id: songs.id,
      title: songs.title,
      artist: songs.artist,
      filePath: songs.filePath,
      filePresent: songs.filePresent,
      contentHash: songs.contentHash,
      bpm: songs.bpm,
      musicalKey: songs.musicalKey,
    })
    .from(songs)
    .orderBy(songs.id);
  const byId = new Map<number, LibrarySong>();
  const byPath = new Map<string, number>();
  const byLowerPath = new Map<string, number | null>();
  const byHash = new Map<string, number>();
  const byName = new Map<string, number>();
  for (const row of rows) {
    byId.set(row.id, { id: row.id, bpm: row.bpm, musicalKey: row.musicalKey, hasFile: row.filePresent });
    if (row.filePath) {
      byPath.set(row.filePath, row.id);
      const lower = row.filePath.toLowerCase();
      // Two files differing only in case: no case-blind match for either.
      byLowerPath.set(lower, byLowerPath.has(lower) ? null : row.id);
    }
    if (row.contentHash) byHash.set(row.contentHash, row.id);
    const nameKey = songNameKey(row.title, row.artist);
    if (nameKey) {
      const known = byName.get(nameKey);
      // Several songs of one name: the one with a file, else the oldest.
      if (known === undefined || (!byId.get(known)!.hasFile && row.filePresent)) byName.set(nameKey, row.id);
    }
  }
  return { byId, byPath, byLowerPath, byHash, byName };
}

/** Matches every track (nothing is written: `applyMatches` does that). */
export async function matchTracks(
  db: Db,
  tracks: readonly SourceTrack[],
  options: MatchOptions,
): Promise<MatchPlan> {
  const library = await loadLibrary(db);
  const insideRoots = libraryFileChecker(options.libraryRoots);
  const plan: MatchPlan = { matches: [], byKey: new Map(), newSongs: [], fills: new Map(), warnings: [] };
  const newSongByName = new Map<string, number>();
  const cache = options.fileCache ?? newFileCache();
  let outsideRoots = 0;
  let listened = 0;
  let notListened = 0;
  let undecodable = 0;

  /** Rules 1 and 2; `real` is the file on this server when it exists inside the roots. */
  const matchByFile = async (
    location: string | undefined,
  ): Promise<{ found: [TrackMatchKind, number] | null; real: string | null }> => {
    if (!location) return { found: null, real: null };
    const mapped = mapLocation(location, options.pathMappings);
    const exact = library.byPath.get(mapped.path);
    if (exact !== undefined) return { found: ['path', exact], real: null };
    if (mapped.caseInsensitive) {
      const blind = library.byLowerPath.get(mapped.path.toLowerCase());
      if (blind !== undefined && blind !== null) return { found: ['path', blind], real: null };
    }
    const real = await insideRoots(mapped.path);
    if (!real) {
      if (mapped.path.startsWith('/')) outsideRoots += 1;
      return { found: null, real: null };
    }
    let hash = cache.hashes.get(real);
    if (hash === undefined) {
      hash = await sha256OfFile(real).catch(() => null);
      cache.hashes.set(real, hash);
    }
    const byHash = hash ? library.byHash.get(hash) : undefined;
    return { found: byHash === undefined ? null : ['content_hash', byHash], real };
  };

  /** Rule 4, within the limit of files listened to per import. */
  const matchByFingerprint = async (real: string): Promise<[TrackMatchKind, number] | null> => {
    if (!options.identify) return null;
    let outcome = cache.fingerprints.get(real);
    if (outcome === undefined) {
      if (listened >= FINGERPRINT_MATCH_LIMIT) {
        notListened += 1;
        return null;
      }
      listened += 1;
      outcome = await options.identify(real);
      cache.fingerprints.set(real, outcome);
    }
    if (outcome.kind === 'undecodable') undecodable += 1;
    // A song deleted since the file was listened to (between the two passes) is no match.
    return outcome.kind === 'found' && library.byId.has(outcome.songId)
      ? ['fingerprint', outcome.songId]
      : null;
  };

  for (const track of tracks) {
    const named = splitArtistFromTitle(storableText(track.title), storableText(track.artist));
    const nameKey = songNameKey(named.title, named.artist);
    const byFile = await matchByFile(track.location);
    let found = byFile.found;
    if (!found && nameKey) {
      const byName = library.byName.get(nameKey);
      if (byName !== undefined) found = ['name', byName];
    }
    if (!found && byFile.real) found = await matchByFingerprint(byFile.real);

    let match: TrackMatch;
    if (found) {
      const [kind, songId] = found;
      match = { track, kind, songId };
      const song = library.byId.get(songId)!;
      const fill = plan.fills.get(songId) ?? {};
      const bpm = plausibleBpm(track.bpm);
      if (song.bpm === null && fill.bpm === undefined && bpm !== null) fill.bpm = bpm;
      const key = standardKey(track.musicalKey);
      if (song.musicalKey === null && fill.musicalKey === undefined && key !== null) fill.musicalKey = key;
      if (fill.bpm !== undefined || fill.musicalKey !== undefined) plan.fills.set(songId, fill);
    } else if (
      options.newSongs === 'all' ||
      (options.newSongs === 'history' && options.historyKeys.has(track.key))
    ) {
      const title = named.title || (track.location ? titleOfLocation(track.location) : '');
      const artist = named.artist || UNKNOWN_ARTIST;
      const dedupe = nameKey ?? `${songSearchKey(title, artist)}\u0000${track.location ?? track.key}`;
      let index = newSongByName.get(dedupe);
      if (index === undefined && title !== '') {
        index = plan.newSongs.length;
        newSongByName.set(dedupe, index);
        plan.newSongs.push({
          title,
          artist,
          album: track.album ? storableText(track.album) || null : null,
          genre: mapGenre(track.genre ?? null),
          bpm: plausibleBpm(track.bpm),
          musicalKey: standardKey(track.musicalKey),
          durationMs:
            track.durationSeconds && track.durationSeconds > 0
              ? Math.round(track.durationSeconds * 1000)
              : null,
        });
      }
      match =
        index === undefined
          ? { track, kind: 'unmatched', songId: null }
          : { track, kind: 'new_song', songId: null, newSong: index };
    } else {
      match = { track, kind: 'unmatched', songId: null };
    }
    plan.matches.push(match);
    plan.byKey.set(track.key, match);
  }
  if (
    outsideRoots > 0 &&
    plan.matches.some((match) => match.kind === 'new_song' || match.kind === 'unmatched')
  ) {
    plan.warnings.push(
      `${outsideRoots} track locations are outside the library roots on this server: add a path mapping (the DJ computer's music folder to the server's) to match them by file`,
    );
  }
  if (notListened > 0) {
    plan.warnings.push(
      `${notListened} reachable files matched no song by path, content or name and were not listened to (at most ${FINGERPRINT_MATCH_LIMIT} an import): run the library import on their folder, then import this file again`,
    );
  }
  if (undecodable > 0) {
    plan.warnings.push(`${undecodable} reachable files could not be decoded to be listened to`);
  }
  return plan;
}

function titleOfLocation(location: string): string {
  const base = location.split(/[/\\]/).pop() ?? location;
  const dot = base.lastIndexOf('.');
  return storableText(dot > 0 ? base.slice(0, dot) : base);
}

/** A transaction or the database: both run the same statements. */
type Writer = Pick<Db, 'insert' | 'execute'>;

const INSERT_BATCH = 1000;

/**
 * Writes a plan: new songs (without a file) and the empty BPM and key values filled. Returns how
 * many songs got a BPM and a key. Call it inside the import's transaction.
 */
export async function applyMatches(
  tx: Writer,
  plan: MatchPlan,
): Promise<{ bpmFilled: number; keyFilled: number }> {
  const ids: number[] = [];
  for (let start = 0; start < plan.newSongs.length; start += INSERT_BATCH) {
    const batch = plan.newSongs.slice(start, start + INSERT_BATCH);
    const inserted = await tx
      .insert(songs)
      .values(
        batch.map((song) => ({
          title: song.title,
          artist: song.artist,
          album: song.album,
          genre: song.genre,
          bpm: song.bpm,
          musicalKey: song.musicalKey,
          durationMs: song.durationMs,
          searchKey: songSearchKey(song.title, song.artist),
          fieldSources: sourcesOf(
            {
              title: song.title,
              artist: song.artist,
              album: song.album,
              genre: song.genre,
              bpm: song.bpm,
              key: song.musicalKey,
              duration_ms: song.durationMs,
            },
            'dj_software',
          ),
        })),
      )
      .returning({ id: songs.id });
    ids.push(...inserted.map((row) => row.id));
  }
  for (const match of plan.matches) {
    if (match.newSong !== undefined) match.songId = ids[match.newSong] ?? null;
  }

  const fills = [...plan.fills.entries()];
  const bpmRows = fills
    .filter(([, fill]) => fill.bpm !== undefined)
    .map(([id, fill]) => ({ id, bpm: fill.bpm }));
  const keyRows = fills
    .filter(([, fill]) => fill.musicalKey !== undefined)
    .map(([id, fill]) => ({ id, key: fill.musicalKey }));
  // "is null" in the statement itself: an analysis that finished meanwhile keeps its value.
  const bpmFilled = bpmRows.length
    ? await tx.execute(sql`update songs s set bpm = v.bpm, updated_at = now(),
          field_sources = s.field_sources || '{"bpm":"dj_software"}'::jsonb
        from json_to_recordset(${JSON.stringify(bpmRows)}::json) as v(id integer, bpm real)
        where s.id = v.id and s.bpm is null`)
    : { rowCount: 0 };
  const keyFilled = keyRows.length
    ? await tx.execute(sql`update songs s set key = v.key, updated_at = now(),
          field_sources = s.field_sources || '{"key":"dj_software"}'::jsonb
        from json_to_recordset(${JSON.stringify(keyRows)}::json) as v(id integer, key text)
        where s.id = v.id and s.key is null`)
    : { rowCount: 0 };
  return { bpmFilled: bpmFilled.rowCount ?? 0, keyFilled: keyFilled.rowCount ?? 0 };
}
