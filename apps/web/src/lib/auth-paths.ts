/**
 * The two screens anyone may open (docs/product.md "Signing in, roles and the admin's Settings"),
 * and the `next` address that brings a user back where they were after signing in.
 */
export const LOGIN_PATH = '/login';
export const SETUP_PATH = '/setup';

/** True for /login and /setup: the only screens shown without a session. */
export function isPublicPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return path === LOGIN_PATH || path === SETUP_PATH;
}

/** /login?next=<where the user was>, so signing in returns there. */
export function loginPathFor(location: { pathname: string; search?: string; hash?: string }): string {
  if (isPublicPath(location.pathname)) return LOGIN_PATH;
  const here = `${location.pathname}${location.search ?? ''}${location.hash ?? ''}`;
  return `${LOGIN_PATH}?next=${encodeURIComponent(here)}`;
}

const PROBE_ORIGIN = 'http://app.invalid';

/**
 * Where to go after signing in: a path of this app, else the Dashboard. Never another site
 * (`//host`, `/\host`, `https://host`), so a crafted login link cannot send a user away.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  let url: URL;
  try {
    url = new URL(next, PROBE_ORIGIN);
  } catch {
    return '/';
  }
  if (url.origin !== PROBE_ORIGIN || isPublicPath(url.pathname)) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
