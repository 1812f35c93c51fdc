import { type Access, api, type Endpoint, type Role } from '@wcs/contract';
import { desc } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../db/schema.js';
import { createSetupLink } from '../services/accounts/setup-links.js';
import { chunkUpload, sineWav, uploadInject } from '../test/audio.js';
import { createTestApp } from '../test/harness.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ROLES: Role[] = ['viewer', 'dj', 'admin'];
const RANK: Record<Access, number> = { anonymous: -1, viewer: 0, dj: 1, admin: 2 };
const ORIGIN = 'http://localhost';

/** A concrete URL of an endpoint: every path parameter is 1. */
function urlOf(endpoint: Endpoint): string {
  return `/api${endpoint.path.replace(/:(\w+)/g, '1')}`;
}

function requestOf(endpoint: Endpoint): InjectOptions {
  return {
    method: endpoint.method,
    url: urlOf(endpoint),
    ...(endpoint.method === 'GET' || endpoint.method === 'DELETE' ? {} : { payload: {} }),
  };
}

/** Signs in through the API as a browser does; returns the cookie header to send. */
async function signIn(name: string, password: string): Promise<string> {
  const response = await t.injectAs('anonymous', {
    method: 'POST',
    url: '/api/auth/login',
    headers: { origin: ORIGIN },
    payload: { name, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  const cookie = response.cookies.find((c) => c.name === 'wcs_session');
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe('Lax');
  // As sent: the parsed value is decoded, and the sealed value holds characters a cookie encodes.
  const header = [response.headers['set-cookie']].flat().find((line) => line?.startsWith('wcs_session='));
  return header!.split(';')[0]!;
}

async function addUser(name: string, role: Role, password = 'correct horse battery'): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/users',
    payload: { name, role, password },
  });
  expect(response.statusCode, response.body).toBe(201);
}

const endpoints = Object.entries(api) as Array<[string, Endpoint]>;

describe('who may call what', () => {
  const guarded = endpoints.filter(([, endpoint]) => endpoint.access !== 'anonymous');

  it('states an access for every operation, and the API document says it', () => {
    const document = t.app.swagger() as { paths: Record<string, Record<string, { description?: string }>> };
    for (const [name, endpoint] of endpoints) {
      expect(['anonymous', ...ROLES], name).toContain(endpoint.access);
      const path = `/api${endpoint.path.replace(/:(\w+)/g, '{$1}')}`;
      const operation = document.paths[path]?.[endpoint.method.toLowerCase()];
      expect(operation?.description ?? '', name).toMatch(/^Who may call it: /);
    }
  });

  it.each(guarded)('%s refuses an anonymous request with 401', async (_name, endpoint) => {
    const response = await t.injectAs('anonymous', { ...requestOf(endpoint), headers: { origin: ORIGIN } });
    expect(response.statusCode, response.body).toBe(401);
    expect(response.json().message).toMatch(/Sign in/);
  });

  const forbidden = guarded.flatMap(([name, endpoint]) =>
    ROLES.filter((role) => RANK[role] < RANK[endpoint.access]).map((role) => [name, role, endpoint] as const),
  );
  it.each(forbidden)('%s refuses the role %s with 403', async (_name, role, endpoint) => {
    const response = await t.injectAs(role, requestOf(endpoint));
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json().message).toContain(`needs ${endpoint.access}`);
  });

  const readable = endpoints.filter(
    ([, endpoint]) => endpoint.method === 'GET' && endpoint.access === 'viewer',
  );
  it.each(readable)('%s lets a viewer read', async (_name, endpoint) => {
    const response = await t.injectAs('viewer', requestOf(endpoint));
    expect([401, 403]).not.toContain(response.statusCode);
  });

  it('refuses the live socket to an anonymous client and to a page of another site', async () => {
    const socket = (headers: Record<string, string>) =>
      t.app.injectWS('/api/ws/recordings/s1', { headers: { host: 'localhost', ...headers } });
    await expect(socket({})).rejects.toThrow(/401/);
    await expect(
      socket({ authorization: `Bearer ${t.tokens.viewer}`, origin: 'https://evil.example' }),
    ).rejects.toThrow(/403/);
    const ws = await socket({ authorization: `Bearer ${t.tokens.viewer}`, origin: ORIGIN });
    ws.terminate();
  });
});

describe('browser defences', () => {
  let cookie: string;
  beforeAll(async () => {
    await addUser('carla', 'dj');
    cookie = await signIn('carla', 'correct horse battery');
  });

  const createEvent = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/events/',
      headers: { cookie, ...headers },
      payload: { event_name: 'Cross-site test', start_date: '2026-05-01', end_date: '2026-05-01' },
    });

  it('acts on a same-origin request made with the session cookie', async () => {
    const response = await createEvent({ origin: ORIGIN });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('refuses a cross-origin request with the cookie, and one without Origin', async () => {
    const crossSite = await createEvent({ origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().message).toMatch(/evil\.example may not act/);
    const noOrigin = await createEvent({});
    expect(noOrigin.statusCode).toBe(403);
  });

  it('answers 421 to a Host it does not serve, before anything else', async () => {
    for (const url of ['/api/health', '/api/events/', '/']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { host: 'rebind.evil.example' } });
      expect(response.statusCode, url).toBe(421);
    }
    const byAddress = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { host: '192.168.1.20:8443' },
    });
    expect(byAddress.statusCode).toBe(200);
  });

  it('sends security headers with a content security policy', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('signs out: the old cookie no longer works', async () => {
    const mine = await signIn('carla', 'correct horse battery');
    const before = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: mine } });
    expect(before.json().identity).toMatchObject({ kind: 'user', name: 'carla', role: 'dj' });
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: mine, origin: ORIGIN },
    });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/events/', headers: { cookie: mine } });
    expect(after.statusCode).toBe(401);
  });
});

describe('sign-in', () => {
  it('refuses a wrong password and an unknown name alike', async () => {
    await addUser('dora', 'viewer');
    for (const payload of [
      { name: 'dora', password: 'wrong password' },
      { name: 'nobody', password: 'wrong password' },
    ]) {
      const response = await t.injectAs('anonymous', { method: 'POST', url: '/api/auth/login', payload });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe('The name or the password is wrong');
    }
  });

  it('limits attempts per account and address to 10 a minute', async () => {
    await addUser('erin', 'viewer');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const response = await t.injectAs('anonymous', {
        method: 'POST',
        url: '/api/auth/login',
        payload: { name: 'erin', password: `guess ${i}` },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Another account from the same address is not locked out by erin's attempts.
    const other = await t.injectAs('anonymous', {
      method: 'POST',
      url: '/api/auth/login',
      payload: { name: 'dora', password: 'correct horse battery' },
    });
    expect(other.statusCode).toBe(200);
  });

  it('names names case-insensitively and refuses a second account of the same name', async () => {
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      payload: { name: 'DORA', role: 'dj', password: 'another password' },
    });
    expect(again.statusCode).toBe(409);
    await signIn('Dora', 'correct horse battery');
  });

  it('a new password signs out the browsers of the account', async () => {
    await addUser('finn', 'dj');
    const cookie = await signIn('finn', 'correct horse battery');
    const users = (await t.app.inject({ method: 'GET', url: '/api/users' })).json() as Array<{
      id: number;
      name: string;
    }>;
    const finn = users.find((user) => user.name === 'finn')!;
    const reset = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${finn.id}`,
      payload: { password: 'a brand new password' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/events/', headers: { cookie } });
    expect(after.statusCode).toBe(401);
    await signIn('finn', 'a brand new password');
  });
});

describe('first-run setup link', () => {
  it('creates the first admin once, and only while no account exists', async () => {
    const fresh = await createTestApp();
    try {
      const session = await fresh.injectAs('anonymous', { method: 'GET', url: '/api/auth/session' });
      expect(session.json()).toMatchObject({ identity: null, setup_required: true });
      const token = await createSetupLink(fresh.deps.db);
      const setup = (setupToken: string, name: string) =>
        fresh.injectAs('anonymous', {
          method: 'POST',
          url: '/api/auth/setup',
          headers: { origin: ORIGIN },
          payload: { token: setupToken, name, password: 'first admin password' },
        });
      expect((await setup('not-the-token', 'mallory')).statusCode).toBe(401);
      const created = await setup(token, 'ada');
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().identity).toMatchObject({ name: 'ada', role: 'admin' });
      expect(created.cookies.some((c) => c.name === 'wcs_session')).toBe(true);
      // Used once: a second use is refused, and so is a fresh link now that an account exists.
      expect((await setup(token, 'eve')).statusCode).toBe(401);
      expect((await setup(await createSetupLink(fresh.deps.db), 'eve')).statusCode).toBe(409);
    } finally {
      await fresh.close();
    }
  });
});

describe('device tokens', () => {
  it('a revoked token gets 401 with a message saying so', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/tokens',
      payload: { name: 'pi by the speakers', role: 'dj' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { token, info } = created.json() as { token: string; info: { id: number } };
    const call = () =>
      t.app.inject({ method: 'GET', url: '/api/events/', headers: { authorization: `Bearer ${token}` } });
    expect((await call()).statusCode).toBe(200);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/tokens' })).json() as Array<{
      id: number;
      last_used_at: string | null;
    }>;
    expect(listed.find((row) => row.id === info.id)?.last_used_at).not.toBeNull();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/tokens/${info.id}` })).statusCode).toBe(200);
    const after = await call();
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toMatch(/pi by the speakers was revoked/);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/tokens/${info.id}` })).statusCode).toBe(409);
  });

  it('refuses a token that is not one and a malformed Authorization header', async () => {
    for (const authorization of ['Bearer wcs_not-a-token', 'Basic abc', 'Bearer']) {
      const response = await t.app.inject({ method: 'GET', url: '/api/events/', headers: { authorization } });
      expect(response.statusCode, authorization).toBe(401);
    }
  });
});

describe('ownership and the last admin', () => {
  it('a dj deletes only recordings it made; an admin deletes any', async () => {
    const upload = (role: Role, session: string) =>
      t.injectAs(
        role,
        uploadInject(chunkUpload({ session_id: session, chunk_number: 0, audio: sineWav(1) })),
      );
    const mine = (await upload('dj', 'dj-own')).json() as {
      recording_id: number;
      recording: { created_by: unknown };
    };
    expect(mine.recording.created_by).toMatchObject({ kind: 'token', name: 'test-dj' });
    const theirs = (await upload('admin', 'admin-own')).json() as { recording_id: number };
    const remove = (role: Role, id: number) =>
      t.injectAs(role, { method: 'DELETE', url: `/api/recordings/${id}` });
    const refused = await remove('dj', theirs.recording_id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/made by someone else/);
    expect((await remove('dj', mine.recording_id)).statusCode).toBe(200);
    expect((await remove('admin', theirs.recording_id)).statusCode).toBe(200);
    const filtered = await t.app.inject({ method: 'GET', url: '/api/recordings/?created_by_token_id=1' });
    expect(filtered.statusCode).toBe(200);
  });

  it('never leaves the server without an admin', async () => {
    await addUser('gail', 'admin');
    const users = (await t.app.inject({ method: 'GET', url: '/api/users' })).json() as Array<{
      id: number;
      name: string;
      role: string;
    }>;
    const gail = users.find((user) => user.name === 'gail')!;
    const demote = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${gail.id}`,
      payload: { role: 'viewer' },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toMatch(/no admin/);
    const remove = await t.app.inject({ method: 'DELETE', url: `/api/users/${gail.id}` });
    expect(remove.statusCode).toBe(409);
  });
});

describe('audit log', () => {
  it('records who changed what, when and from where, and filters by user and kind', async () => {
    await addUser('hana', 'dj');
    const cookie = await signIn('hana', 'correct horse battery');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/events/',
      headers: { cookie, origin: ORIGIN },
      payload: { event_name: 'Audited social', start_date: '2026-06-01', end_date: '2026-06-01' },
    });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { event_id: number }).event_id;
    await t.app.inject({ method: 'DELETE', url: `/api/events/${id}`, headers: { cookie, origin: ORIGIN } });

    const users = (await t.app.inject({ method: 'GET', url: '/api/users' })).json() as Array<{
      id: number;
      name: string;
    }>;
    const hana = users.find((user) => user.name === 'hana')!;
    const log = await t.app.inject({ method: 'GET', url: `/api/audit?user_id=${hana.id}` });
    expect(log.statusCode).toBe(200);
    const entries = (log.json() as { data: Array<Record<string, unknown>> }).data;
    expect(entries.map((entry) => entry.action)).toEqual(['denied', 'create', 'sign_in']);
    expect(entries[1]).toMatchObject({
      actor_kind: 'user',
      actor_name: 'hana',
      kind: 'events',
      method: 'POST',
      status: 201,
      address: '127.0.0.1',
    });
    const byKind = (await t.app.inject({ method: 'GET', url: '/api/audit?kind=session' })).json() as {
      data: Array<{ action: string }>;
    };
    expect(byKind.data.some((entry) => entry.action === 'sign_in_failed')).toBe(true);
    expect((await t.deps.db.select().from(auditLog)).length).toBeGreaterThan(3);
  });

  it('writes the entry before the answer leaves: no change is answered while its entry cannot be written', async () => {
    // Another session holds the audit log: the change's entry waits for it, and so must the answer.
    const holder = new pg.Client({ connectionString: t.databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table audit_log in exclusive mode');
      let answered = false;
      const created = t.app
        .inject({
          method: 'POST',
          url: '/api/events/',
          payload: { event_name: 'Audited first', start_date: '2026-07-01', end_date: '2026-07-01' },
        })
        .finally(() => {
          answered = true;
        });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(answered).toBe(false);
      await holder.query('commit');
      const response = await created;
      expect(response.statusCode).toBe(201);
      const [entry] = await t.deps.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
      expect(entry).toMatchObject({ action: 'create', method: 'POST', path: '/api/events/', status: 201 });
    } finally {
      await holder.end();
    }
  });
});
