import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../lib/api';
import { idParam } from '../../lib/url-params';

/** The specification's limit for the insights event list. */
export const EVENT_OPTIONS_LIMIT = 500;

const eventOptionsQuery = () =>
  queryOptions({
    queryKey: ['events', 'list', { limit: EVENT_OPTIONS_LIMIT }],
    queryFn: ({ signal }) => apiCall('listEvents', { query: { limit: EVENT_OPTIONS_LIMIT } }, { signal }),
  });

/** GET /events/?limit=500 (the same cache entry as the analytics event select). */
export function useEventOptions() {
  return useQuery(eventOptionsQuery());
}

const eventSuccessOptions = (eventId: number | null) =>
  queryOptions({
    queryKey: ['analytics', 'event-success', eventId],
    queryFn: ({ signal }) => apiCall('eventSuccess', { params: { id: eventId ?? 0 } }, { signal }),
    enabled: eventId !== null,
  });

/** GET /analytics/event-success/{id}, once an event is chosen. */
export function useEventSuccess(eventId: number | null) {
  return useQuery(eventSuccessOptions(eventId));
}

/** The route's loader: the screen's first calls start while its code loads (eventId from the URL). */
export function prefetch(queryClient: QueryClient, url: URL): void {
  void queryClient.prefetchQuery(eventOptionsQuery());
  const eventId = idParam(url.searchParams.get('eventId'));
  if (eventId !== null) void queryClient.prefetchQuery(eventSuccessOptions(eventId));
}
