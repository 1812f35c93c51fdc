import { SONG_TIMELINE_LIMIT, type SongPerformance, type TimeWindow } from '@wcs/contract';
import { count, countDistinct, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { events, plays, songs } from '../../db/schema.js';
import { ageCategory, localDate } from '../age.js';
import { notFound } from '../errors.js';
import { monthlyPlays } from './monthly-plays.js';

/**
 * A song's plays over time: total plays, distinct events, plays per month, and its newest
 * SONG_TIMELINE_LIMIT plays with their event (name, start date, festival or not) and time window.
 * The most played song of a national archive has tens of thousands of plays: the rest are paged by
 * GET /songs/{id}/plays.
 */
export async function getSongPerformance(db: Db, songId: number): Promise<SongPerformance> {
  const [[song], [totals], trend, timeline] = await Promise.all([
    db.select().from(songs).where(eq(songs.id, songId)),
    db
      .select({ plays: count(), events: countDistinct(plays.eventId) })
      .from(plays)
      .where(eq(plays.songId, songId)),
    monthlyPlays(db, songId),
    db
      .select({
        eventName: events.name,
        eventDate: events.startDate,
        playedAt: plays.startedAt,
        timeWindow: plays.timeWindow,
        isFestival: events.isFestival,
      })
      .from(plays)
      .innerJoin(events, eq(events.id, plays.eventId))
      .where(eq(plays.songId, songId))
      .orderBy(desc(plays.startedAt), desc(plays.id))
      .limit(SONG_TIMELINE_LIMIT),
  ]);
  if (!song) throw notFound('Song', songId);
  return {
    song_id: song.id,
    title: song.title,
    artist: song.artist,
    age_category: ageCategory(song.releaseDate, localDate()),
    overplay_score: song.overplayScore,
    spotify_popularity: song.spotifyPopularity,
    total_plays: totals?.plays ?? 0,
    total_events: totals?.events ?? 0,
    monthly_trend: trend,
    timeline: timeline.map((play) => ({
      event_name: play.eventName,
      event_date: play.eventDate,
      played_at: play.playedAt.toISOString(),
      time_window: play.timeWindow as TimeWindow | null,
      is_festival: play.isFestival,
    })),
  };
}
