import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EndpointName, Identity, SessionInfo } from '@wcs/contract';
import { apiCall } from './api';
import { canCall } from './permissions';

/**
 * Who is signed in (GET /auth/session). The router's loaders read it before any screen renders
 * (app/session-guard.ts); sign-in, setup and sign-out replace it with their answer, and a 401 of
 * any call clears it with the rest of the cache.
 */
export const SESSION_KEY = ['auth', 'session'] as const;

export const sessionOptions = () =>
  queryOptions({
    queryKey: SESSION_KEY,
    queryFn: ({ signal }) => apiCall('session', undefined, { signal }),
    // Changes only by signing in or out, which write it here, or by a 401, which clears it.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

export function useSession(): SessionInfo | undefined {
  return useQuery(sessionOptions()).data;
}

/** The signed-in user (or device token); null before the session is known or when signed out. */
export function useIdentity(): Identity | null {
  return useSession()?.identity ?? null;
}

/** True when the signed-in user's role reaches the access the contract states for the call. */
export function useCan(name: EndpointName): boolean {
  return canCall(useIdentity(), name);
}

/** A new session starts with an empty cache: nothing read as the previous user stays on screen. */
export function startSession(client: QueryClient, session: SessionInfo): void {
  client.clear();
  client.setQueryData(SESSION_KEY, session);
}

/** POST /auth/logout; the cache is emptied and the session becomes the signed-out answer. */
export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall('logout'),
    onSuccess: (session) => startSession(client, session),
  });
}
