import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from './api';

/**
 * The settings query, shared by the screens that read settings (Settings itself, and the
 * recorder, which shows which recognisers are configured); the Settings screen owns its update.
 */
export const SETTINGS_KEY = ['settings'] as const;

/** GET /settings. */
export const settingsOptions = () =>
  queryOptions({
    queryKey: SETTINGS_KEY,
    queryFn: ({ signal }) => apiCall('getSettings', undefined, { signal }),
  });

export function useSettings() {
  return useQuery(settingsOptions());
}
