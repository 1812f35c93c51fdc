import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EventCreate } from '@wcs/contract';
import { apiCall } from '../../lib/api';

/** The events page lists up to 500 events (the largest list of docs/product.md "Limits and constants" short of the merge dropdown). */
export const EVENTS_PAGE_LIMIT = 500;

export const eventKeys = {
  all: ['events'] as const,
  list: (limit: number) => ['events', 'list', { limit }] as const,
  socials: (eventId: number) => ['events', 'socials', eventId] as const,
};

const eventsOptions = (limit: number) =>
  queryOptions({
    queryKey: eventKeys.list(limit),
    queryFn: ({ signal }) => apiCall('listEvents', { query: { limit } }, { signal }),
  });

export function useEvents(limit = EVENTS_PAGE_LIMIT) {
  return useQuery(eventsOptions(limit));
}

/** The route's loader: the screen's first call starts while its code loads. */
export function prefetch(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(eventsOptions(EVENTS_PAGE_LIMIT));
}

export function useSocials(eventId: number | null) {
  return useQuery({
    queryKey: eventKeys.socials(eventId ?? 0),
    queryFn: ({ signal }) => apiCall('listSocials', { params: { id: eventId ?? 0 } }, { signal }),
    enabled: eventId !== null,
  });
}

export function useCreateEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EventCreate) => apiCall('createEvent', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: eventKeys.all }),
  });
}
