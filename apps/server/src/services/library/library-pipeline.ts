import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { scheduleScoreRecompute } from '../recompute-schedule.js';
import { analysisImportHook } from './analysis.js';
import { fingerprintImportHook } from './fingerprints.js';
import { resolveFolderInRoots } from './library-folders.js';
import {
  hasImportChanges,
  importLibraryFolder,
  type LibraryImportSummary,
  type SongImportedHook,
} from './library-import.js';

/**
 * What a library import sets off, wired in this one place: each new or changed song is
 * fingerprinted for recognition (fingerprints.ts) and, when its file changed, loses its analysis
 * version and is queued for analysis (analysis.ts); after a change, scores are recomputed.
 */

/**
 * The follow-ups of every imported song, in order. Without a job queue (the command line), the
 * caller queues the outdated analyses after the import.
 */
export function songImportedHooks(deps: {
  db: Db;
  config: Config;
  jobs?: AppDeps['jobs'];
}): SongImportedHook[] {
  return [fingerprintImportHook(deps), analysisImportHook(deps)];
}

/**
 * POST /api/library/import: a folder inside the configured library roots only. After a change,
 * asks for a score recompute (download priorities depend on which songs have a file).
 */
export async function importLibraryInRoots(
  deps: Pick<AppDeps, 'config' | 'db' | 'jobs'>,
  folder: string,
): Promise<LibraryImportSummary> {
  const real = await resolveFolderInRoots(folder, deps.config.libraryRoots);
  const summary = await importLibraryFolder(deps.db, real, { hooks: songImportedHooks(deps) });
  if (hasImportChanges(summary)) await scheduleScoreRecompute(deps.jobs, 'library import');
  return summary;
}
