import type { OverviewStats } from '@wcs/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { downloadQueue, events, songs } from '../../db/schema.js';
import { totalPlayCount } from './song-window-plays.js';

/**
 * Dashboard counts: songs, events and plays in the library, and download queue entries still
 * pending. Plays are summed from the play summary (play-summary.ts): counting 10 million plays takes a scan.
 */
export async function getOverviewStats(db: Db): Promise<OverviewStats> {
  const [totalSongs, totalEvents, totalPlays, pendingDownloads] = await Promise.all([
    db.$count(songs),
    db.$count(events),
    totalPlayCount(db),
    db.$count(downloadQueue, eq(downloadQueue.status, 'pending')),
  ]);
  return {
    total_songs: totalSongs,
    total_events: totalEvents,
    total_plays: totalPlays,
    pending_downloads: pendingDownloads,
  };
}
