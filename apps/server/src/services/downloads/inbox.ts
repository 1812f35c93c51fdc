/**
 * The inbox folder (config.inboxDir): the DJ buys a song anywhere and drops its file there (or
 * points a store's download folder at it). Each new file, once it has stopped growing, is checked
 * and matched to the download queue (deliver.ts): by its tags first, proven or refused by the
 * stretch of a room recording where the song was heard; otherwise recognised against the queued
 * songs' recording stretches; a file matching nothing becomes a new library song. Refused and
 * unusable files are moved to `refused/` inside the inbox; every file's outcome is a row of
 * download_attempts (GET /downloads/attempts).
 *
 * The watcher (chokidar, with awaitWriteFinish) runs in each process that runs jobs; one file is
 * handled at a time across processes (a PostgreSQL advisory lock), and a file already taken by
 * another process is skipped.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { downloadQueue } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { AUDIO_EXTENSIONS } from '../library/library-folders.js';
import { importOneFile } from '../library/library-import.js';
import { songImportedHooks } from '../library/library-pipeline.js';
import { readAudioFileTags } from '../library/library-tags.js';
import { scheduleScoreRecompute } from '../recompute-schedule.js';
import { type CheckedFile, checkFile, completeEntry, confirmMatch, moveInto, openItems } from './deliver.js';
import { sameTags, verifyByStretch } from './matching.js';
import {
  type Candidate,
  type DownloadProvider,
  finishAttempt,
  getProviderSettings,
  ProviderError,
  type QueueItem,
  startAttempt,
} from './providers.js';

/** Inside the inbox: files refused (not audio, a mismatch, already in the library). */
export const REFUSED_DIR = 'refused';
/** Queued songs whose recording stretch is tried against a file whose tags match none. */
const STRETCH_CANDIDATES = 20;
/** A file must have kept its size this long before it is read (a browser or a copy still writing). */
const WRITE_FINISH_MS = 1500;
/** Any fixed number: the advisory lock that lets one process at a time handle inbox files. */
const INBOX_LOCK_KEY = 0x5743_5349_4e42;

const isAudioName = (file: string) => AUDIO_EXTENSIONS.has(path.extname(file).toLowerCase());
const isHidden = (file: string) => path.basename(file).startsWith('.');

/** Audio files waiting in the inbox (not in refused/, not hidden), in name order. */
export async function inboxFiles(inboxDir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string, depth: number) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (depth === 0 && entry.name === REFUSED_DIR) continue;
        if (depth < 2) await walk(full, depth + 1);
      } else if (entry.isFile() && isAudioName(entry.name)) found.push(full);
    }
  };
  await walk(inboxDir, 0);
  return found.sort();
}

/** What became of an inbox file. */
export type InboxOutcome =
  | { kind: 'completed'; queueId: number; songId: number; message: string }
  | { kind: 'new_song'; songId: number; message: string }
  | { kind: 'refused'; outcome: string; message: string }
  | { kind: 'skipped'; message: string };

/** Runs `use` while holding the inbox lock (waits for another process to finish its file). */
async function withInboxLock<T>(deps: Pick<AppDeps, 'db'>, use: () => Promise<T>): Promise<T> {
  const pool = (deps.db as { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return use();
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [INBOX_LOCK_KEY]);
    try {
      return await use();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [INBOX_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** Files handled one after the other in this process. */
let chain: Promise<unknown> = Promise.resolve();
const serially = <T>(run: () => Promise<T>): Promise<T> => {
  const next = chain.then(run, run);
  chain = next.catch(() => undefined);
  return next;
};

async function inboxEnabled(deps: Pick<AppDeps, 'db'>): Promise<boolean> {
  const settings = await getProviderSettings(deps.db);
  return settings.some((provider) => provider.name === 'inbox' && provider.enabled);
}

async function refuse(deps: AppDeps, file: string): Promise<void> {
  try {
    await moveInto(file, path.join(deps.config.inboxDir, REFUSED_DIR));
  } catch {
    // Gone meanwhile, or the folder cannot be written: the outcome is recorded either way.
  }
}

/** Records the outcome on the entries a refused file was meant for (they stay as they were). */
async function noteOnEntries(deps: AppDeps, queueIds: readonly number[], message: string): Promise<void> {
  for (const queueId of queueIds) {
    await deps.db
      .update(downloadQueue)
      .set({ lastError: message, provider: 'inbox' })
      .where(eq(downloadQueue.id, queueId));
  }
}

/**
 * Handles one inbox file: matched to a queued song (completed), refused (moved to refused/), or
 * imported as a new song. Nothing happens while the inbox provider is off in Settings.
 */
export function handleInboxFile(deps: AppDeps, file: string): Promise<InboxOutcome> {
  return serially(() =>
    withInboxLock(deps, async () => {
      if (!(await inboxEnabled(deps)))
        return { kind: 'skipped', message: 'the inbox provider is off in Settings' };
      try {
        await fs.access(file);
      } catch {
        return { kind: 'skipped', message: 'the file is gone (another process took it)' };
      }
      const name = path.basename(file);
      const attempt = await startAttempt(deps.db, {
        queueId: null,
        songId: null,
        provider: 'inbox',
        fileName: name,
      });
      try {
        // A completed entry's try is finished with it (completeEntry).
        const outcome = await matchInboxFile(deps, file, attempt);
        if (outcome.kind === 'new_song') {
          await finishAttempt(deps.db, attempt, 'new_song', outcome.message, { songId: outcome.songId });
        }
        return outcome;
      } catch (error) {
        if (!(error instanceof ProviderError)) {
          await finishAttempt(deps.db, attempt, 'error', (error as Error).message);
          throw error;
        }
        await refuse(deps, file);
        await finishAttempt(
          deps.db,
          attempt,
          error.outcome,
          `${error.message}; moved to ${REFUSED_DIR}/ in the inbox`,
        );
        return { kind: 'refused', outcome: error.outcome, message: error.message };
      }
    }),
  );
}

async function matchInboxFile(deps: AppDeps, file: string, attempt: number): Promise<InboxOutcome> {
  const checked = await checkFile(deps, file);
  const { title, artist } = checked.tags;
  // 1. By tags, each proven by its recording where there is one.
  const byTags = title && artist ? await openItems(deps, { title, artist }) : [];
  const refusals: ProviderError[] = [];
  for (const item of byTags) {
    try {
      const { how } = await confirmMatch(deps, item, checked);
      const { message } = await completeEntry(deps, item, checked, 'inbox', how, attempt);
      return { kind: 'completed', queueId: item.queueId, songId: item.songId, message };
    } catch (error) {
      if (!(error instanceof ProviderError) || error.outcome !== 'mismatch') throw error;
      refusals.push(error);
    }
  }
  if (refusals.length > 0) {
    const message = refusals.map((error) => error.message).join('; ');
    await noteOnEntries(
      deps,
      byTags.map((item) => item.queueId),
      message,
    );
    throw new ProviderError('mismatch', message, false);
  }
  // 2. By the recording: a queued song whose heard stretch is in this file (tags missing or wrong).
  const matched = await matchByStretch(deps, checked, attempt);
  if (matched) return matched;
  // 3. Nothing queued: a new song of the library.
  return importAsNewSong(deps, checked);
}

async function matchByStretch(
  deps: AppDeps,
  checked: CheckedFile,
  attempt: number,
): Promise<InboxOutcome | null> {
  const items = (await openItems(deps)).slice(0, STRETCH_CANDIDATES);
  for (const item of items) {
    const verdict = await verifyByStretch(deps, item.songId, await checked.index());
    if (verdict.kind !== 'heard') continue;
    const how = `its tags do not name it, but the stretch of its recording where it was heard is in the file (confidence ${verdict.confidence.toFixed(2)})`;
    const { message } = await completeEntry(deps, item, checked, 'inbox', how, attempt);
    return { kind: 'completed', queueId: item.queueId, songId: item.songId, message };
  }
  return null;
}

async function importAsNewSong(deps: AppDeps, checked: CheckedFile): Promise<InboxOutcome> {
  const placed = await moveInto(checked.file, deps.config.acquiredDir);
  const outcome = await importOneFile(deps.db, placed, { hooks: songImportedHooks(deps) });
  await scheduleScoreRecompute(deps.jobs, 'inbox import');
  const songId = outcome.kind === 'unchanged' ? outcome.songId : outcome.song.songId;
  const attached = outcome.kind !== 'unchanged' && outcome.song.change === 'attached';
  const named = checked.tags.title
    ? `"${checked.tags.title}"${checked.tags.artist ? ` by ${checked.tags.artist}` : ''}`
    : path.basename(placed);
  return {
    kind: 'new_song',
    songId,
    message: attached
      ? `${named} matched no queued song; it became the file of song ${songId}, known by its plays or an import`
      : `${named} matched no queued song; it became a new song of the library (song ${songId})`,
  };
}

/** Handles every file waiting in the inbox (at the start of a download run). */
export async function scanInbox(deps: AppDeps): Promise<InboxOutcome[]> {
  if (!(await inboxEnabled(deps))) return [];
  const outcomes: InboxOutcome[] = [];
  for (const file of await inboxFiles(deps.config.inboxDir)) outcomes.push(await handleInboxFile(deps, file));
  return outcomes;
}

/** The inbox as a provider of the worker: a file already waiting there whose tags name the song. */
export function inboxProvider(deps: AppDeps): DownloadProvider {
  return {
    name: 'inbox',
    notConfigured: () => null,
    async find(item: QueueItem): Promise<Candidate[]> {
      const candidates: Candidate[] = [];
      for (const file of await inboxFiles(deps.config.inboxDir)) {
        try {
          if (sameTags(await readAudioFileTags(file), item)) {
            candidates.push({ description: `${path.basename(file)} in the inbox`, file });
          }
        } catch {
          // Unreadable: the watcher refuses it.
        }
      }
      return candidates;
    },
    async acquire(_item, candidate) {
      if (!candidate.file) throw new ProviderError('error', 'an inbox candidate without its file', false);
      return { file: candidate.file, cleanup: async () => {} };
    },
  };
}

/** Where a refused inbox file goes (the worker's inbox tries refuse the same way as the watcher). */
export const refuseInboxFile = refuse;

export interface InboxWatcher {
  close(): Promise<void>;
  /** Resolves once the initial scan is done (tests drop files after it). */
  ready: Promise<void>;
}

/**
 * Watches the inbox: creates the folder, and handles each audio file that appears (and those
 * already there) once its size has held for WRITE_FINISH_MS. Errors are logged, never thrown.
 */
export async function watchInbox(deps: AppDeps, log: (message: string) => void): Promise<InboxWatcher> {
  const inbox = deps.config.inboxDir;
  await fs.mkdir(inbox, { recursive: true });
  const watcher: FSWatcher = watch(inbox, {
    ignoreInitial: false,
    depth: 2,
    awaitWriteFinish: { stabilityThreshold: WRITE_FINISH_MS, pollInterval: 200 },
    ignored: (file, stats) => {
      const relative = path.relative(inbox, file);
      if (relative === '') return false;
      if (relative.split(path.sep).some((part) => part.startsWith('.'))) return true;
      if (relative === REFUSED_DIR || relative.startsWith(REFUSED_DIR + path.sep)) return true;
      return stats?.isFile() === true && !isAudioName(file);
    },
  });
  const handle = (file: string) => {
    if (isHidden(file) || !isAudioName(file)) return;
    handleInboxFile(deps, file).then(
      (outcome) => {
        if (outcome.kind !== 'skipped') log(`Inbox: ${path.basename(file)}: ${outcome.message}`);
      },
      (error: Error) => log(`Inbox: ${path.basename(file)} could not be handled: ${error.message}`),
    );
  };
  watcher.on('add', handle);
  watcher.on('change', handle);
  watcher.on('error', (error) => log(`Inbox watcher: ${(error as Error).message}`));
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    close: async () => {
      await watcher.close();
      await chain.catch(() => undefined);
    },
  };
}
