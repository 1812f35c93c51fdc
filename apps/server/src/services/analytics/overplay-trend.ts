import type { OverplayTrend } from '@wcs/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { songs } from '../../db/schema.js';
import { notFound } from '../errors.js';
import { monthlyPlays } from './monthly-plays.js';

/** A song's plays per month over its whole history, with its current overplay score and total plays. */
export async function getOverplayTrend(db: Db, songId: number): Promise<OverplayTrend> {
  const [[song], trend] = await Promise.all([
    db
      .select({ title: songs.title, artist: songs.artist, overplayScore: songs.overplayScore })
      .from(songs)
      .where(eq(songs.id, songId)),
    monthlyPlays(db, songId),
  ]);
  if (!song) throw notFound('Song', songId);
  return {
    song_id: songId,
    title: song.title,
    artist: song.artist,
    current_overplay_score: song.overplayScore,
    total_plays: trend.reduce((sum, month) => sum + month.plays, 0),
    trend,
  };
}
