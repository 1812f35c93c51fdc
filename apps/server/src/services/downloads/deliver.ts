/**
 * What happens to a file a provider brought: it is checked (it decodes, it is not already in the
 * library, its tags and the room's recording agree it is the song), placed in the acquired folder
 * (inside a library root, config.acquiredDir), imported into the song the entry waits for, and the
 * entry completes. The song's fingerprints are made by the import hook, its analysis queued
 * (services/library/library-pipeline.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, asc, desc, eq, ne } from 'drizzle-orm';
import { DecodeError, measureDecodableAudio } from '../../audio/decode.js';
import { ProgramStartError } from '../../audio/spawn-helper.js';
import type { Db } from '../../db/client.js';
import { downloadQueue, songs } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { insideRoot } from '../../storage/index.js';
import { songSearchKey } from '../../text.js';
import { importOneFile, sha256OfFile } from '../library/library-import.js';
import { songImportedHooks } from '../library/library-pipeline.js';
import { type AudioFileTags, readAudioFileTags, UnusableFile } from '../library/library-tags.js';
import { scheduleScoreRecompute } from '../recompute-schedule.js';
import { describeStretch, type FileIndex, indexFile, sameTags, verifyByStretch } from './matching.js';
import { finishAttempt, ProviderError, type QueueItem } from './providers.js';

/** A file that decodes, with its tags and content hash. */
export interface CheckedFile {
  file: string;
  tags: AudioFileTags;
  hash: string;
  durationS: number;
  /** The file indexed alone, made on first use. */
  index(): Promise<FileIndex>;
}

/** Decodes the file through, reads its tags and hash; refuses what is not audio or already in the library. */
export async function checkFile(deps: Pick<AppDeps, 'db' | 'config'>, file: string): Promise<CheckedFile> {
  let durationS: number;
  try {
    durationS = await measureDecodableAudio(file, deps.config.ffmpegPath);
  } catch (error) {
    if (error instanceof DecodeError) {
      throw new ProviderError(
        'unusable',
        `"${path.basename(file)}" is not audio ffmpeg can decode: ${error.reason}`,
        false,
      );
    }
    if (error instanceof ProgramStartError)
      throw new ProviderError('error', `ffmpeg could not be started: ${error.message}`, true);
    throw error;
  }
  let tags: AudioFileTags;
  try {
    tags = await readAudioFileTags(file);
  } catch (error) {
    if (error instanceof UnusableFile)
      throw new ProviderError('unusable', `"${path.basename(file)}": ${error.message}`, false);
    throw error;
  }
  const hash = await sha256OfFile(file);
  const [known] = await deps.db
    .select({ id: songs.id, title: songs.title, artist: songs.artist })
    .from(songs)
    .where(eq(songs.contentHash, hash));
  if (known) {
    throw new ProviderError(
      'duplicate',
      `"${path.basename(file)}" is the same audio as song ${known.id}, "${known.title}" by ${known.artist}, already in the library`,
      false,
    );
  }
  let index: Promise<FileIndex> | null = null;
  return {
    file,
    tags,
    hash,
    durationS,
    index: () => {
      index ??= indexFile(file, deps.config.ffmpegPath);
      return index;
    },
  };
}

/**
 * Whether the checked file is the entry's song. The recording decides where the song was heard
 * in one (recognised: yes; not recognised: a mismatch, whatever the tags say); otherwise tags
 * naming another song are a mismatch, and a file without title and artist tags is taken on the
 * provider's word (the command was asked for this song).
 */
export async function confirmMatch(
  deps: AppDeps,
  item: QueueItem,
  checked: CheckedFile,
): Promise<{ how: string }> {
  const name = path.basename(checked.file);
  const verdict = await verifyByStretch(deps, item.songId, await checked.index());
  if (verdict.kind === 'heard') {
    return {
      how: `the stretch of ${await describeStretch(deps, verdict.stretch)} where it was heard is in the file (confidence ${verdict.confidence.toFixed(2)})`,
    };
  }
  if (verdict.kind === 'not_heard') {
    const tagged =
      checked.tags.title && checked.tags.artist
        ? `its tags say "${checked.tags.title}" by ${checked.tags.artist}, but `
        : '';
    throw new ProviderError(
      'mismatch',
      `"${name}" was refused: ${tagged}the stretch of ${await describeStretch(deps, verdict.stretch)} where "${item.title}" was heard is not in it (another song or another version)`,
      false,
    );
  }
  if (checked.tags.title && checked.tags.artist) {
    if (!sameTags(checked.tags, item)) {
      throw new ProviderError(
        'mismatch',
        `"${name}" was refused: its tags say "${checked.tags.title}" by ${checked.tags.artist}, not "${item.title}" by ${item.artist}, and no recording of the song is here to decide`,
        false,
      );
    }
    return { how: 'its title and artist tags match (the song was not heard in a recording kept here)' };
  }
  return {
    how: 'the provider was asked for it (the file has no title and artist tags, and no recording of the song is here)',
  };
}

/** A free name for `baseName` in `folder` ("Song (2).mp3" after "Song.mp3"). */
async function freeName(folder: string, baseName: string): Promise<string> {
  const ext = path.extname(baseName);
  const stem =
    path
      .basename(baseName, ext)
      .replace(/[^\p{L}\p{N} ._()'&,-]/gu, '_')
      .trim() || 'song';
  for (let n = 1; n < 10_000; n++) {
    const candidate = n === 1 ? `${stem}${ext}` : `${stem} (${n})${ext}`;
    const target = insideRoot(folder, candidate);
    try {
      await fs.access(target);
    } catch {
      return target;
    }
  }
  throw new Error(`No free file name for ${baseName} in ${folder}`);
}

/** Moves (or copies, when asked or across file systems) a file into `folder`; returns its new path. */
export async function moveInto(
  source: string,
  folder: string,
  options: { copy?: boolean } = {},
): Promise<string> {
  await fs.mkdir(folder, { recursive: true });
  const target = await freeName(folder, path.basename(source));
  if (!options.copy) {
    try {
      await fs.rename(source, target);
      return target;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    }
  }
  await fs.copyFile(source, target, fs.constants.COPYFILE_EXCL);
  const handle = await fs.open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (!options.copy) await fs.rm(source);
  return target;
}

/**
 * Places the file in the acquired folder, gives it to the entry's song, completes the entry and
 * the provider's try `attempt` together (one transaction: the Downloads screen never shows a
 * completed entry beside its try still running).
 */
export async function completeEntry(
  deps: AppDeps,
  item: QueueItem,
  checked: CheckedFile,
  provider: 'inbox' | 'command',
  how: string,
  attempt: number,
): Promise<{ file: string; message: string }> {
  const file = await moveInto(checked.file, deps.config.acquiredDir);
  let outcome: Awaited<ReturnType<typeof importOneFile>>;
  try {
    outcome = await importOneFile(deps.db, file, { attachTo: item.songId, hooks: songImportedHooks(deps) });
  } catch (error) {
    // The song cannot take it (it got another file meanwhile, or was removed): the file stays in
    // the acquired folder, where the next library import sees it.
    if (error instanceof UnusableFile) throw new ProviderError('duplicate', error.message, false);
    throw error;
  }
  const followUps = outcome.kind === 'unchanged' ? [] : outcome.failures;
  const message = `${path.basename(file)}: ${how}${followUps.length > 0 ? `; follow-up: ${followUps.join('; ')}` : ''}`;
  await deps.db.transaction(async (tx) => {
    await tx
      .update(downloadQueue)
      .set({ status: 'completed', completedAt: new Date(), provider, lastError: null })
      .where(eq(downloadQueue.id, item.queueId));
    await finishAttempt(tx as unknown as Db, attempt, 'completed', message, {
      songId: item.songId,
      queueId: item.queueId,
    });
  });
  await scheduleScoreRecompute(deps.jobs, 'download completed');
  return { file, message };
}

/** Open queue entries (not completed) whose song has no file, as the providers see them. */
export async function openItems(
  deps: Pick<AppDeps, 'db'>,
  where?: { queueId?: number; title?: string; artist?: string },
): Promise<QueueItem[]> {
  const conditions = [ne(downloadQueue.status, 'completed'), eq(songs.filePresent, false)];
  if (where?.queueId !== undefined) conditions.push(eq(downloadQueue.id, where.queueId));
  if (where?.title !== undefined && where.artist !== undefined) {
    conditions.push(eq(songs.searchKey, songSearchKey(where.title, where.artist)));
  }
  const rows = await deps.db
    .select({
      queueId: downloadQueue.id,
      songId: songs.id,
      title: songs.title,
      artist: songs.artist,
      externalIds: songs.externalIds,
    })
    .from(downloadQueue)
    .innerJoin(songs, eq(songs.id, downloadQueue.songId))
    .where(and(...conditions))
    .orderBy(desc(downloadQueue.priorityScore), asc(downloadQueue.id))
    .limit(500);
  return rows.map(({ externalIds, ...row }) => ({ ...row, isrc: isrcOf(externalIds) }));
}

function isrcOf(externalIds: unknown): string | null {
  if (externalIds && typeof externalIds === 'object' && 'isrc' in externalIds) {
    const value = (externalIds as { isrc: unknown }).isrc;
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  }
  return null;
}
