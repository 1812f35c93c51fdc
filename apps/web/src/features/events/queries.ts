import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EventCreate } from '@wcs/contract';
import { apiCall } from '../../lib/api';

/** The events page lists up to 500 events (the largest list of section 9 short of the merge dropdown). */
export const EVENTS_PAGE_LIMIT = 500;

export const eventKeys = {
  all: ['events'] as const,
  list: (limit: number) => ['events', 'list', { limit }] as const,
  socials: (eventId: number) => ['events', 'socials', eventId] as const,
};

export function useEvents(limit = EVENTS_PAGE_LIMIT) {
  return useQuery({
    queryKey: eventKeys.list(limit),
    queryFn: ({ signal }) => apiCall('listEvents', { query: { limit } }, { signal }),
  });
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
