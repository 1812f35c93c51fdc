import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../lib/api';
import type { ComparisonType } from './lib/comparison-selection';

/** The specification's limit for the analytics and insights event lists. */
export const EVENT_OPTIONS_LIMIT = 500;

/** The filter of every chart: all plays, one event, or one social of it. */
export interface AnalyticsFilter {
  event_id?: number;
  social_id?: number;
}

/** GET /events/?limit=500 for the event select and the comparison list. */
export function useEventOptions() {
  return useQuery({
    queryKey: ['events', 'list', { limit: EVENT_OPTIONS_LIMIT }],
    queryFn: ({ signal }) => apiCall('listEvents', { query: { limit: EVENT_OPTIONS_LIMIT } }, { signal }),
  });
}

/** GET /events/{id}/socials, only once an event is chosen. */
export function useSocials(eventId: number | null) {
  return useQuery({
    queryKey: ['events', eventId, 'socials'],
    queryFn: ({ signal }) => apiCall('listSocials', { params: { id: eventId ?? 0 } }, { signal }),
    enabled: eventId !== null,
  });
}

export type ProgressionEndpoint =
  | 'bpmProgression'
  | 'energyProgression'
  | 'valenceProgression'
  | 'danceabilityProgression';

export function useProgression(endpoint: ProgressionEndpoint, filter: AnalyticsFilter) {
  return useQuery({
    queryKey: ['analytics', endpoint, filter],
    queryFn: ({ signal }) => apiCall(endpoint, { query: filter }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useGenreDistribution(filter: AnalyticsFilter) {
  return useQuery({
    queryKey: ['analytics', 'genre-distribution', filter],
    queryFn: ({ signal }) => apiCall('genreDistribution', { query: filter }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Over all plays: the endpoint takes no filter. */
export function useTimeWindowCharacteristics() {
  return useQuery({
    queryKey: ['analytics', 'time-window-characteristics'],
    queryFn: ({ signal }) => apiCall('timeWindowCharacteristics', undefined, { signal }),
  });
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
