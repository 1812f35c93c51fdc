import { QueryClient } from '@tanstack/react-query';
import type { SessionInfo } from '@wcs/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_KEY } from '../lib/session';
import {
  handleUnauthorized,
  type NavigatingRouter,
  redirectWhenSignedIn,
  requireSignedIn,
} from './session-guard';

afterEach(() => vi.unstubAllGlobals());

const signedOut: SessionInfo = { identity: null, setup_required: false, demo: false };
const signedIn: SessionInfo = {
  identity: { kind: 'user', id: 1, name: 'ada', role: 'admin' },
  setup_required: false,
  demo: false,
};

function clientWith(session?: SessionInfo): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (session) client.setQueryData(SESSION_KEY, session);
  return client;
}

/** Runs a loader as React Router would, for an address of the app. */
async function run(loader: ReturnType<typeof requireSignedIn>, path: string): Promise<Response | null> {
  try {
    await loader({ request: new Request(`http://127.0.0.1:8080${path}`) });
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe('requireSignedIn', () => {
  it('sends a signed-out visitor to the login page with the address to come back to', async () => {
    const redirect = await run(requireSignedIn(clientWith(signedOut)), '/analytics?eventId=4');
    expect(redirect?.status).toBe(302);
    expect(redirect?.headers.get('Location')).toBe('/login?next=%2Fanalytics%3FeventId%3D4');
  });
  it('lets a signed-in user through', async () => {
    expect(await run(requireSignedIn(clientWith(signedIn)), '/settings')).toBeNull();
  });
  it('asks the server once when the session is not known yet', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(signedOut), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const client = clientWith();
    const redirect = await run(requireSignedIn(client), '/');
    expect(redirect?.headers.get('Location')).toBe('/login?next=%2F');
    await run(requireSignedIn(client), '/songs');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect((fetchMock.mock.calls[0] as unknown as [string])[0]).toBe('/api/auth/session');
  });
});

describe('redirectWhenSignedIn', () => {
  it('shows the login page to a signed-out visitor', async () => {
    expect(await run(redirectWhenSignedIn(clientWith(signedOut)), '/login?next=%2Fsongs')).toBeNull();
  });
  it('sends a signed-in user on to next, or to the Dashboard when next is not of this app', async () => {
    const client = clientWith(signedIn);
    expect((await run(redirectWhenSignedIn(client), '/login?next=%2Fsongs'))?.headers.get('Location')).toBe(
      '/songs',
    );
    expect(
      (await run(redirectWhenSignedIn(client), '/login?next=https%3A%2F%2Fevil.example'))?.headers.get(
        'Location',
      ),
    ).toBe('/');
    expect((await run(redirectWhenSignedIn(client), '/setup?token=abc'))?.headers.get('Location')).toBe('/');
  });
});

describe('handleUnauthorized', () => {
  function routerAt(
    pathname: string,
    search = '',
    navigatingTo?: string,
  ): NavigatingRouter & { calls: string[] } {
    const calls: string[] = [];
    return {
      calls,
      state: {
        location: { pathname, search, hash: '' },
        navigation: navigatingTo ? { location: { pathname: navigatingTo, search: '', hash: '' } } : {},
      },
      navigate: async (to) => {
        calls.push(to);
      },
    };
  }

  it('empties the cache and opens the login page with the address to come back to', () => {
    const client = clientWith(signedIn);
    client.setQueryData(['songs', 'list'], ['a secret song']);
    const router = routerAt('/songs', '?genre=blues');
    handleUnauthorized(client, router);
    expect(router.calls).toEqual(['/login?next=%2Fsongs%3Fgenre%3Dblues']);
    expect(client.getQueryData(SESSION_KEY)).toBeUndefined();
    expect(client.getQueryData(['songs', 'list'])).toBeUndefined();
  });
  it('does nothing more while the login page opens or is open (several calls failing together)', () => {
    const client = clientWith(signedOut);
    const leaving = routerAt('/songs', '', '/login');
    handleUnauthorized(client, leaving);
    const onLogin = routerAt('/login');
    handleUnauthorized(client, onLogin);
    expect([...leaving.calls, ...onLogin.calls]).toEqual([]);
    expect(client.getQueryData(SESSION_KEY)).toEqual(signedOut);
  });
});
