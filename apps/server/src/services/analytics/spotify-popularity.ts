import type { SpotifyPopularity } from '@wcs/contract';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { songs, spotifyPopularityHistory } from '../../db/schema.js';
import { notFound } from '../errors.js';

/** A song's current Spotify popularity (0-100) and its stored history, oldest first. */
export async function getSpotifyPopularity(db: Db, songId: number): Promise<SpotifyPopularity> {
  const [[song], history] = await Promise.all([
    db.select({ popularity: songs.spotifyPopularity }).from(songs).where(eq(songs.id, songId)),
    db
      .select({
        fetchedAt: spotifyPopularityHistory.fetchedAt,
        popularity: spotifyPopularityHistory.popularity,
      })
      .from(spotifyPopularityHistory)
      .where(eq(spotifyPopularityHistory.songId, songId))
      .orderBy(asc(spotifyPopularityHistory.fetchedAt), asc(spotifyPopularityHistory.id)),
  ]);
  if (!song) throw notFound('Song', songId);
  return {
    data: {
      current_popularity: song.popularity,
      history: history.map((row) => ({
        fetched_at: row.fetchedAt.toISOString(),
        popularity: row.popularity,
      })),
    },
  };
}
