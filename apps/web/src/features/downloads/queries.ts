import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { DownloadStatus } from '@wcs/contract';
import { apiCall } from '../../lib/api';

/** docs/product.md "Limits and constants": the queue refreshes every 30 s, 100 entries at most. */
export const QUEUE_REFRESH_MS = 30_000;
export const QUEUE_LIMIT = 100;

export const downloadKeys = {
  all: ['downloads'] as const,
  queue: (status: DownloadStatus | 'all') => ['downloads', 'queue', status] as const,
  stats: ['downloads', 'stats'] as const,
  preview: ['downloads', 'preview'] as const,
};

const queueOptions = (status: DownloadStatus | 'all') =>
  queryOptions({
    queryKey: downloadKeys.queue(status),
    queryFn: ({ signal }) =>
      apiCall(
        'downloadQueue',
        { query: { limit: QUEUE_LIMIT, ...(status === 'all' ? {} : { status }) } },
        { signal },
      ),
    staleTime: 0,
  });

export function useDownloadQueue(status: DownloadStatus | 'all') {
  return useQuery({
    ...queueOptions(status),
    refetchInterval: QUEUE_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

const statsOptions = () =>
  queryOptions({
    queryKey: downloadKeys.stats,
    queryFn: ({ signal }) => apiCall('downloadStats', {}, { signal }),
    staleTime: 0,
  });

export function useDownloadStats() {
  return useQuery({ ...statsOptions(), refetchInterval: QUEUE_REFRESH_MS });
}

/** The route's loader: the screen's first calls start while its code loads (the queue unfiltered). */
export function prefetch(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(queueOptions('all'));
  void queryClient.prefetchQuery(statsOptions());
}

/** What a download run would fetch; loaded when the preview opens, fresh every time. */
export function useDownloadPreview(isEnabled: boolean) {
  return useQuery({
    queryKey: downloadKeys.preview,
    queryFn: ({ signal }) => apiCall('downloadPreview', {}, { signal }),
    enabled: isEnabled,
    staleTime: 0,
    gcTime: 0,
  });
}

export function useRetryDownload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (queueId: number) => apiCall('retryDownload', { params: { id: queueId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: downloadKeys.all }),
  });
}

export function useStartDownloads() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall('startDownloads'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: downloadKeys.all }),
  });
}
