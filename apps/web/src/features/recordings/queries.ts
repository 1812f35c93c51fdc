import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { RECORDING, RECORDING_SOURCE_BROWSER } from '@wcs/contract';
import { apiCall } from '../../lib/api';
import { useMorePages } from '../../lib/more-pages';
import { settingsOptions } from '../../lib/settings';
import { makerQuery } from './made-by';

/** Query keys of this screen; everything under 'recordings' is refreshed after a change. */
export const recordingKeys = {
  all: ['recordings'] as const,
  list: (isUnprocessedOnly: boolean, madeBy: string | null) =>
    ['recordings', 'list', { isUnprocessedOnly, madeBy }] as const,
  detail: (id: number) => ['recordings', 'detail', id] as const,
  stats: ['recordings', 'stats'] as const,
  today: (since: string) => ['recordings', 'today', since] as const,
};

/** Events for a dropdown, newest first (50 for the recorder, 100 for Assign Event). */
export const eventListKey = (limit: number) => ['events', 'list', { limit }] as const;

/**
 * Recordings per page of the list: the newest page comes with the screen, older ones on request
 * (a phone draws 20 rows without blocking; 100 took most of the screen's blocking time).
 */
export const RECORDINGS_PAGE_SIZE = 20;

const recordingListQuery = (isUnprocessedOnly: boolean, madeBy: string | null) => ({
  ...(isUnprocessedOnly ? { unprocessed_only: 'true' } : {}),
  ...makerQuery(madeBy),
});

const recordingsOptions = (isUnprocessedOnly: boolean, madeBy: string | null) =>
  queryOptions({
    queryKey: recordingKeys.list(isUnprocessedOnly, madeBy),
    queryFn: ({ signal }) =>
      apiCall(
        'listRecordings',
        {
          query: { limit: RECORDINGS_PAGE_SIZE, ...recordingListQuery(isUnprocessedOnly, madeBy) },
        },
        { signal },
      ),
    // A freshly uploaded recording is processed in the background: keep the list current.
    staleTime: 0,
  });

/**
 * The recordings list: 100 newest, or only the unprocessed ones, of anyone or of one maker
 * (`user:<id>` or `token:<id>`, made-by.ts).
 */
export function useRecordings(isUnprocessedOnly: boolean, madeBy: string | null = null) {
  return useQuery({ ...recordingsOptions(isUnprocessedOnly, madeBy), placeholderData: keepPreviousData });
}

/** The older recordings of the same list, a page at a time after the newest RECORDINGS_PAGE_SIZE. */
export function useOlderRecordings(isUnprocessedOnly: boolean, madeBy: string | null) {
  return useMorePages(
    recordingKeys.list(isUnprocessedOnly, madeBy),
    RECORDINGS_PAGE_SIZE,
    async (skip, signal) => {
      const page = await apiCall(
        'listRecordings',
        {
          query: {
            skip,
            limit: RECORDINGS_PAGE_SIZE,
            ...recordingListQuery(isUnprocessedOnly, madeBy),
          },
        },
        { signal },
      );
      return { data: page.recordings, total: page.total };
    },
  );
}

const recordingStatsOptions = () =>
  queryOptions({
    queryKey: recordingKeys.stats,
    queryFn: ({ signal }) => apiCall('recordingStats', {}, { signal }),
    staleTime: 0,
  });

export function useRecordingStats() {
  return useQuery(recordingStatsOptions());
}

export function useRecording(id: number | null) {
  return useQuery({
    queryKey: recordingKeys.detail(id ?? 0),
    queryFn: ({ signal }) => apiCall('getRecording', { params: { id: id ?? 0 } }, { signal }),
    enabled: id !== null,
    staleTime: 0,
  });
}

/** Local midnight of today as an ISO instant: the start of 'today' for the browser's user. */
export function localMidnightIso(now: Date = new Date()): string {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).toISOString();
}

const todayRecordingsOptions = (since: string) =>
  queryOptions({
    queryKey: recordingKeys.today(since),
    queryFn: ({ signal }) =>
      apiCall(
        'listRecordings',
        { query: { source: RECORDING_SOURCE_BROWSER, since, limit: 100 } },
        { signal },
      ),
    staleTime: 0,
  });

/** Today's recordings made in the browser, refreshed every 30 s. */
export function useTodayRecordings(since: string) {
  return useQuery({ ...todayRecordingsOptions(since), refetchInterval: RECORDING.todayRefreshMs });
}

const eventOptionsQuery = (limit: number) =>
  queryOptions({
    queryKey: eventListKey(limit),
    queryFn: ({ signal }) => apiCall('listEvents', { query: { limit } }, { signal }),
  });

export function useEventOptions(limit: number) {
  return useQuery(eventOptionsQuery(limit));
}

/** docs/product.md "Limits and constants": the recorder's event dropdown lists up to 50 events (Assign Event asks for 100). */
export const RECORDER_EVENT_LIMIT = 50;

/** The route's loader: the screen's first calls start while its code loads. */
export function prefetch(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(recordingsOptions(false, null));
  void queryClient.prefetchQuery(recordingStatsOptions());
  void queryClient.prefetchQuery(todayRecordingsOptions(localMidnightIso()));
  void queryClient.prefetchQuery(eventOptionsQuery(RECORDER_EVENT_LIMIT));
  void queryClient.prefetchQuery(settingsOptions());
}

export function useAssignEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ recordingId, eventId }: { recordingId: number; eventId: number }) =>
      apiCall('assignRecordingEvent', { params: { id: recordingId }, query: { event_id: eventId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: recordingKeys.all }),
  });
}

export function useDeleteRecording() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (recordingId: number) => apiCall('deleteRecording', { params: { id: recordingId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: recordingKeys.all }),
  });
}

export function useProcessRecording() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (recordingId: number) => apiCall('processRecording', { params: { id: recordingId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: recordingKeys.all }),
  });
}

/** The recognised songs of a recording beyond those its answer carries (RECORDING_SONGS_LIMIT). */
export function useMoreRecordingSongs(recordingId: number, from: number) {
  return useMorePages(recordingKeys.detail(recordingId), from, (skip, signal) =>
    apiCall('listRecordingSongs', { params: { id: recordingId }, query: { skip, limit: 200 } }, { signal }),
  );
}
