import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../lib/api';

/** The specification's limit for the insights event list. */
export const EVENT_OPTIONS_LIMIT = 500;

/** GET /events/?limit=500 (the same cache entry as the analytics event select). */
export function useEventOptions() {
  return useQuery({
    queryKey: ['events', 'list', { limit: EVENT_OPTIONS_LIMIT }],
    queryFn: ({ signal }) => apiCall('listEvents', { query: { limit: EVENT_OPTIONS_LIMIT } }, { signal }),
  });
}

/** GET /analytics/event-success/{id}, once an event is chosen. */
export function useEventSuccess(eventId: number | null) {
  return useQuery({
    queryKey: ['analytics', 'event-success', eventId],
    queryFn: ({ signal }) => apiCall('eventSuccess', { params: { id: eventId ?? 0 } }, { signal }),
    enabled: eventId !== null,
  });
}
