import type { EventAnalytics } from '@wcs/contract';
import { count, countDistinct, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { plays } from '../../db/schema.js';
import { getEvent, listSocials } from '../events.js';
import { genreCounts } from './genre-distribution.js';
import { timeWindowCharacteristicsRows } from './time-window-characteristics.js';
import { topSongRows } from './top-songs.js';

/** How many of the event's most played songs its analytics page lists. */
export const EVENT_TOP_SONGS = 20;

/**
 * Everything the analytics of one event shows: the event, its plays and distinct songs, its
 * nights, and the same genre, time window and top-song figures as the all-plays calls, restricted
 * to the event. 404 for an unknown event.
 */
export async function getEventAnalytics(db: Db, eventId: number): Promise<EventAnalytics> {
  const event = await getEvent(db, eventId);
  const where = eq(plays.eventId, eventId);
  const [[totals], socials, genres, windows, top] = await Promise.all([
    db
      .select({ totalPlays: count(), uniqueSongs: countDistinct(plays.songId) })
      .from(plays)
      .where(where),
    listSocials(db, eventId),
    genreCounts(db, where),
    timeWindowCharacteristicsRows(db, where),
    topSongRows(db, where, EVENT_TOP_SONGS),
  ]);
  return {
    event,
    total_plays: totals?.totalPlays ?? 0,
    unique_songs: totals?.uniqueSongs ?? 0,
    socials: socials.data,
    genre_distribution: genres,
    time_windows: windows,
    top_songs: top.data,
  };
}
