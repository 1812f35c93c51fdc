import net from 'node:net';
import fastifySecureSession from '@fastify/secure-session';
import { type Access, type ErrorResponse, type Identity, roleAllows } from '@wcs/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.js';
import { recordAudit } from '../services/accounts/audit.js';
import { sessionCookieKey } from '../services/accounts/secrets.js';
import { resolveSession, SESSION_LIFETIME_MS } from '../services/accounts/sessions.js';
import { resolveToken } from '../services/accounts/tokens.js';
import { forbidden, unauthorized } from '../services/errors.js';

/**
 * Who may call what (docs/security.md). Every route under /api states its `access` in its config;
 * a route without one is refused at registration. On each request: the Host must be one this
 * server answers for (421), the caller is found from a bearer token or the session cookie, a
 * state-changing request made with the cookie must come from this server's own pages (Origin),
 * and the caller's role must reach the route's access (401 without a caller, 403 below it).
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user or the device token; undefined for an anonymous request. */
    identity: Identity | undefined;
    /** How the identity came: the session cookie, or an Authorization: Bearer header. */
    authVia: 'cookie' | 'bearer' | undefined;
    /** The id of the browser's session row, when signed in with the cookie. */
    sessionId: string | undefined;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

declare module '@fastify/secure-session' {
  interface SessionData {
    sid: string;
  }
}

export const SESSION_COOKIE = 'wcs_session';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function refuse(reply: FastifyReply, status: number, message: string) {
  const body: ErrorResponse = { message };
  return reply.status(status).send(body);
}

/** The host name of a Host header value, without port or IPv6 brackets, lower-cased. */
function hostName(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(1, trimmed.indexOf(']'));
  const colon = trimmed.lastIndexOf(':');
  return colon > 0 && trimmed.indexOf(':') === colon ? trimmed.slice(0, colon) : trimmed;
}

export function isAllowedHost(host: string | undefined, allowed: readonly string[]): boolean {
  if (!host) return false;
  const name = hostName(host);
  if (net.isIP(name) !== 0) return true;
  return allowed.some((pattern) =>
    pattern.startsWith('*.')
      ? name.endsWith(pattern.slice(1)) && name.length > pattern.length - 1
      : name === pattern,
  );
}

/** True when the Origin header names this very server (scheme aside: a proxy may end TLS). */
function isSameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  const host = request.headers.host;
  if (!origin || !host || !URL.canParse(origin)) return false;
  const from = new URL(origin);
  // Parsed with the origin's scheme, so an explicit default port (Host: name:80) compares equal.
  const self = `${from.protocol}//${host}`;
  return URL.canParse(self) && new URL(self).host === from.host;
}

/** Where an audit line says a request came from. */
export function clientAddress(request: FastifyRequest): string {
  return request.ip;
}

/** Finds the caller; a bearer token that is not valid is a 401 whatever the route. */
async function identify(deps: AppDeps, request: FastifyRequest): Promise<void> {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S{1,200})$/i.exec(authorization.trim());
    if (!match) throw unauthorized('Send the token as "Authorization: Bearer <token>"');
    request.identity = await resolveToken(deps.db, match[1]!);
    request.authVia = 'bearer';
    return;
  }
  const sessionId = request.session?.get('sid');
  if (typeof sessionId !== 'string') return;
  const identity = await resolveSession(deps.db, sessionId);
  if (!identity) {
    // Signed out elsewhere, expired, or the account was deleted: forget the cookie.
    request.session.delete();
    return;
  }
  request.identity = identity;
  request.authVia = 'cookie';
  request.sessionId = sessionId;
}

function checkAccess(request: FastifyRequest, access: Access): void {
  if (access === 'anonymous') return;
  const identity = request.identity;
  if (!identity)
    throw unauthorized('Sign in first (or send a device token as "Authorization: Bearer <token>")');
  if (!roleAllows(identity.role, access)) {
    throw forbidden(
      `${identity.kind === 'token' ? `The token ${identity.name}` : `Your account ${identity.name}`} has the role ${identity.role}; this needs ${access}. Ask an admin.`,
    );
  }
}

export async function registerAccessControl(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { config } = deps;
  app.decorateRequest('identity', undefined);
  app.decorateRequest('authVia', undefined);
  app.decorateRequest('sessionId', undefined);

  // Every API route says who may call it; forgetting is a start-up failure, never an open route.
  app.addHook('onRoute', (options) => {
    const url = options.url ?? '';
    if (!url.startsWith('/api/') || url.startsWith('/api/docs')) return;
    if (options.config?.access === undefined) {
      throw new Error(`Route ${options.method} ${url} does not state who may call it (config.access)`);
    }
  });

  await app.register(fastifySecureSession, {
    key: await sessionCookieKey(deps.db),
    cookieName: SESSION_COOKIE,
    expiry: SESSION_LIFETIME_MS / 1000,
    cookie: {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      // Secure whenever the request came over TLS (directly, or through a trusted proxy).
      secure: 'auto',
      maxAge: SESSION_LIFETIME_MS / 1000,
    },
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!isAllowedHost(request.headers.host, config.allowedHosts)) {
      return refuse(
        reply,
        421,
        `This server does not answer for the name ${request.headers.host ?? '(none)'}: open it by its address, or add the name to WCS_ALLOWED_HOSTS`,
      );
    }
    if (!request.url.startsWith('/api/')) return;
    await identify(deps, request);
    const isSocket = request.headers.upgrade?.toLowerCase() === 'websocket';
    // A browser always sends Origin with these: another site's page may not act here, and a
    // request riding on the session cookie must show it comes from this server's own pages.
    if (UNSAFE_METHODS.has(request.method) || isSocket) {
      const origin = request.headers.origin;
      const crossSite = origin !== undefined ? !isSameOrigin(request) : request.authVia === 'cookie';
      if (crossSite) {
        return refuse(
          reply,
          403,
          origin === undefined
            ? 'Refused: a request signed in by cookie must carry an Origin header (send a token instead from scripts)'
            : `Refused: a page of ${origin} may not act on this server`,
        );
      }
    }
    if (request.url.startsWith('/api/docs')) {
      checkAccess(request, 'viewer');
      return;
    }
    const access = request.routeOptions.config?.access;
    if (access !== undefined) checkAccess(request, access);
  });

  // Every change made through the API is written down: who, what, when, from where. Before the
  // answer leaves (onSend, its status known): a client that saw its change done finds it in the
  // log, and a crash after the answer cannot lose the entry.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!UNSAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return payload;
    const status = reply.statusCode;
    const isAuthRoute = request.url.startsWith('/api/auth/');
    if (isAuthRoute || (status >= 400 && status !== 403)) return payload;
    const schema = request.routeOptions.schema as { tags?: string[]; summary?: string } | undefined;
    const params = request.params as { id?: unknown } | undefined;
    const action =
      status === 403
        ? 'denied'
        : request.method === 'DELETE'
          ? 'delete'
          : request.method === 'POST'
            ? 'create'
            : 'update';
    try {
      await recordAudit(deps.db, {
        actor: request.identity,
        action,
        kind: schema?.tags?.[0] ?? 'api',
        targetId: params?.id === undefined ? null : String(params.id),
        summary: schema?.summary ?? `${request.method} ${request.routeOptions.url}`,
        method: request.method,
        path: request.url,
        status,
        address: clientAddress(request),
      });
    } catch (error) {
      request.log.error({ err: error }, 'could not write the audit log');
    }
    return payload;
  });
}
