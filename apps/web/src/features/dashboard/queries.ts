import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { Api } from '@wcs/contract';

/**
 * GET /api/analytics/overview, typed from the contract. Partial because the specification shows 0
 * for a missing count. A small stand-in until the typed API client (lib/) replaces this fetch.
 */
export type AnalyticsOverview = Partial<Api['overview']['response']['_output']>;

/** The specification's HTTP timeout. */
const REQUEST_TIMEOUT_MS = 30_000;

async function fetchAnalyticsOverview(signal: AbortSignal): Promise<AnalyticsOverview> {
  const response = await fetch('/api/analytics/overview', {
    headers: { accept: 'application/json' },
    signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
  });
  if (!response.ok) {
    const body = await response.text();
    throw new Error(`API Error ${response.status}: ${body.slice(0, 200)}`);
  }
  return (await response.json()) as AnalyticsOverview;
}

const overviewOptions = () =>
  queryOptions({
    queryKey: ['analytics', 'overview'],
    queryFn: ({ signal }) => fetchAnalyticsOverview(signal),
  });

export function useAnalyticsOverview() {
  return useQuery(overviewOptions());
}

/** The route's loader: the screen's first call starts while its code loads. */
export function prefetch(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(overviewOptions());
}
