import type { OverviewStats } from '@wcs/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { downloadQueue, events, plays, songs } from '../../db/schema.js';

/** Dashboard counts: songs, events and plays in the library, and download queue entries still pending. */
export async function getOverviewStats(db: Db): Promise<OverviewStats> {
  const [totalSongs, totalEvents, totalPlays, pendingDownloads] = await Promise.all([
    db.$count(songs),
    db.$count(events),
    db.$count(plays),
    db.$count(downloadQueue, eq(downloadQueue.status, 'pending')),
  ]);
  return {
    total_songs: totalSongs,
    total_events: totalEvents,
    total_plays: totalPlays,
    pending_downloads: pendingDownloads,
  };
}
