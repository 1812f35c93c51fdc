import {
  type CreatedBy,
  DOWNLOAD_PREVIEW_TOP,
  DOWNLOAD_STATUSES,
  type DownloadPreview,
  type DownloadQueueEntry,
  type DownloadStats,
  type DownloadStatus,
  type EditableSettings,
  type Identity,
} from '@wcs/contract';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { downloadQueue, songs, songWindowPlays } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { type CreatorColumns, creatorColumns, describeCreators } from './accounts/creators.js';
import { getProviderSettings, PROVIDER_LABELS } from './downloads/providers.js';
import { conflict, notFound } from './errors.js';
import { getEditableSettings } from './settings.js';
import { libraryMeans } from './song-counts.js';

/**
 * The download queue (docs/metrics.md "Download priority" and "Download candidates and queue").
 * Songs that were played but have no file become candidates by their plays and priority; with
 * downloads enabled they enter the queue, where the download worker ('downloads.run',
 * services/downloads/worker.ts) fetches them through the providers chosen in Settings, inside
 * their daily caps and `max_downloads_per_day` (configuration).
 */

const MB = 1024 * 1024;
const GB = 1024 * MB;
/** Size assumed per song when the library has no file to measure: a 4-minute 256 kbit/s MP3. */
export const DEFAULT_SONG_SIZE_BYTES = 8 * MB;

type QueueRow = typeof downloadQueue.$inferSelect;

function toEntry(
  row: QueueRow,
  song: { title: string; artist: string },
  maker: (row: CreatorColumns) => CreatedBy,
): DownloadQueueEntry {
  return {
    queue_id: row.id,
    song_id: row.songId,
    title: song.title,
    artist: song.artist,
    status: row.status as DownloadStatus,
    priority_score: row.priorityScore,
    download_attempts: row.downloadAttempts,
    added_at: row.addedAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    completed_at: row.completedAt?.toISOString() ?? null,
    last_error: row.lastError,
    provider: row.provider === 'inbox' || row.provider === 'command' ? row.provider : null,
    created_by: maker(row),
  };
}

/** The queue, highest priority first, then oldest; `total` counts every entry of the filter. */
export async function listDownloadQueue(
  db: Db,
  query: {
    status?: DownloadStatus | undefined;
    limit: number;
    created_by_user_id?: number | undefined;
    created_by_token_id?: number | undefined;
  },
): Promise<{ entries: DownloadQueueEntry[]; total: number }> {
  const conditions = [
    query.status ? eq(downloadQueue.status, query.status) : undefined,
    query.created_by_user_id ? eq(downloadQueue.createdByUserId, query.created_by_user_id) : undefined,
    query.created_by_token_id ? eq(downloadQueue.createdByTokenId, query.created_by_token_id) : undefined,
  ].filter((condition) => condition !== undefined);
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [rows, total] = await Promise.all([
    db
      .select({ entry: downloadQueue, title: songs.title, artist: songs.artist })
      .from(downloadQueue)
      .innerJoin(songs, eq(songs.id, downloadQueue.songId))
      .where(where)
      .orderBy(desc(downloadQueue.priorityScore), asc(downloadQueue.addedAt), asc(downloadQueue.id))
      .limit(query.limit),
    db.$count(downloadQueue, where),
  ]);
  const maker = await describeCreators(
    db,
    rows.map((row) => row.entry),
  );
  return { entries: rows.map(({ entry, title, artist }) => toEntry(entry, { title, artist }, maker)), total };
}

/**
 * Songs with plays and without a file, from the play summary (migration 0021): the number as of
 * the last fold, less the dirty songs as folded, plus the dirty songs as they are now, all in one
 * snapshot, so it equals `count(*) from songs where not file_present and exists (plays of it)`.
 */
const playedButNoFile = sql`(
  select t.played_no_file
    - (select count(*) from play_summary_songs p
       where p.song_id in (select song_id from play_summary_dirty) and not p.file_present)
    + (select count(*) from ${songs} s
       where s.id in (select song_id from play_summary_dirty) and not s.file_present
         and exists (select 1 from ${songWindowPlays} w where w.song_id = s.id))
  from play_summary_totals t where t.id = 1
)`;

/** Queue counts by status, and how many played songs have no file. */
export async function getDownloadStats(db: Db): Promise<DownloadStats> {
  const [byStatus, needed] = await Promise.all([
    db
      .select({ status: downloadQueue.status, count: sql<number>`count(*)`.mapWith(Number) })
      .from(downloadQueue)
      .groupBy(downloadQueue.status),
    db.execute<{ count: number | null }>(sql`select ${playedButNoFile}::int as count`),
  ]);
  const counts = Object.fromEntries(DOWNLOAD_STATUSES.map((status) => [status, 0])) as Record<
    DownloadStatus,
    number
  >;
  for (const row of byStatus) counts[row.status as DownloadStatus] = row.count;
  const total = DOWNLOAD_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  return { queue: { total, ...counts }, songs: { played_but_no_file: needed.rows[0]?.count ?? 0 } };
}

export interface DownloadCandidate {
  songId: number;
  title: string;
  artist: string;
  priority: number;
  playCount: number;
}

type CandidateRules = Pick<EditableSettings, 'minimum_plays_to_download' | 'download_priority_threshold'>;

/**
 * Songs to download, highest priority first: no file, at least `minimum_plays_to_download` plays,
 * download_priority >= `download_priority_threshold`, and not already completed in the queue.
 * The priority is the stored one, kept current by the scores job; play counts are summed from the
 * play summary `song_window_plays` (kept exact by triggers), not counted over every play.
 */
export async function findDownloadCandidates(
  db: Db,
  rules: CandidateRules,
  limit?: number,
): Promise<DownloadCandidate[]> {
  const rows = await db.execute<{
    song_id: number;
    title: string;
    artist: string;
    priority: number;
    play_count: number;
  }>(sql`
    select s.id as song_id, s.title, s.artist, s.download_priority as priority, sum(w.play_count) as play_count
    from ${songs} s
    join ${songWindowPlays} w on w.song_id = s.id
    where not s.file_present
      and s.download_priority >= ${rules.download_priority_threshold}::float8
      and not exists (
        select 1 from ${downloadQueue} q where q.song_id = s.id and q.status = 'completed'
      )
    group by s.id
    having sum(w.play_count) >= ${rules.minimum_plays_to_download}::int
    order by s.download_priority desc, s.id
    ${limit === undefined ? sql`` : sql`limit ${limit}`}
  `);
  return rows.rows.map((row) => ({
    songId: row.song_id,
    title: row.title,
    artist: row.artist,
    priority: row.priority,
    playCount: Number(row.play_count),
  }));
}

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/**
 * The download candidates of `findDownloadCandidates`, counted, and the first `top` of them in
 * its order, read from the play summary (migration 0021) instead of every song without a file and
 * its plays: the songs folded without a file from the index play_summary_songs_download_idx, the
 * dirty songs (changed since the last fold) from songs and song_window_plays as they are now, in
 * one statement, so the answer is exactly that of the reader's snapshot.
 */
export async function countDownloadCandidates(
  db: Db,
  rules: CandidateRules,
  top: number,
): Promise<{ total: number; top: DownloadCandidate[] }> {
  const threshold = sql`${rules.download_priority_threshold}::float8`;
  const minimum = sql`${rules.minimum_plays_to_download}::int`;
  const { rows } = await db.execute<{
    song_id: number;
    title: string;
    artist: string;
    priority: number;
    play_count: number;
    total: number;
  }>(sql`
    with dirty as (select distinct song_id from play_summary_dirty),
    candidates as (
      select p.song_id, p.download_priority as priority, p.play_count::int8 as play_count
      from play_summary_songs p
      where not p.file_present and p.download_priority >= ${threshold} and p.play_count >= ${minimum}
        and p.song_id not in (select song_id from dirty)
      union all
      select s.id, s.download_priority, sum(w.play_count)
      from ${songs} s
      join ${songWindowPlays} w on w.song_id = s.id
      where s.id in (select song_id from dirty) and not s.file_present and s.download_priority >= ${threshold}
      group by s.id
      having sum(w.play_count) >= ${minimum}
    ),
    kept as (
      select c.song_id, c.priority, c.play_count, count(*) over () as total
      from candidates c
      where not exists (
        select 1 from ${downloadQueue} q where q.song_id = c.song_id and q.status = 'completed'
      )
      order by c.priority desc, c.song_id
      limit ${top}
    )
    select k.song_id, s.title, s.artist, k.priority, k.play_count, k.total::int as total
    from kept k
    join ${songs} s on s.id = k.song_id
    order by k.priority desc, k.song_id
  `);
  return {
    total: rows[0]?.total ?? 0,
    top: rows.map((row) => ({
      songId: row.song_id,
      title: row.title,
      artist: row.artist,
      priority: row.priority,
      playCount: Number(row.play_count),
    })),
  };
}

/**
 * What a download run would fetch. Size: candidates × the mean size of the files already in the
 * library (8 MB each when there is none). Analysis time: candidates × the mean measured analysis
 * time of analysed songs; 0 when no song has a measured analysis yet, since there is then nothing
 * on this machine to estimate from (a guess would pose as a measurement). Cost: candidates × the
 * configured price per download.
 */
export async function getDownloadPreview(
  db: Db,
  config: Pick<Config, 'downloadPriceUsd'>,
): Promise<DownloadPreview> {
  const settings = await getEditableSettings(db);
  // The means from the summary song_counts (services/song-counts.ts), not a scan of every song.
  const [candidates, means] = await Promise.all([
    countDownloadCandidates(db, settings, DOWNLOAD_PREVIEW_TOP),
    libraryMeans(db),
  ]);
  const count = candidates.total;
  const meanBytes = means.fileBytes ?? DEFAULT_SONG_SIZE_BYTES;
  const meanAnalysisMs = means.analysisMs ?? 0;
  return {
    total_candidates: count,
    estimated_size_gb: round((count * meanBytes) / GB, 3),
    estimated_analysis_minutes: round((count * meanAnalysisMs) / 60_000, 1),
    estimated_cost_usd: round(count * config.downloadPriceUsd, 2),
    current_settings: {
      minimum_plays: settings.minimum_plays_to_download,
      priority_threshold: settings.download_priority_threshold,
      download_enabled: settings.download_enabled,
    },
    top_songs: candidates.top.map((candidate) => ({
      song_id: candidate.songId,
      title: candidate.title,
      artist: candidate.artist,
      priority: round(candidate.priority, 2),
      play_count: candidate.playCount,
    })),
  };
}

export interface EnqueueResult {
  /** Candidates now in the queue (new entries plus existing ones whose priority was refreshed). */
  queued: number;
  inserted: number;
  /** Pending entries removed because their song has a file now. */
  removed: number;
}

/**
 * Puts every candidate into the queue: a new entry as pending, an existing one (pending,
 * downloading or failed) keeps its status and gets the current priority. Pending entries whose
 * song has meanwhile got a file are removed: there is nothing left to download.
 */
export async function enqueueDownloadCandidates(
  db: Db,
  rules: CandidateRules,
  /** Who asked (Start Downloads): written on the entries this call adds. */
  by?: Identity,
): Promise<EnqueueResult> {
  const maker = creatorColumns(by);
  const candidates = await findDownloadCandidates(db, rules);
  return db.transaction(async (tx) => {
    let inserted = 0;
    for (let start = 0; start < candidates.length; start += 1000) {
      const batch = candidates.slice(start, start + 1000);
      const rows = await tx
        .insert(downloadQueue)
        .values(
          batch.map((candidate) => ({
            songId: candidate.songId,
            priorityScore: candidate.priority,
            ...maker,
          })),
        )
        .onConflictDoUpdate({
          target: downloadQueue.songId,
          set: { priorityScore: sql`excluded.priority_score` },
          // A completed entry is history; candidates never include it, this only guards a race.
          setWhere: sql`${downloadQueue.status} <> 'completed'`,
        })
        // xmax = 0 only on a row this statement inserted (an updated row carries our xid).
        .returning({ isInserted: sql<boolean>`(xmax = 0)` });
      inserted += rows.filter((row) => row.isInserted).length;
    }
    const removed = await tx
      .delete(downloadQueue)
      .where(
        and(
          eq(downloadQueue.status, 'pending'),
          sql`exists (select 1 from ${songs} where ${songs}.id = ${downloadQueue}.song_id and ${songs}.file_present)`,
        ),
      )
      .returning({ id: downloadQueue.id });
    return { queued: candidates.length, inserted, removed: removed.length };
  });
}

/**
 * The 'downloads.enqueue' job: enqueues the candidates when downloads are enabled in Settings,
 * and asks the worker to run when new entries came in and a provider is ready.
 */
export async function enqueueDownloadsIfEnabled(
  deps: Pick<AppDeps, 'db' | 'jobs' | 'config'>,
): Promise<EnqueueResult | null> {
  const settings = await getEditableSettings(deps.db);
  if (!settings.download_enabled) return null;
  const result = await enqueueDownloadCandidates(deps.db, settings);
  if (result.inserted > 0 && (await usableProviders(deps)).length > 0) {
    await deps.jobs.send('downloads.run', { reason: 'schedule' });
  }
  return result;
}

/** The providers enabled in Settings that have what they need, by label, in order. */
async function usableProviders(deps: Pick<AppDeps, 'db' | 'config'>): Promise<string[]> {
  const settings = await getProviderSettings(deps.db);
  return settings
    .filter((s) => s.enabled && (s.name !== 'command' || deps.config.downloadCommand !== null))
    .map((s) => PROVIDER_LABELS[s.name].toLowerCase());
}

/**
 * POST /downloads/:id/retry: a failed entry goes back to pending (its last error stays for the
 * record) and the worker is asked to try it.
 */
export async function retryDownload(
  deps: Pick<AppDeps, 'db' | 'jobs'>,
  id: number,
): Promise<DownloadQueueEntry> {
  const { db } = deps;
  const [row] = await db
    .select({ entry: downloadQueue, title: songs.title, artist: songs.artist })
    .from(downloadQueue)
    .innerJoin(songs, eq(songs.id, downloadQueue.songId))
    .where(eq(downloadQueue.id, id));
  if (!row) throw notFound('Download queue entry', id);
  const [updated] = await db
    .update(downloadQueue)
    .set({ status: 'pending', startedAt: null, completedAt: null })
    .where(and(eq(downloadQueue.id, id), eq(downloadQueue.status, 'failed')))
    .returning();
  if (!updated) {
    throw conflict(
      `Only a failed download can be retried; "${row.title}" by ${row.artist} is ${row.entry.status}`,
    );
  }
  await deps.jobs.send('downloads.run', { queue_id: id, reason: 'retry' });
  return toEntry(updated, row, await describeCreators(db, [updated]));
}

/**
 * POST /downloads/start: queues the candidates now, whatever the schedule, and asks the worker to
 * run. Refused while downloads are disabled in Settings or no provider is enabled and configured.
 */
export async function startDownloads(
  deps: Pick<AppDeps, 'db' | 'jobs' | 'config'>,
  by?: Identity,
): Promise<{ message: string; queued: number }> {
  const { db } = deps;
  const settings = await getEditableSettings(db);
  if (!settings.download_enabled) {
    throw conflict('Downloads are disabled: turn on "Download enabled" in Settings, then start again');
  }
  const ready = await usableProviders(deps);
  if (ready.length === 0) {
    throw conflict(
      'No download provider is enabled and configured: turn on the inbox folder (or the download command set by WCS_DOWNLOAD_COMMAND) under Download providers in Settings, then start again',
    );
  }
  const result = await enqueueDownloadCandidates(db, settings, by);
  await deps.jobs.send('downloads.run', { reason: 'start' });
  if (result.queued === 0) {
    return {
      queued: 0,
      message: `No song meets the download rules (no file, at least ${settings.minimum_plays_to_download} plays, priority at least ${settings.download_priority_threshold}); nothing was queued (entries already pending are tried)`,
    };
  }
  const songsWord = result.queued === 1 ? 'song' : 'songs';
  return {
    queued: result.queued,
    message: `Queued ${result.queued} ${songsWord} (${result.inserted} new); the download worker tries them now with ${ready.join(', then ')}, at most ${deps.config.maxDownloadsPerDay} tries a day`,
  };
}
