import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { BATCH_DUPLICATE_LIMIT } from '@wcs/contract';
import { apiCall } from '../../lib/api';
import { DEFAULT_FILTERS, listQuery, type ReviewFilters } from './review-state';

/** docs/product.md "Limits and constants": the merge dropdown lists up to 1000 existing events. */
export const MERGE_EVENT_LIMIT = 1000;

export const reviewKeys = {
  all: ['scraper'] as const,
  list: (filters: ReviewFilters, page: number) => ['scraper', 'events', filters, page] as const,
  filterOptions: ['scraper', 'filter-options'] as const,
};

const scrapedEventsOptions = (filters: ReviewFilters, page: number) =>
  queryOptions({
    queryKey: reviewKeys.list(filters, page),
    queryFn: ({ signal }) => apiCall('listScrapedEvents', { query: listQuery(filters, page) }, { signal }),
    staleTime: 0,
  });

export function useScrapedEvents(filters: ReviewFilters, page: number) {
  return useQuery({ ...scrapedEventsOptions(filters, page), placeholderData: keepPreviousData });
}

const filterOptionsQuery = () =>
  queryOptions({
    queryKey: reviewKeys.filterOptions,
    queryFn: ({ signal }) => apiCall('scraperFilterOptions', {}, { signal }),
  });

export function useFilterOptions() {
  return useQuery(filterOptionsQuery());
}

/** The route's loader: the screen's first calls start while its code loads (default filters). */
export function prefetch(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(scrapedEventsOptions(DEFAULT_FILTERS, 1));
  void queryClient.prefetchQuery(filterOptionsQuery());
}

/** Existing events to merge into, loaded when a merge dialog opens. */
export function useMergeTargets(isEnabled: boolean) {
  return useQuery({
    queryKey: ['events', 'list', { limit: MERGE_EVENT_LIMIT }] as const,
    queryFn: ({ signal }) => apiCall('listEvents', { query: { limit: MERGE_EVENT_LIMIT } }, { signal }),
    enabled: isEnabled,
  });
}

export function useBatchDetectDuplicates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall('batchDetectDuplicates', { query: { limit: BATCH_DUPLICATE_LIMIT } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
  });
}

export type ReviewActionKind = 'create' | 'approved' | 'merged' | 'rejected';

export interface ReviewActionInput {
  kind: ReviewActionKind;
  scrapedEventId: number;
  notes?: string;
  overrideName?: string;
  overrideLocation?: string;
  mergeWithEventId?: number;
}

/** Create Event, Approve, Merge or Reject; refreshes the review list and the events. */
export function useReviewAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ReviewActionInput) => {
      const notes = input.notes?.trim() ? { notes: input.notes.trim() } : {};
      if (input.kind === 'create') {
        await apiCall('createFromScraped', {
          body: {
            scraped_event_id: input.scrapedEventId,
            ...notes,
            ...(input.overrideName !== undefined ? { override_name: input.overrideName } : {}),
            ...(input.overrideLocation !== undefined ? { override_location: input.overrideLocation } : {}),
          },
        });
        return;
      }
      await apiCall('reviewScraped', {
        body: {
          scraped_event_id: input.scrapedEventId,
          action: input.kind,
          ...notes,
          ...(input.kind === 'merged' ? { merge_with_event_id: input.mergeWithEventId } : {}),
        },
      });
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['events'] });
    },
  });
}
