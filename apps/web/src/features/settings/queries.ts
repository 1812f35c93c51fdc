import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditableSettings } from '@wcs/contract';
import { apiCall } from '../../lib/api';
import { SETTINGS_KEY, settingsOptions } from '../../lib/settings';

/** The route's loader: the screen's first call starts while its code loads. */
export function prefetch(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(settingsOptions());
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
