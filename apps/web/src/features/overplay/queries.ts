import { keepPreviousData, type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { type AgeCategory, type Genre, OVERPLAY } from '@wcs/contract';
import { apiCall } from '../../lib/api';

const warningsOptions = (threshold: number) =>
  queryOptions({
    queryKey: ['analytics', 'overplay-warnings', threshold],
    queryFn: ({ signal }) =>
      apiCall('overplayWarnings', { query: { threshold, limit: OVERPLAY.warningsLimit } }, { signal }),
  });

/** GET /analytics/overplay-warnings at the slider's threshold, up to 50 songs. */
export function useOverplayWarnings(threshold: number) {
  // The list stays while the slider moves; it is replaced when the new threshold answers.
  return useQuery({ ...warningsOptions(threshold), placeholderData: keepPreviousData });
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

const freshPoolOptions = (filter: FreshPoolFilter) =>
  queryOptions({
    queryKey: ['analytics', 'fresh-songs-pool', filter],
    queryFn: ({ signal }) =>
      apiCall('freshSongsPool', { query: { ...filter, limit: OVERPLAY.freshPoolLimit } }, { signal }),
  });

/** GET /analytics/fresh-songs-pool, up to 100 songs. */
export function useFreshSongsPool(filter: FreshPoolFilter) {
  return useQuery({ ...freshPoolOptions(filter), placeholderData: keepPreviousData });
}

/** The route's loader: the screen's first calls start while its code loads (default threshold). */
export function prefetch(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(warningsOptions(OVERPLAY.defaultThreshold));
  void queryClient.prefetchQuery(freshPoolOptions({}));
}
