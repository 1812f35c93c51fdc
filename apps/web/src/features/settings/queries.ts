import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditableSettings } from '@wcs/contract';
import { apiCall } from '../../lib/api';
import { SETTINGS_KEY } from '../../lib/settings';

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
