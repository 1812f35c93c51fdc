import fs from 'node:fs';
import path from 'node:path';
import { api, type Identity, type SessionInfo } from '@wcs/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEMO_MARKER_FILE } from '../config.js';
import type { AppDeps } from '../deps.js';
import { listAudit, recordAudit } from '../services/accounts/audit.js';
import { createSession, deleteSession } from '../services/accounts/sessions.js';
import { completeSetup } from '../services/accounts/setup-links.js';
import { createToken, listTokens, revokeToken } from '../services/accounts/tokens.js';
import {
  authenticate,
  changeOwnPassword,
  countUsers,
  createUser,
  deleteUser,
  listUsers,
  updateUser,
  userIdentity,
} from '../services/accounts/users.js';
import { AppError } from '../services/errors.js';
import { clientAddress } from './access.js';
import { route } from './define.js';

/** Sign-in attempts per minute for one account from one address (docs/security.md). */
const LOGIN_ATTEMPTS_PER_MINUTE = 10;

function loginKey(request: FastifyRequest): string {
  const name = (request.body as { name?: unknown } | undefined)?.name;
  return `${request.ip}|${typeof name === 'string' ? name.trim().toLowerCase() : ''}`;
}

/** Sign-in, first-run setup, the accounts and tokens an admin manages, and the audit log. */
export async function accountRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;
  const tag = 'accounts';
  // The demo's data folder carries the seed's marker file: its login page names the demo account.
  const isDemo = fs.existsSync(path.join(deps.config.dataDir, DEMO_MARKER_FILE));

  const sessionInfo = async (identity: Identity | undefined): Promise<SessionInfo> => ({
    identity: identity ?? null,
    setup_required: identity ? false : (await countUsers(db)) === 0,
    demo: isDemo,
  });
  const audit = (
    request: FastifyRequest,
    action: string,
    summary: string,
    actor: Identity | undefined,
    name?: string,
  ) =>
    recordAudit(db, {
      actor,
      ...(name === undefined ? {} : { actorName: name }),
      action,
      kind: 'session',
      summary,
      method: request.method,
      path: request.routeOptions.url ?? request.url,
      address: clientAddress(request),
    });

  route(app, tag, api.session, ({ request }) => sessionInfo(request.identity));

  const perAccount = {
    rateLimit: {
      max: LOGIN_ATTEMPTS_PER_MINUTE,
      timeWindow: 60_000,
      // After the body is read, so the key holds the account name.
      hook: 'preHandler' as const,
      keyGenerator: loginKey,
    },
  };
  route(
    app,
    tag,
    api.login,
    async ({ body, request }) => {
      let user: Awaited<ReturnType<typeof authenticate>>;
      try {
        user = await authenticate(db, body.name, body.password);
      } catch (error) {
        if (error instanceof AppError)
          await audit(request, 'sign_in_failed', `Sign-in failed for ${body.name}`, undefined, body.name);
        throw error;
      }
      const identity = userIdentity(user);
      const sessionId = await createSession(db, user.id, {
        address: clientAddress(request),
        ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
      });
      request.session.set('sid', sessionId);
      await audit(request, 'sign_in', `${user.name} signed in`, identity);
      return sessionInfo(identity);
    },
    perAccount,
  );

  route(app, tag, api.logout, async ({ request }) => {
    if (request.sessionId) {
      await deleteSession(db, request.sessionId);
      await audit(request, 'sign_out', `${request.identity?.name} signed out`, request.identity);
    }
    request.session.delete();
    return sessionInfo(undefined);
  });

  route(
    app,
    tag,
    api.setup,
    async ({ body, request }) => {
      const identity = await completeSetup(db, body);
      const sessionId = await createSession(db, identity.id, { address: clientAddress(request) });
      request.session.set('sid', sessionId);
      await audit(request, 'setup', `${identity.name} was created as the first admin`, identity);
      return sessionInfo(identity);
    },
    { rateLimit: { max: LOGIN_ATTEMPTS_PER_MINUTE, timeWindow: 60_000 } },
  );

  route(app, tag, api.changePassword, ({ body, request }) =>
    changeOwnPassword(db, request.identity!, body, request.sessionId),
  );

  route(app, 'users', api.listUsers, () => listUsers(db));
  route(app, 'users', api.createUser, ({ body }) => createUser(db, body));
  route(app, 'users', api.updateUser, ({ params, body }) => updateUser(db, params.id, body));
  route(app, 'users', api.deleteUser, ({ params, request }) => deleteUser(db, params.id, request.identity));

  route(app, 'tokens', api.listTokens, () => listTokens(db));
  route(app, 'tokens', api.createToken, ({ body, request }) => createToken(db, body, request.identity));
  route(app, 'tokens', api.revokeToken, ({ params }) => revokeToken(db, params.id));

  route(app, 'audit', api.auditLog, ({ query }) => listAudit(db, query));
}
