import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../lib/api';

const PLAYLISTS_KEY = ['playlists', 'list', { is_active: true }] as const;

/** GET /playlists?is_active=true. */
export function useActivePlaylists() {
  return useQuery({
    queryKey: PLAYLISTS_KEY,
    queryFn: ({ signal }) => apiCall('listPlaylists', { query: { is_active: 'true' } }, { signal }),
  });
}

/** POST /playlists/regenerate, then the list is loaded again. */
export function useRegeneratePlaylists() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall('regeneratePlaylists'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['playlists'] }),
  });
}
