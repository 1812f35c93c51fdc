import type { SongValueSource, SpotifyPopularity } from '@wcs/contract';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { songs, spotifyPopularityHistory } from '../../db/schema.js';
import { notFound } from '../errors.js';

/**
 * A song's current popularity (0-100) with where it came from (Spotify, the demo generator's
 * invention, a DJ's edit), whether Spotify is configured, and the stored readings, oldest first,
 * each marked spotify or demo.
 */
export async function getSpotifyPopularity(
  db: Db,
  songId: number,
  spotifyConfigured: boolean,
): Promise<SpotifyPopularity> {
  const [[song], history] = await Promise.all([
    db
      .select({ popularity: songs.spotifyPopularity, sources: songs.fieldSources })
      .from(songs)
      .where(eq(songs.id, songId)),
    db
      .select({
        fetchedAt: spotifyPopularityHistory.fetchedAt,
        popularity: spotifyPopularityHistory.popularity,
        source: spotifyPopularityHistory.source,
      })
      .from(spotifyPopularityHistory)
      .where(eq(spotifyPopularityHistory.songId, songId))
      .orderBy(asc(spotifyPopularityHistory.fetchedAt), asc(spotifyPopularityHistory.id)),
  ]);
  if (!song) throw notFound('Song', songId);
  return {
    data: {
      current_popularity: song.popularity,
      current_source:
        song.popularity === null
          ? null
          : ((song.sources?.spotify_popularity ?? null) as SongValueSource | null),
      spotify_configured: spotifyConfigured,
      history: history.map((row) => ({
        fetched_at: row.fetchedAt.toISOString(),
        popularity: row.popularity,
        source: row.source === 'demo' ? ('demo' as const) : ('spotify' as const),
      })),
    },
  };
}
