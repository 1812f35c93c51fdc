import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';

interface Page<T> {
  data: T[];
  total: number;
}

/**
 * The rest of a list whose first items came embedded in another answer (a song's newest plays, a
 * recording's first recognised songs): nothing is fetched until the user asks for more, then one
 * page per request, each from where the last ended.
 */
export function useMorePages<T>(
  queryKey: readonly unknown[],
  /** How many items the embedding answer already showed: the first page starts there. */
  from: number,
  fetchPage: (skip: number, signal: AbortSignal) => Promise<Page<T>>,
) {
  // The list the user asked more of: another list (a filter changed) starts again from its first page.
  const listKey = JSON.stringify(queryKey);
  const [requestedFor, setRequestedFor] = useState<string | null>(null);
  const isRequested = requestedFor === listKey;
  const query = useInfiniteQuery({
    queryKey: [...queryKey, 'more', from],
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: from,
    getNextPageParam: (last: Page<T>, _pages: Page<T>[], lastParam: number) => {
      const next = lastParam + last.data.length;
      return last.data.length > 0 && next < last.total ? next : undefined;
    },
    enabled: isRequested,
  });
  const items = query.data?.pages.flatMap((page) => page.data) ?? [];
  return {
    items,
    /** The next page: the first one on the first call. */
    loadMore: () => {
      if (!isRequested) setRequestedFor(listKey);
      else void query.fetchNextPage();
    },
    isLoading: query.isFetching,
    error: query.error,
  };
}
