import type { InteropOptions, InteropResult, TrackMatchKind } from '@wcs/contract';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { events } from '../../db/schema.js';
import type { JobQueue } from '../../deps.js';
import { badRequest, notFound } from '../errors.js';
import { serverTimeZone } from '../events.js';
import { queueMetadataLookups } from '../metadata/lookup.js';
import { scheduleScoreRecompute } from '../recompute-schedule.js';
import { libraryFileIdentifier } from './fingerprint-match.js';
import { applyHistory, describeSessions, planHistory } from './history-import.js';
import { applyMatches, matchTracks, newFileCache } from './matching.js';
import { formatName, type ImportSource, readServerPath, readSettingsOf, readUpload } from './source.js';

/**
 * Preview and import of a DJ program's file (docs/interop.md, "Importing into the product"): read
 * it (source.ts), match its tracks to songs (matching.ts), plan its history as plays
 * (history-import.ts), and for an import write all of it in one transaction, then ask for a score
 * recompute as recognition does. A preview runs the same steps and writes nothing.
 */

export interface InteropDeps {
  db: Db;
  config: Pick<Config, 'libraryRoots' | 'maxUploadBytes' | 'ffmpegPath'> & Partial<Pick<Config, 'metadata'>>;
  /** Where the score recompute is asked for after an import; without it the caller asks. */
  jobs?: Pick<JobQueue, 'send'>;
}

/** What to read: an uploaded file, or a file or folder on the server (checked against the library roots). */
export type InteropInput =
  | { kind: 'upload'; bytes: Buffer; fileName: string }
  | { kind: 'path'; path: string }
  /** The command line: any file or folder the user names, as `wcs library import` takes any folder. */
  | { kind: 'local'; path: string };

/** Any fixed number: imports take turns on this transaction-level advisory lock. */
const IMPORT_LOCK_KEY = 0x5743_5344_4a49;

async function eventOf(db: Db, id: number) {
  const [row] = await db
    .select({ id: events.id, name: events.name, timezone: events.timezone })
    .from(events)
    .where(eq(events.id, id));
  if (!row) throw notFound('Event', id);
  return row;
}

async function readInput(deps: InteropDeps, input: InteropInput, options: InteropOptions, timeZone: string) {
  const settings = readSettingsOf(options, timeZone);
  if (input.kind === 'upload') return readUpload(input.bytes, input.fileName, settings);
  // The command line may read anything its user can: the folder itself is its root.
  const roots = input.kind === 'local' ? ['/'] : deps.config.libraryRoots;
  return readServerPath(input.path, roots, settings, deps.config.maxUploadBytes);
}

/**
 * Reads `input` and says what importing it would add (`dryRun`), or adds it. The result counts
 * tracks, matches, new songs, sessions and plays, and lists each session and track.
 */
export async function runInterop(
  deps: InteropDeps,
  input: InteropInput,
  options: InteropOptions,
  dryRun: boolean,
): Promise<InteropResult> {
  const event = options.event_id !== undefined ? await eventOf(deps.db, options.event_id) : undefined;
  const timeZone = options.time_zone ?? event?.timezone ?? serverTimeZone();
  const source = await readInput(deps, input, options, timeZone);
  for (const index of options.sessions ?? []) {
    if (index >= source.history.length) {
      throw badRequest(
        `There is no history session ${index}: the file has ${source.history.length} (numbered from 0; see the preview)`,
        'body.sessions',
      );
    }
  }
  const chosen = options.sessions ? new Set(options.sessions) : null;
  const historyKeys = new Set(
    source.history
      .filter((session) => !chosen || chosen.has(session.index))
      .flatMap((session) => session.entries.map((entry) => entry.trackKey)),
  );

  const matchOptions = {
    pathMappings: options.path_mappings,
    libraryRoots: deps.config.libraryRoots,
    newSongs: options.new_songs,
    historyKeys,
    identify: libraryFileIdentifier(deps.db, deps.config.ffmpegPath),
    fileCache: newFileCache(),
  };
  const plan = async (db: Db) => {
    const matches = await matchTracks(db, source.tracks, matchOptions);
    const history = await planHistory(db, source.history, matches, {
      ...(options.sessions ? { sessions: options.sessions } : {}),
      ...(event ? { event } : {}),
      createEvents: options.create_events,
      ...(options.night_start ? { nightStart: options.night_start } : {}),
      timeZone,
    });
    return { matches, history };
  };

  if (dryRun) {
    const { matches, history } = await plan(deps.db);
    return describe(source, matches, history, {
      dryRun,
      bpmFilled: countFills(matches, 'bpm'),
      keyFilled: countFills(matches, 'musicalKey'),
      eventsCreated: [],
    });
  }

  // Files are read and listened to before the transaction (seconds for a large folder), so that
  // the import lock is held only while writing; the matching inside reuses what they gave.
  await matchTracks(deps.db, source.tracks, matchOptions);
  const outcome = await deps.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    // Two imports of the same file at once would both find its plays new: they take turns.
    await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`);
    const { matches, history } = await plan(tx);
    const filled = await applyMatches(tx, matches);
    const written = await applyHistory(tx, history, matches);
    return { matches, history, filled, written };
  });
  const { matches, history, filled, written } = outcome;
  const changed = written.plays + matches.newSongs.length + filled.bpmFilled + filled.keyFilled > 0;
  if (changed && deps.jobs) await scheduleScoreRecompute(deps.jobs, 'DJ software import');
  // The new songs have no file: their metadata is looked up in the background.
  const newSongIds = matches.matches.filter((match) => match.newSong !== undefined && match.songId !== null);
  if (deps.config.metadata && newSongIds.length > 0) {
    await queueMetadataLookups(
      { config: { metadata: deps.config.metadata }, jobs: deps.jobs },
      newSongIds.map((match) => match.songId!),
    );
  }
  return describe(source, matches, history, {
    dryRun,
    bpmFilled: filled.bpmFilled,
    keyFilled: filled.keyFilled,
    eventsCreated: written.eventsCreated,
  });
}

function countFills(matches: Awaited<ReturnType<typeof matchTracks>>, field: 'bpm' | 'musicalKey'): number {
  return [...matches.fills.values()].filter((fill) => fill[field] !== undefined).length;
}

function describe(
  source: ImportSource,
  matches: Awaited<ReturnType<typeof matchTracks>>,
  history: Awaited<ReturnType<typeof planHistory>>,
  outcome: {
    dryRun: boolean;
    bpmFilled: number;
    keyFilled: number;
    eventsCreated: InteropResult['events_created'];
  },
): InteropResult {
  const counts: Record<TrackMatchKind, number> = {
    path: 0,
    content_hash: 0,
    name: 0,
    fingerprint: 0,
    new_song: 0,
    unmatched: 0,
  };
  for (const match of matches.matches) counts[match.kind] += 1;
  const sessions = describeSessions(history);
  return {
    dry_run: outcome.dryRun,
    format: formatName(source),
    tracks: source.tracks.length,
    matched: counts.path + counts.content_hash + counts.name + counts.fingerprint,
    new_songs: matches.newSongs.length,
    playlists: source.playlists.length,
    history_sessions: source.history.length,
    plays: sessions.reduce((sum, session) => sum + session.plays, 0),
    files: source.files,
    match_counts: counts,
    bpm_filled: outcome.bpmFilled,
    key_filled: outcome.keyFilled,
    plays_skipped: history.skipped,
    sessions,
    events_created: outcome.eventsCreated,
    track_matches: matches.matches.map((match) => ({
      key: match.track.fileKey,
      title: match.track.title,
      artist: match.track.artist,
      match: match.kind,
      song_id: match.songId,
    })),
    warnings: [...source.warnings, ...matches.warnings],
  };
}
