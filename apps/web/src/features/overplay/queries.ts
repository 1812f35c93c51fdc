import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type AgeCategory, type Genre, OVERPLAY } from '@wcs/contract';
import { apiCall } from '../../lib/api';

/** GET /analytics/overplay-warnings at the slider's threshold, up to 50 songs. */
export function useOverplayWarnings(threshold: number) {
  return useQuery({
    queryKey: ['analytics', 'overplay-warnings', threshold],
    queryFn: ({ signal }) =>
      apiCall('overplayWarnings', { query: { threshold, limit: OVERPLAY.warningsLimit } }, { signal }),
    // The list stays while the slider moves; it is replaced when the new threshold answers.
    placeholderData: keepPreviousData,
  });
}

/** GET /analytics/overplay-trend/{id}: plays per month with the current score. */
export function useOverplayTrend(songId: number | null) {
  return useQuery({
    queryKey: ['analytics', 'overplay-trend', songId],
    queryFn: ({ signal }) => apiCall('overplayTrend', { params: { id: songId ?? 0 } }, { signal }),
    enabled: songId !== null,
  });
}

export interface FreshPoolFilter {
  age_category?: AgeCategory;
  genre?: Genre;
}

/** GET /analytics/fresh-songs-pool, up to 100 songs. */
export function useFreshSongsPool(filter: FreshPoolFilter) {
  return useQuery({
    queryKey: ['analytics', 'fresh-songs-pool', filter],
    queryFn: ({ signal }) =>
      apiCall('freshSongsPool', { query: { ...filter, limit: OVERPLAY.freshPoolLimit } }, { signal }),
    placeholderData: keepPreviousData,
  });
}
