import { type SQL, sql } from 'drizzle-orm';
import type pg from 'pg';
import { ANALYSIS_VERSION } from '../audio/analysis/index.js';
import type { Db } from '../db/client.js';
import { DEMO_VERSION_PREFIX } from '../db/schema.js';
import { startPeriodicFold } from './periodic-fold.js';

/**
 * Counts and sums over ALL songs (migration song_counts; docs/metrics.md, "Counts over all
 * songs"): the analysis status, the system status's fingerprinted songs and the download preview's
 * means read `song_counts` instead of the songs table. Triggers on songs append signed rows (+1 as
 * a row is now, -1 as it was); a reader sums them per group, so its answer is exactly that of the
 * songs in its snapshot whether or not they were folded. `foldSongCounts` collapses the rows into
 * one per group so they stay few.
 */

/** How often each process looks for rows to collapse. */
export const SONG_COUNTS_FOLD_INTERVAL_MS = 1000;

/**
 * `outdatedCondition` of services/library/analysis.ts over a song_counts group: a file, an
 * analysis version other than this one and not the demo data's.
 */
const outdatedGroup = sql`(file_present and analysis_version is distinct from ${ANALYSIS_VERSION}
  and coalesce(analysis_version not like ${`${DEMO_VERSION_PREFIX}%`}, true))`;

const songsWhere = (condition: SQL) => sql`coalesce(sum(songs) filter (where ${condition}), 0)::int`;

export interface AnalysisCounts {
  total: number;
  analyzed: number;
  failed: number;
  outdated: number;
  no_file: number;
}

/** The analysis status's counts, as `count(*) filter (...)` over the songs table would give them. */
export async function analysisCounts(db: Db): Promise<AnalysisCounts> {
  const { rows } = await db.execute<{ [K in keyof AnalysisCounts]: number }>(sql`
    select coalesce(sum(songs), 0)::int as total,
           ${songsWhere(sql`analyzed`)} as analyzed,
           ${songsWhere(sql`analysis_failed and file_present`)} as failed,
           ${songsWhere(outdatedGroup)} as outdated,
           ${songsWhere(sql`not file_present`)} as no_file
    from song_counts`);
  const row = rows[0];
  return {
    total: row?.total ?? 0,
    analyzed: row?.analyzed ?? 0,
    failed: row?.failed ?? 0,
    outdated: row?.outdated ?? 0,
    no_file: row?.no_file ?? 0,
  };
}

/** Every song: `count(*) from songs`. */
export async function songTotal(db: Db): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(
    sql`select coalesce(sum(songs), 0)::int as n from song_counts`,
  );
  return rows[0]?.n ?? 0;
}

/** Songs with a file that are in the fingerprint index (fingerprinted). */
export async function fingerprintedWithFile(db: Db): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(
    sql`select ${songsWhere(sql`fingerprinted and file_present`)} as n from song_counts`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * The mean file size of the songs with a file and the mean analysis time of the analysed songs,
 * null when there is none: PostgreSQL's avg() is the numeric sum divided by the count, and so is
 * this, so the values are the same to the last digit.
 */
export async function libraryMeans(db: Db): Promise<{ fileBytes: number | null; analysisMs: number | null }> {
  const { rows } = await db.execute<{ file_bytes: string | null; analysis_ms: string | null }>(sql`
    select sum(file_size_sum) filter (where file_present)
             / nullif(sum(file_size_n) filter (where file_present), 0)::numeric as file_bytes,
           sum(analysis_ms_sum) filter (where analyzed)
             / nullif(sum(analysis_ms_n) filter (where analyzed), 0)::numeric as analysis_ms
    from song_counts`);
  const row = rows[0];
  const value = (text: string | null | undefined) =>
    text === null || text === undefined ? null : Number(text);
  return { fileBytes: value(row?.file_bytes), analysisMs: value(row?.analysis_ms) };
}

/** Collapses the rows of song_counts into one per group, in one statement; returns the rows taken. */
export async function foldSongCounts(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ taken: number }>('select song_counts_fold() as taken');
  return rows[0]?.taken ?? 0;
}

/**
 * Collapses every `intervalMs` when there are more rows than groups, in every process: the fold
 * is one statement that sums only the rows it deletes, so processes folding at once stay exact.
 * A failed fold is logged and retried; answers stay exact without it. Returns the stopper.
 */
export function startSongCountsFolder(
  pool: pg.Pool,
  log: (message: string) => void,
  intervalMs = SONG_COUNTS_FOLD_INTERVAL_MS,
): () => Promise<void> {
  return startPeriodicFold({
    name: 'Song counts',
    intervalMs,
    log,
    needed: async () => {
      const { rows } = await pool.query<{ spare: boolean }>(
        `select count(*) > count(distinct (file_present, analyzed, analysis_failed, fingerprinted,
           coalesce(analysis_version, ''), analysis_version is null)) as spare
         from song_counts`,
      );
      return rows[0]?.spare === true;
    },
    fold: () => foldSongCounts(pool),
  });
}
