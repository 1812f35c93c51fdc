/**
 * GET /system/status: what the Dashboard's System Status cards and Settings show, read from the
 * configuration and measured now: the database answers, the background jobs waiting and failing
 * (pg-boss's table), the disk space left where the data folder is, the recognisers (the library's
 * fingerprint index, the cloud recognisers configured), the download providers enabled and
 * configured. Each item says what to do when it is not well.
 */
import fs from 'node:fs/promises';
import type { SystemStatus, SystemStatusItem } from '@wcs/contract';
import { eq } from 'drizzle-orm';
import { downloadQueue } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { cloudRecognizersFrom } from '../providers/cloud-recognizers.js';
import { describeProviders } from './downloads/providers.js';
import { fingerprintedWithFile } from './song-counts.js';

const GB = 1024 ** 3;
/** Below either, the disk card warns; below 1 GB it is an error (uploads would soon fail). */
const DISK_WARN_BYTES = 5 * GB;
const DISK_WARN_FRACTION = 0.05;
const DISK_ERROR_BYTES = 1 * GB;
/** A job waiting longer than this means no process is working on that queue. */
const STUCK_MINUTES = 15;

const formatGb = (bytes: number) => `${(bytes / GB).toFixed(1)} GB`;

async function databaseItem(deps: Pick<AppDeps, 'pool'>): Promise<SystemStatusItem> {
  const started = performance.now();
  try {
    await deps.pool.query('select 1');
    return {
      key: 'database',
      title: 'Database',
      state: 'ok',
      description: `PostgreSQL answered in ${Math.max(1, Math.round(performance.now() - started))} ms`,
      action: null,
    };
  } catch (error) {
    return {
      key: 'database',
      title: 'Database',
      state: 'error',
      description: `PostgreSQL does not answer: ${(error as Error).message}`,
      action: 'Check that PostgreSQL runs (DATABASE_URL), or restart the server to start its own',
    };
  }
}

async function jobsItem(deps: Pick<AppDeps, 'pool'>): Promise<SystemStatusItem> {
  try {
    const { rows } = await deps.pool.query<{
      waiting: string;
      stuck: string;
      failed: string;
      running: string;
    }>(
      `select
         count(*) filter (where state in ('created', 'retry')) as waiting,
         count(*) filter (where state in ('created', 'retry') and start_after < now() - interval '${STUCK_MINUTES} minutes') as stuck,
         count(*) filter (where state = 'active') as running,
         count(*) filter (where state = 'failed' and completed_on > now() - interval '24 hours') as failed
       from pgboss.job`,
    );
    const waiting = Number(rows[0]?.waiting ?? 0);
    const stuck = Number(rows[0]?.stuck ?? 0);
    const failed = Number(rows[0]?.failed ?? 0);
    const running = Number(rows[0]?.running ?? 0);
    const description = `${waiting} waiting, ${running} running, ${failed} failed in the last 24 hours`;
    if (stuck > 0) {
      return {
        key: 'jobs',
        title: 'Background jobs',
        state: 'warning',
        description: `${description}; ${stuck} have waited over ${STUCK_MINUTES} minutes`,
        action: 'No process is working on them: run `wcs serve` without --no-jobs, or start `wcs worker`',
      };
    }
    if (failed > 0) {
      return {
        key: 'jobs',
        title: 'Background jobs',
        state: 'warning',
        description,
        action:
          'The server log names each failed job and why; recordings and downloads with errors can be retried',
      };
    }
    return { key: 'jobs', title: 'Background jobs', state: 'ok', description, action: null };
  } catch (error) {
    return {
      key: 'jobs',
      title: 'Background jobs',
      state: 'error',
      description: `The job queue cannot be read: ${(error as Error).message}`,
      action: 'Restart the server; it creates the job queue at start',
    };
  }
}

async function diskItem(deps: Pick<AppDeps, 'config'>): Promise<SystemStatusItem> {
  try {
    const stats = await fs.statfs(deps.config.dataDir);
    const free = stats.bavail * stats.bsize;
    const total = stats.blocks * stats.bsize;
    const description = `${formatGb(free)} free of ${formatGb(total)} where the data folder is (${deps.config.dataDir})`;
    if (free < DISK_ERROR_BYTES) {
      return {
        key: 'disk',
        title: 'Disk space',
        state: 'error',
        description,
        action: 'Free space now: recordings and downloads will fail to be stored',
      };
    }
    if (free < DISK_WARN_BYTES || free < total * DISK_WARN_FRACTION) {
      return {
        key: 'disk',
        title: 'Disk space',
        state: 'warning',
        description,
        action: 'Free some space, or move the data folder (WCS_DATA_DIR) to a larger disk',
      };
    }
    return { key: 'disk', title: 'Disk space', state: 'ok', description, action: null };
  } catch (error) {
    return {
      key: 'disk',
      title: 'Disk space',
      state: 'error',
      description: `The data folder cannot be read: ${(error as Error).message}`,
      action: 'Check that WCS_DATA_DIR exists and this server may write there',
    };
  }
}

async function recognitionItem(deps: Pick<AppDeps, 'db' | 'config'>): Promise<SystemStatusItem> {
  // From the summary song_counts (services/song-counts.ts), not a scan of every song.
  const indexed = await fingerprintedWithFile(deps.db);
  const cloud = cloudRecognizersFrom(deps.config).map((recognizer) =>
    recognizer.name === 'acrcloud' ? 'ACRCloud' : 'AudD',
  );
  const library = `${indexed} ${indexed === 1 ? 'song' : 'songs'} of the library in the fingerprint index`;
  if (cloud.length === 0) {
    return {
      key: 'recognition',
      title: 'Recognition',
      state: 'warning',
      description: `${library}; no cloud recogniser is configured, so songs not in the library are not named`,
      action:
        indexed === 0
          ? 'Import your music (Songs → Import) so recordings can be recognised; set ACRCLOUD_* or AUDD_API_TOKEN to name other songs'
          : 'Set ACRCLOUD_HOST, ACRCLOUD_ACCESS_KEY and ACRCLOUD_ACCESS_SECRET, or AUDD_API_TOKEN, to name songs not in the library',
    };
  }
  if (indexed === 0) {
    return {
      key: 'recognition',
      title: 'Recognition',
      state: 'warning',
      description: `${library}; cloud: ${cloud.join(', ')}`,
      action: 'Import your music (Songs → Import) so recordings are recognised on this server first',
    };
  }
  return {
    key: 'recognition',
    title: 'Recognition',
    state: 'ok',
    description: `${library}; cloud: ${cloud.join(', ')}`,
    action: null,
  };
}

async function downloadsItem(deps: Pick<AppDeps, 'db' | 'config'>): Promise<SystemStatusItem> {
  const { providers, used_today, max_downloads_per_day } = await describeProviders(deps.db, deps.config);
  const ready = providers.filter((provider) => provider.enabled && provider.configured);
  const failed = await deps.db.$count(downloadQueue, eq(downloadQueue.status, 'failed'));
  if (ready.length === 0) {
    return {
      key: 'downloads',
      title: 'Downloads',
      state: 'warning',
      description: 'No download provider is configured: songs heard but not owned stay in the queue',
      action:
        'Turn on the inbox folder under Download providers in Settings (then drop bought files into it), or set WCS_DOWNLOAD_COMMAND to your own download program',
    };
  }
  const description = `${ready.map((provider) => provider.label).join(', then ')}; ${used_today} of ${max_downloads_per_day} tries used today`;
  if (failed > 0) {
    return {
      key: 'downloads',
      title: 'Downloads',
      state: 'warning',
      description: `${description}; ${failed} queued ${failed === 1 ? 'song' : 'songs'} failed`,
      action: 'The Downloads page shows each failed entry with its reason and a Retry button',
    };
  }
  return { key: 'downloads', title: 'Downloads', state: 'ok', description, action: null };
}

export async function getSystemStatus(deps: Pick<AppDeps, 'db' | 'pool' | 'config'>): Promise<SystemStatus> {
  const database = await databaseItem(deps);
  const reachable = database.state === 'ok';
  const items: SystemStatusItem[] = [
    {
      key: 'server',
      title: 'Server',
      state: 'ok',
      description: `The API server answered this request (data folder ${deps.config.dataDir})`,
      action: null,
    },
    database,
    await diskItem(deps),
  ];
  if (reachable) {
    items.push(await jobsItem(deps), await recognitionItem(deps), await downloadsItem(deps));
  }
  return { items, checked_at: new Date().toISOString() };
}
