import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DownloadProviderUpdate } from '@wcs/contract';
import { apiCall } from './api';

/**
 * GET /system/status (the Dashboard's System Status cards and Settings) and the download
 * providers (Settings, the Downloads page and its preview): shared here, as several screens read
 * them.
 */
export const systemStatusOptions = () =>
  queryOptions({
    queryKey: ['system', 'status'],
    queryFn: ({ signal }) => apiCall('systemStatus', undefined, { signal }),
    staleTime: 10_000,
  });

export function useSystemStatus() {
  return useQuery({ ...systemStatusOptions(), refetchInterval: 30_000 });
}

export const PROVIDERS_KEY = ['downloads', 'providers'] as const;

export const downloadProvidersOptions = () =>
  queryOptions({
    queryKey: PROVIDERS_KEY,
    queryFn: ({ signal }) => apiCall('downloadProviders', undefined, { signal }),
    staleTime: 0,
  });

export function useDownloadProviders(isEnabled = true) {
  return useQuery({ ...downloadProvidersOptions(), enabled: isEnabled });
}

export function useUpdateDownloadProviders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DownloadProviderUpdate) => apiCall('updateDownloadProviders', { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(PROVIDERS_KEY, saved);
      void queryClient.invalidateQueries({ queryKey: ['system'] });
    },
  });
}

/** GET /downloads/attempts: the latest provider tries and inbox files. */
export function useDownloadAttempts(limit = 20) {
  return useQuery({
    queryKey: ['downloads', 'attempts', limit],
    queryFn: ({ signal }) => apiCall('downloadAttempts', { query: { limit } }, { signal }),
    refetchInterval: 10_000,
    staleTime: 0,
  });
}
