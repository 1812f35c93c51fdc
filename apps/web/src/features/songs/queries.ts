import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../lib/api';
import { type SongFilters, songListQuery } from './lib/song-filters';

/** One page of GET /songs/ with the server-side filters (genre, age, file status). */
export function useSongs(filters: SongFilters, page: number) {
  const query = songListQuery(filters, page);
  return useQuery({
    queryKey: ['songs', 'list', query],
    queryFn: ({ signal }) => apiCall('listSongs', { query }, { signal }),
    // Keep the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

/** GET /analytics/song-performance/{id}: totals, plays per month and the play history. */
export function useSongPerformance(songId: number) {
  return useQuery({
    queryKey: ['analytics', 'song-performance', songId],
    queryFn: ({ signal }) => apiCall('songPerformance', { params: { id: songId } }, { signal }),
  });
}

/** GET /analytics/spotify-popularity/{id}: the stored popularity history. */
export function useSpotifyPopularity(songId: number) {
  return useQuery({
    queryKey: ['analytics', 'spotify-popularity', songId],
    queryFn: ({ signal }) => apiCall('spotifyPopularity', { params: { id: songId } }, { signal }),
  });
}
