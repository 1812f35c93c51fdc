import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiResponse } from '../../lib/api';
import { apiCall } from '../../lib/api';

/**
 * GET /api/analytics/overview, typed from the contract. Partial because the specification shows 0
 * for a missing count.
 */
export type AnalyticsOverview = Partial<ApiResponse<'overview'>>;

const overviewOptions = () =>
  queryOptions({
    queryKey: ['analytics', 'overview'],
    queryFn: ({ signal }): Promise<AnalyticsOverview> => apiCall('overview', undefined, { signal }),
  });

export function useAnalyticsOverview() {
  return useQuery(overviewOptions());
}

/** The route's loader: the screen's first call starts while its code loads. */
export function prefetch(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(overviewOptions());
}
