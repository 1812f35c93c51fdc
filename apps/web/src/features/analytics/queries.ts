import { keepPreviousData, type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../lib/api';
import { idParam } from '../../lib/url-params';
import type { ComparisonType } from './lib/comparison-selection';

/** The specification's limit for the analytics and insights event lists. */
export const EVENT_OPTIONS_LIMIT = 500;

/** The filter of every chart: all plays, one event, or one social of it. */
export interface AnalyticsFilter {
  event_id?: number;
  social_id?: number;
}

const eventOptionsQuery = () =>
  queryOptions({
    queryKey: ['events', 'list', { limit: EVENT_OPTIONS_LIMIT }],
    queryFn: ({ signal }) => apiCall('listEvents', { query: { limit: EVENT_OPTIONS_LIMIT } }, { signal }),
  });

/** GET /events/?limit=500 for the event select and the comparison list. */
export function useEventOptions() {
  return useQuery(eventOptionsQuery());
}

const socialsOptions = (eventId: number | null) =>
  queryOptions({
    queryKey: ['events', eventId, 'socials'],
    queryFn: ({ signal }) => apiCall('listSocials', { params: { id: eventId ?? 0 } }, { signal }),
    enabled: eventId !== null,
  });

/** GET /events/{id}/socials, only once an event is chosen. */
export function useSocials(eventId: number | null) {
  return useQuery(socialsOptions(eventId));
}

export type ProgressionEndpoint =
  | 'bpmProgression'
  | 'energyProgression'
  | 'valenceProgression'
  | 'danceabilityProgression';

const PROGRESSION_ENDPOINTS: readonly ProgressionEndpoint[] = [
  'bpmProgression',
  'energyProgression',
  'valenceProgression',
  'danceabilityProgression',
];

const progressionOptions = (endpoint: ProgressionEndpoint, filter: AnalyticsFilter) =>
  queryOptions({
    queryKey: ['analytics', endpoint, filter],
    queryFn: ({ signal }) => apiCall(endpoint, { query: filter }, { signal }),
  });

export function useProgression(endpoint: ProgressionEndpoint, filter: AnalyticsFilter) {
  return useQuery({ ...progressionOptions(endpoint, filter), placeholderData: keepPreviousData });
}

const genreDistributionOptions = (filter: AnalyticsFilter) =>
  queryOptions({
    queryKey: ['analytics', 'genre-distribution', filter],
    queryFn: ({ signal }) => apiCall('genreDistribution', { query: filter }, { signal }),
  });

export function useGenreDistribution(filter: AnalyticsFilter) {
  return useQuery({ ...genreDistributionOptions(filter), placeholderData: keepPreviousData });
}

const timeWindowOptions = () =>
  queryOptions({
    queryKey: ['analytics', 'time-window-characteristics'],
    queryFn: ({ signal }) => apiCall('timeWindowCharacteristics', undefined, { signal }),
  });

/** Over all plays: the endpoint takes no filter. */
export function useTimeWindowCharacteristics() {
  return useQuery(timeWindowOptions());
}

/**
 * The route's loader: the screen's first calls start while its code loads, for the event and
 * night in the URL (the page drops a night that is not one of the event's; then this guess of
 * the filter was one call too many, nothing worse).
 */
export function prefetch(queryClient: QueryClient, url: URL): void {
  const eventId = idParam(url.searchParams.get('eventId'));
  const socialId = eventId === null ? null : idParam(url.searchParams.get('socialId'));
  const filter: AnalyticsFilter = {
    ...(eventId !== null ? { event_id: eventId } : {}),
    ...(socialId !== null ? { social_id: socialId } : {}),
  };
  void queryClient.prefetchQuery(eventOptionsQuery());
  if (eventId !== null) void queryClient.prefetchQuery(socialsOptions(eventId));
  for (const endpoint of PROGRESSION_ENDPOINTS) {
    void queryClient.prefetchQuery(progressionOptions(endpoint, filter));
  }
  void queryClient.prefetchQuery(genreDistributionOptions(filter));
  void queryClient.prefetchQuery(timeWindowOptions());
}

/** GET /analytics/compare for the ids the user pressed Compare with (none: nothing is asked). */
export function useComparison(request: { type: ComparisonType; ids: readonly number[] } | null) {
  const ids = request ? [...request.ids] : [];
  return useQuery({
    queryKey: ['analytics', 'compare', request?.type, ids],
    queryFn: ({ signal }) =>
      apiCall(
        'compare',
        { query: { ids: ids.map(String), comparison_type: request?.type ?? 'event' } },
        { signal },
      ),
    enabled: request !== null && ids.length > 0,
  });
}
