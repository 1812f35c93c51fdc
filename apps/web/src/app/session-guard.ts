import type { QueryClient } from '@tanstack/react-query';
import type { SessionInfo } from '@wcs/contract';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { isPublicPath, LOGIN_PATH, loginPathFor, safeNextPath } from '../lib/auth-paths';
import { sessionOptions } from '../lib/session';

/**
 * The router's guards (docs/product.md "Signing in, roles and the admin's Settings"). They run
 * before any screen renders, so a signed-out visitor never sees the app before the login page,
 * and a signed-in one never sees the login page.
 */

/** The session, from the cache once it is known (one GET /auth/session per visit). */
export function loadSession(client: QueryClient): Promise<SessionInfo> {
  return client.ensureQueryData(sessionOptions());
}

/** The app's screens: signed out, go to /login?next=<this address>. */
export function requireSignedIn(client: QueryClient) {
  return async ({ request }: Pick<LoaderFunctionArgs, 'request'>) => {
    const session = await loadSession(client);
    if (!session.identity) throw redirect(loginPathFor(new URL(request.url)));
    return null;
  };
}

/** /login and /setup: signed in already, go on to `next` (login) or the Dashboard (setup). */
export function redirectWhenSignedIn(client: QueryClient) {
  return async ({ request }: Pick<LoaderFunctionArgs, 'request'>) => {
    const session = await loadSession(client);
    if (session.identity) {
      const url = new URL(request.url);
      throw redirect(url.pathname === LOGIN_PATH ? safeNextPath(url.searchParams.get('next')) : '/');
    }
    return null;
  };
}

/** The part of React Router's router the 401 handler uses. */
export interface NavigatingRouter {
  state: {
    location: { pathname: string; search: string; hash: string };
    navigation: { location?: { pathname: string; search: string; hash: string } | undefined };
  };
  navigate: (to: string, options: { replace: boolean }) => Promise<void>;
}

/**
 * A guarded call answered 401: the session ended (expired, signed out elsewhere, account deleted).
 * The cache, which holds what this user could read, is emptied and the login page opens with the
 * address to come back to. Several calls failing together lead to one redirect.
 */
export function handleUnauthorized(client: QueryClient, router: NavigatingRouter): void {
  const { location, navigation } = router.state;
  const target = navigation.location ?? location;
  if (isPublicPath(target.pathname)) return;
  client.clear();
  void router.navigate(loginPathFor(target), { replace: true });
}
