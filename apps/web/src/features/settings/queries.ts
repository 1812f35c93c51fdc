import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EditableSettings } from '@wcs/contract';
import { apiCall } from '../../lib/api';

const SETTINGS_KEY = ['settings'] as const;

/** GET /settings. */
export function useSettings() {
  return useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: ({ signal }) => apiCall('getSettings', undefined, { signal }),
  });
}

/** PUT /settings with the seven editable fields; the answer becomes the cached settings. */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditableSettings) => apiCall('updateSettings', { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(SETTINGS_KEY, saved);
      // Weights and thresholds change derived scores; cached analytics are stale now.
      void queryClient.invalidateQueries({ queryKey: ['analytics'] });
    },
  });
}
