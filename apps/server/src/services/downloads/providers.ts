/**
 * The download providers behind one interface, and their settings. A provider is asked to `find`
 * a queue entry's song (candidates: a file in the inbox, a run of the DJ's command) and to
 * `acquire` one candidate (a file on this machine); the worker (worker.ts) tries them in the
 * order Settings gives, each inside its daily cap, with its timeout and its retries.
 */
import type {
  DownloadAttempt,
  DownloadProviderName,
  DownloadProviderSettings,
  DownloadProviders,
  DownloadProviderUpdate,
} from '@wcs/contract';
import { DOWNLOAD_PROVIDER_NAMES } from '@wcs/contract';
import { and, asc, desc, eq, gte, notInArray, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { downloadAttempts, downloadProviders, songs } from '../../db/schema.js';
import { badRequest } from '../errors.js';

/** A queue entry as the providers see it. */
export interface QueueItem {
  queueId: number;
  songId: number;
  title: string;
  artist: string;
  /** From a cloud recogniser's answer or a metadata lookup (songs.external_ids.isrc). */
  isrc: string | null;
}

/** Something a provider could fetch for an entry. */
export interface Candidate {
  /** For messages: "Song.mp3 in the inbox", "the download command". */
  description: string;
  /** The inbox file, when the candidate is one. */
  file?: string;
}

/** A file a provider produced, and how to dispose of what is left when the worker is done. */
export interface AcquiredFile {
  file: string;
  /** The provider's own clean-up (a temporary folder); the worker calls it in every case. */
  cleanup(): Promise<void>;
}

export interface DownloadProvider {
  name: DownloadProviderName;
  /** Null when usable; otherwise what is missing, for Settings and the Dashboard. */
  notConfigured(): string | null;
  find(item: QueueItem, signal: AbortSignal): Promise<Candidate[]>;
  acquire(item: QueueItem, candidate: Candidate, signal: AbortSignal): Promise<AcquiredFile>;
}

/** What went wrong with a try: `retry` tries are repeated after a backoff, others are not. */
export class ProviderError extends Error {
  constructor(
    readonly outcome: 'not_found' | 'error' | 'timeout' | 'unusable' | 'mismatch' | 'duplicate',
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export const PROVIDER_LABELS: Record<DownloadProviderName, string> = {
  inbox: 'Inbox folder',
  command: 'External command',
};

const DEFAULTS: Record<DownloadProviderName, Omit<DownloadProviderSettings, 'name' | 'position'>> = {
  inbox: { enabled: false, daily_cap: 100, timeout_seconds: 120, max_attempts: 2 },
  command: { enabled: false, daily_cap: 20, timeout_seconds: 600, max_attempts: 2 },
};

/** Outcomes that did no fetching: they do not count against a cap. */
const FREE_OUTCOMES = ['not_found'];

/** Start of today in the server's time zone, as the daily caps count. */
export function startOfToday(now = new Date()): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

/** The providers' settings in their order; a provider never saved gets its defaults, last. */
export async function getProviderSettings(db: Db): Promise<DownloadProviderSettings[]> {
  const rows = await db.select().from(downloadProviders).orderBy(asc(downloadProviders.position));
  const stored = rows.map(
    (row): DownloadProviderSettings => ({
      name: row.name as DownloadProviderName,
      position: row.position,
      enabled: row.enabled,
      daily_cap: row.dailyCap,
      timeout_seconds: row.timeoutSeconds,
      max_attempts: row.maxAttempts,
    }),
  );
  const missing = DOWNLOAD_PROVIDER_NAMES.filter((name) => !stored.some((row) => row.name === name));
  const all = [...stored, ...missing.map((name) => ({ name, position: 0, ...DEFAULTS[name] }))];
  return all.map((row, position) => ({ ...row, position }));
}

/**
 * PUT /downloads/providers: the whole list, in the order wanted (each provider once). Stored in
 * one transaction.
 */
export async function saveProviderSettings(
  db: Db,
  update: DownloadProviderUpdate,
): Promise<DownloadProviderSettings[]> {
  const names = update.providers.map((provider) => provider.name);
  if (new Set(names).size !== names.length || names.length !== DOWNLOAD_PROVIDER_NAMES.length) {
    throw badRequest(
      `List every provider once, in the order wanted (${DOWNLOAD_PROVIDER_NAMES.join(', ')})`,
      'body.providers',
    );
  }
  await db.transaction(async (tx) => {
    for (const [position, provider] of update.providers.entries()) {
      const values = {
        position,
        enabled: provider.enabled,
        dailyCap: provider.daily_cap,
        timeoutSeconds: provider.timeout_seconds,
        maxAttempts: provider.max_attempts,
        updatedAt: new Date(),
      };
      await tx
        .insert(downloadProviders)
        .values({ name: provider.name, ...values })
        .onConflictDoUpdate({ target: downloadProviders.name, set: values });
    }
  });
  return getProviderSettings(db);
}

/** Tries started today per provider (not counting searches that found nothing). */
export async function triesToday(db: Db, now = new Date()): Promise<Map<string, number>> {
  const rows = await db
    .select({ provider: downloadAttempts.provider, count: sql<number>`count(*)`.mapWith(Number) })
    .from(downloadAttempts)
    .where(
      and(
        gte(downloadAttempts.startedAt, startOfToday(now)),
        notInArray(downloadAttempts.outcome, FREE_OUTCOMES),
      ),
    )
    .groupBy(downloadAttempts.provider);
  return new Map(rows.map((row) => [row.provider, row.count]));
}

/** Records the start of a try; `finishAttempt` writes how it ended. */
export async function startAttempt(
  db: Db,
  values: {
    queueId: number | null;
    songId: number | null;
    provider: DownloadProviderName;
    fileName?: string | null;
  },
): Promise<number> {
  const [row] = await db
    .insert(downloadAttempts)
    .values({ ...values, outcome: 'running' })
    .returning({ id: downloadAttempts.id });
  return row!.id;
}

export async function finishAttempt(
  db: Db,
  id: number,
  outcome:
    | 'completed'
    | 'new_song'
    | 'not_found'
    | 'mismatch'
    | 'error'
    | 'timeout'
    | 'unusable'
    | 'duplicate',
  message: string | null,
  about: { songId?: number; queueId?: number } = {},
): Promise<void> {
  await db
    .update(downloadAttempts)
    .set({ outcome, message, finishedAt: new Date(), ...about })
    .where(eq(downloadAttempts.id, id));
}

/** A try left 'running' by a process that died: it ended, as far as anyone can tell, in error. */
export async function closeStaleAttempts(db: Db, olderThan: Date): Promise<void> {
  await db
    .update(downloadAttempts)
    .set({ outcome: 'error', message: 'the server stopped during this try', finishedAt: new Date() })
    .where(and(eq(downloadAttempts.outcome, 'running'), sql`${downloadAttempts.startedAt} < ${olderThan}`));
}

export const isProviderName = (name: string): name is DownloadProviderName =>
  (DOWNLOAD_PROVIDER_NAMES as readonly string[]).includes(name);

/** The configuration a provider needs, for the notConfigured checks. */
export type ProviderConfig = Pick<Config, 'inboxDir' | 'acquiredDir' | 'downloadCommand' | 'ffmpegPath'>;

/** GET /downloads/providers: settings, whether each has what it needs, and today's use. */
export async function describeProviders(
  db: Db,
  config: ProviderConfig & Pick<Config, 'maxDownloadsPerDay'>,
): Promise<DownloadProviders> {
  const [settings, used] = await Promise.all([getProviderSettings(db), triesToday(db)]);
  const command = config.downloadCommand;
  return {
    providers: settings.map((setting) => {
      const base = {
        ...setting,
        label: PROVIDER_LABELS[setting.name],
        used_today: used.get(setting.name) ?? 0,
      };
      if (setting.name === 'inbox') {
        return {
          ...base,
          configured: true,
          detail: `Files dropped in ${config.inboxDir} are matched and kept in ${config.acquiredDir}`,
        };
      }
      return command
        ? { ...base, configured: true, detail: `Runs ${command[0]} (WCS_DOWNLOAD_COMMAND), without a shell` }
        : {
            ...base,
            configured: false,
            detail: 'WCS_DOWNLOAD_COMMAND is not set: name your own download program there',
          };
    }),
    max_downloads_per_day: config.maxDownloadsPerDay,
    used_today: [...used.values()].reduce((sum, n) => sum + n, 0),
  };
}

/** GET /downloads/attempts: the latest tries and inbox files, newest first. */
export async function listAttempts(
  db: Db,
  query: { limit: number; queue_id?: number | undefined },
): Promise<DownloadAttempt[]> {
  const rows = await db
    .select({
      attempt: downloadAttempts,
      title: songs.title,
      artist: songs.artist,
    })
    .from(downloadAttempts)
    .leftJoin(songs, eq(songs.id, downloadAttempts.songId))
    .where(query.queue_id === undefined ? undefined : eq(downloadAttempts.queueId, query.queue_id))
    .orderBy(desc(downloadAttempts.startedAt), desc(downloadAttempts.id))
    .limit(query.limit);
  return rows.map(({ attempt, title, artist }) => ({
    id: attempt.id,
    queue_id: attempt.queueId,
    song_id: attempt.songId,
    song: title === null ? null : `"${title}" by ${artist}`,
    provider: isProviderName(attempt.provider) ? attempt.provider : 'inbox',
    file_name: attempt.fileName,
    started_at: attempt.startedAt.toISOString(),
    finished_at: attempt.finishedAt?.toISOString() ?? null,
    outcome: attempt.outcome as DownloadAttempt['outcome'],
    message: attempt.message,
  }));
}
