import type { Identity } from '@wcs/contract';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { userSessions, users } from '../../db/schema.js';
import { randomSecret } from './secrets.js';
import { userIdentity } from './users.js';

/** A browser stays signed in this long after its last request (docs/security.md). */
export const SESSION_LIFETIME_MS = 30 * 24 * 3600 * 1000;
/** Expiry and last-seen are written at most this often per session, not on every request. */
const TOUCH_EVERY_MS = 3600 * 1000;

export async function createSession(
  db: Db,
  userId: number,
  client: { address?: string; userAgent?: string },
): Promise<string> {
  const id = randomSecret();
  const now = Date.now();
  await db.insert(userSessions).values({
    id,
    userId,
    expiresAt: new Date(now + SESSION_LIFETIME_MS),
    address: client.address ?? null,
    userAgent: client.userAgent?.slice(0, 300) ?? null,
  });
  return id;
}

/** The user of a live session, or null when it was signed out, expired or its user deleted. */
export async function resolveSession(db: Db, sessionId: string): Promise<Identity | null> {
  const now = new Date();
  const [row] = await db
    .select({ id: users.id, name: users.name, role: users.role, lastSeenAt: userSessions.lastSeenAt })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .where(and(eq(userSessions.id, sessionId), gt(userSessions.expiresAt, now)));
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db
      .update(userSessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS) })
      .where(eq(userSessions.id, sessionId));
  }
  return userIdentity(row);
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(userSessions).where(eq(userSessions.id, sessionId));
}

/** Removes expired sessions (at start). */
export async function pruneSessions(db: Db): Promise<number> {
  const rows = await db
    .delete(userSessions)
    .where(lt(userSessions.expiresAt, new Date()))
    .returning({ id: userSessions.id });
  return rows.length;
}
