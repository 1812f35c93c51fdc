import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../lib/api';

const PLAYLISTS_KEY = ['playlists', 'list', { is_active: true }] as const;

/** GET /playlists?is_active=true. */
const activePlaylistsOptions = () =>
  queryOptions({
    queryKey: PLAYLISTS_KEY,
    queryFn: ({ signal }) => apiCall('listPlaylists', { query: { is_active: 'true' } }, { signal }),
  });

export function useActivePlaylists() {
  return useQuery(activePlaylistsOptions());
}

/** The route's loader: the screen's first call starts while its code loads. */
export function prefetch(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(activePlaylistsOptions());
}

/** POST /playlists/regenerate, then the list is loaded again. */
export function useRegeneratePlaylists() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall('regeneratePlaylists'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['playlists'] }),
  });
}
