import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

const FIVE_MINUTES_MS = 5 * 60 * 1000;

/** The specification's data cache: 5 minutes, one retry, no refetch when the window regains focus. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: FIVE_MINUTES_MS,
        gcTime: FIVE_MINUTES_MS,
        retry: 1,
        refetchOnWindowFocus: false,
      },
    },
  });
}

/**
 * The app's one cache. The router's loaders fill it (router.tsx) while a screen's code loads, and
 * the screen reads the same entries, so it lives beside the router rather than in a component.
 */
export const queryClient = createQueryClient();

export function Providers({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
