/**
 * The download worker (the 'downloads.run' job): handles the files waiting in the inbox, then
 * takes the pending entries (or the one entry asked for), highest priority first, and tries the
 * providers enabled in Settings in their order. Each try is a row of download_attempts; a
 * provider's daily cap and WCS_MAX_DOWNLOADS_PER_DAY count those rows. A failing try (an error,
 * a timeout) is repeated up to the provider's max_attempts with a doubling wait; a search that
 * finds nothing passes to the next provider; a refused file (a mismatch, not audio) is not retried.
 * An entry goes pending → downloading → completed, or failed with every provider's reason, or
 * back to pending when no provider has it yet and the inbox is on (it waits for its file there).
 */
import type { DownloadProviderName, DownloadProviderSettings } from '@wcs/contract';
import { and, asc, desc, eq, lt, sql } from 'drizzle-orm';
import { downloadQueue } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { commandProvider } from './command.js';
import { checkFile, completeEntry, confirmMatch, openItems } from './deliver.js';
import { inboxProvider, refuseInboxFile, scanInbox } from './inbox.js';
import {
  closeStaleAttempts,
  type DownloadProvider,
  finishAttempt,
  getProviderSettings,
  PROVIDER_LABELS,
  ProviderError,
  type QueueItem,
  startAttempt,
  triesToday,
} from './providers.js';

/** First wait between two tries of one provider; doubled after each (tests shorten it). */
export const RETRY_BASE_MS = { value: 2000 };

const BACKSTOP_MS = 5000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The provider objects for this server. */
export function downloadProviders(
  deps: AppDeps,
  settings: readonly DownloadProviderSettings[],
): Record<DownloadProviderName, DownloadProvider> {
  const timeoutOf = (name: DownloadProviderName) =>
    (settings.find((s) => s.name === name)?.timeout_seconds ?? 600) * 1000;
  return {
    inbox: inboxProvider(deps),
    command: commandProvider(deps.config, () => timeoutOf('command')),
  };
}

export interface RunSummary {
  inboxFiles: number;
  tried: number;
  completed: number;
  failed: number;
  /** Entries no provider has yet, left pending for their file in the inbox. */
  waiting: number;
  /** Why the run stopped before the end of the queue (a cap), or null. */
  stoppedBecause: string | null;
}

/**
 * Entries left downloading (and tries left running) by a process that stopped mid-try: once
 * longer ago than any run could take with these settings, they go back to pending.
 */
async function recoverAbandoned(deps: AppDeps, settings: readonly DownloadProviderSettings[]): Promise<void> {
  let longestMs = 60_000;
  for (const s of settings) {
    longestMs += s.max_attempts * s.timeout_seconds * 1000 + RETRY_BASE_MS.value * 2 ** s.max_attempts;
  }
  const before = new Date(Date.now() - longestMs);
  await closeStaleAttempts(deps.db, before);
  await deps.db
    .update(downloadQueue)
    .set({
      status: 'pending',
      lastError: 'the server stopped while this entry was being downloaded; tried again',
    })
    .where(and(eq(downloadQueue.status, 'downloading'), lt(downloadQueue.startedAt, before)));
}

/** Marks an entry downloading, if it is still pending (another run may have taken it). */
async function claim(deps: AppDeps, queueId: number): Promise<boolean> {
  const rows = await deps.db
    .update(downloadQueue)
    .set({
      status: 'downloading',
      startedAt: new Date(),
      completedAt: null,
      downloadAttempts: sql`${downloadQueue.downloadAttempts} + 1`,
    })
    .where(and(eq(downloadQueue.id, queueId), eq(downloadQueue.status, 'pending')))
    .returning({ id: downloadQueue.id });
  return rows.length > 0;
}

async function pendingIds(deps: AppDeps, queueId?: number): Promise<number[]> {
  const rows = await deps.db
    .select({ id: downloadQueue.id })
    .from(downloadQueue)
    .where(
      queueId === undefined
        ? eq(downloadQueue.status, 'pending')
        : and(eq(downloadQueue.status, 'pending'), eq(downloadQueue.id, queueId)),
    )
    .orderBy(desc(downloadQueue.priorityScore), asc(downloadQueue.addedAt), asc(downloadQueue.id));
  return rows.map((row) => row.id);
}

/** Runs one try of `provider` at `candidate`-finding and acquiring, within its timeout. */
async function tryProvider(
  deps: AppDeps,
  provider: DownloadProvider,
  setting: DownloadProviderSettings,
  item: QueueItem,
): Promise<{ done: true; message: string } | { done: false; reason: string; notFound: boolean }> {
  const controller = new AbortController();
  const candidates = await provider.find(item, controller.signal);
  if (candidates.length === 0) {
    const reason =
      provider.name === 'inbox'
        ? `no file for it in the inbox yet (${deps.config.inboxDir}): buy it, drop the file there, and the entry completes by itself`
        : 'found nothing';
    const id = await startAttempt(deps.db, {
      queueId: item.queueId,
      songId: item.songId,
      provider: provider.name,
    });
    await finishAttempt(deps.db, id, 'not_found', reason);
    return { done: false, reason, notFound: true };
  }
  const candidate = candidates[0]!;
  let lastReason = '';
  let notFound = false;
  for (let attempt = 1; attempt <= setting.max_attempts; attempt++) {
    const id = await startAttempt(deps.db, {
      queueId: item.queueId,
      songId: item.songId,
      provider: provider.name,
      fileName: candidate.file ? candidate.file.split(/[\\/]/).pop()! : null,
    });
    const attemptController = new AbortController();
    // The provider enforces the timeout itself (a command is stopped); this is the backstop for
    // one that does not, a few seconds later.
    const timer = setTimeout(() => attemptController.abort(), setting.timeout_seconds * 1000 + BACKSTOP_MS);
    try {
      const timeout = new Promise<never>((_, reject) =>
        attemptController.signal.addEventListener('abort', () =>
          reject(
            new ProviderError(
              'timeout',
              `did not finish within ${setting.timeout_seconds} s and was abandoned`,
              true,
            ),
          ),
        ),
      );
      const work = (async () => {
        const acquired = await provider.acquire(item, candidate, attemptController.signal);
        try {
          const checked = await checkFile(deps, acquired.file);
          const { how } = await confirmMatch(deps, item, checked);
          return await completeEntry(deps, item, checked, provider.name, how, id);
        } catch (error) {
          if (provider.name === 'inbox' && error instanceof ProviderError && !error.retry) {
            await refuseInboxFile(deps, acquired.file);
          }
          throw error;
        } finally {
          await acquired.cleanup();
        }
      })();
      work.catch(() => undefined);
      // completeEntry finished the try with its entry.
      const { message } = await Promise.race([work, timeout]);
      return { done: true, message };
    } catch (error) {
      if (!(error instanceof ProviderError)) {
        await finishAttempt(deps.db, id, 'error', (error as Error).message);
        throw error;
      }
      await finishAttempt(deps.db, id, error.outcome, error.message);
      lastReason = error.message;
      notFound = error.outcome === 'not_found';
      if (!error.retry || attempt === setting.max_attempts) break;
      await sleep(RETRY_BASE_MS.value * 2 ** (attempt - 1));
    } finally {
      clearTimeout(timer);
    }
  }
  return { done: false, reason: lastReason, notFound };
}

/**
 * One run of the worker. Entries are taken one at a time; a cap reached stops the run, leaving
 * the rest pending with the reason on the next one.
 */
export async function runDownloads(
  deps: AppDeps,
  options: { queueId?: number; inboxOnly?: boolean } = {},
): Promise<RunSummary> {
  const settings = await getProviderSettings(deps.db);
  await recoverAbandoned(deps, settings);
  const inbox = await scanInbox(deps);
  const summary: RunSummary = {
    inboxFiles: inbox.length,
    tried: 0,
    completed: 0,
    failed: 0,
    waiting: 0,
    stoppedBecause: null,
  };
  if (options.inboxOnly) return summary;
  const providers = downloadProviders(deps, settings);
  const usable = settings.filter((s) => s.enabled && providers[s.name].notConfigured() === null);
  for (const queueId of await pendingIds(deps, options.queueId)) {
    if (usable.length === 0) {
      summary.stoppedBecause =
        'no download provider is enabled and configured: turn one on in Settings (the inbox folder, or the command set by WCS_DOWNLOAD_COMMAND)';
      await deps.db
        .update(downloadQueue)
        .set({ lastError: summary.stoppedBecause })
        .where(eq(downloadQueue.id, queueId));
      break;
    }
    const used = await triesToday(deps.db);
    const total = [...used.values()].reduce((sum, n) => sum + n, 0);
    if (total >= deps.config.maxDownloadsPerDay) {
      summary.stoppedBecause = `the daily cap of ${deps.config.maxDownloadsPerDay} downloads (WCS_MAX_DOWNLOADS_PER_DAY) is reached; the entry waits for tomorrow's run`;
      await deps.db
        .update(downloadQueue)
        .set({ lastError: summary.stoppedBecause })
        .where(eq(downloadQueue.id, queueId));
      break;
    }
    const open = usable.filter((s) => (used.get(s.name) ?? 0) < s.daily_cap);
    if (open.length === 0) {
      summary.stoppedBecause = `every enabled provider has reached its daily cap (${usable
        .map((s) => `${PROVIDER_LABELS[s.name]}: ${s.daily_cap}`)
        .join(', ')}); the entry waits for tomorrow's run`;
      await deps.db
        .update(downloadQueue)
        .set({ lastError: summary.stoppedBecause })
        .where(eq(downloadQueue.id, queueId));
      break;
    }
    const [item] = await openItems(deps, { queueId });
    if (!item) continue;
    if (!(await claim(deps, queueId))) continue;
    summary.tried += 1;
    const reasons: string[] = [];
    let completed = false;
    let allNotFound = true;
    for (const setting of usable) {
      const left = setting.daily_cap - (used.get(setting.name) ?? 0);
      if (left <= 0) {
        reasons.push(`${PROVIDER_LABELS[setting.name]}: its daily cap of ${setting.daily_cap} is reached`);
        allNotFound = false;
        continue;
      }
      await deps.db
        .update(downloadQueue)
        .set({ provider: setting.name })
        .where(eq(downloadQueue.id, queueId));
      let result: Awaited<ReturnType<typeof tryProvider>>;
      try {
        result = await tryProvider(
          deps,
          providers[setting.name],
          { ...setting, max_attempts: Math.min(setting.max_attempts, left) },
          item,
        );
      } catch (error) {
        result = { done: false, reason: `failed: ${(error as Error).message}`, notFound: false };
      }
      if (result.done) {
        completed = true;
        break;
      }
      reasons.push(`${PROVIDER_LABELS[setting.name]}: ${result.reason}`);
      if (!result.notFound) allNotFound = false;
    }
    if (completed) {
      summary.completed += 1;
      continue;
    }
    // Nothing failed when no provider has it yet and the inbox is on: the entry waits, pending,
    // for its file (and the next run asks the other providers again). The inbox may have
    // completed it meanwhile (a file dropped during the run): that stays.
    const waits = allNotFound && usable.some((s) => s.name === 'inbox');
    await deps.db
      .update(downloadQueue)
      .set({ status: waits ? 'pending' : 'failed', completedAt: null, lastError: reasons.join(' · ') })
      .where(and(eq(downloadQueue.id, queueId), eq(downloadQueue.status, 'downloading')));
    if (waits) summary.waiting += 1;
    else summary.failed += 1;
  }
  return summary;
}
