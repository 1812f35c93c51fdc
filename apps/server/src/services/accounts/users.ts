import type { Identity, Role, User } from '@wcs/contract';
import { and, count, eq, gt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { userSessions, users } from '../../db/schema.js';
import { AppError, badRequest, conflict, notFound } from '../errors.js';
import { hashPassword, verifyPassword } from './passwords.js';

type UserRow = typeof users.$inferSelect;

/** "wcs-adm" as a number: the transaction lock of changes that could remove the last admin. */
const ADMIN_LOCK_KEY = 0x7763_732d_6164;

function toUser(row: UserRow, activeSessions: number): User {
  return {
    id: row.id,
    name: row.name,
    role: row.role as Role,
    created_at: row.createdAt.toISOString(),
    password_changed_at: row.passwordChangedAt.toISOString(),
    active_sessions: activeSessions,
  };
}

export function userIdentity(row: Pick<UserRow, 'id' | 'name' | 'role'>): Identity {
  return { kind: 'user', id: row.id, name: row.name, role: row.role as Role };
}

export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

export async function findUserByName(db: Db, name: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.name}) = lower(${name})`);
  return row;
}

async function sessionCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .select({ userId: userSessions.userId, n: count() })
    .from(userSessions)
    .where(gt(userSessions.expiresAt, new Date()))
    .groupBy(userSessions.userId);
  return new Map(rows.map((row) => [row.userId, row.n]));
}

export async function listUsers(db: Db): Promise<User[]> {
  const [rows, sessions] = await Promise.all([
    db.select().from(users).orderBy(users.name),
    sessionCounts(db),
  ]);
  return rows.map((row) => toUser(row, sessions.get(row.id) ?? 0));
}

export async function getUser(db: Db, id: number): Promise<User> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw notFound('User', id);
  return toUser(row, (await sessionCounts(db)).get(id) ?? 0);
}

/** Creates an account; the name is unique without regard to case. */
export async function createUser(
  db: Db,
  input: { name: string; role: Role; password: string },
): Promise<User> {
  if (await findUserByName(db, input.name)) throw conflict(`An account named ${input.name} exists already`);
  const passwordHash = await hashPassword(input.password);
  const [row] = await db
    .insert(users)
    .values({ name: input.name, role: input.role, passwordHash })
    .onConflictDoNothing()
    .returning();
  // A second request with the same name may have won between the check and the insert.
  if (!row) throw conflict(`An account named ${input.name} exists already`);
  return toUser(row, 0);
}

/** Refuses a change that would leave the server without an admin. */
async function assertAnotherAdmin(db: Db, id: number, what: string): Promise<void> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'admin'), ne(users.id, id)));
  if ((row?.n ?? 0) === 0) throw conflict(`${what} would leave no admin: make another account admin first`);
}

/**
 * Changes a role or sets a new password. A new password signs out every browser of the account,
 * since whoever knew the old one may be signed in.
 */
export async function updateUser(
  db: Db,
  id: number,
  change: { role?: Role; password?: string },
): Promise<User> {
  const passwordHash = change.password === undefined ? undefined : await hashPassword(change.password);
  await db.transaction(async (tx) => {
    // Serialise role changes, so two demotions at once cannot both see the other admin.
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_LOCK_KEY})`);
    const [row] = await tx.select().from(users).where(eq(users.id, id));
    if (!row) throw notFound('User', id);
    if (change.role && change.role !== 'admin' && row.role === 'admin') {
      await assertAnotherAdmin(tx as unknown as Db, id, `Making ${row.name} ${change.role}`);
    }
    await tx
      .update(users)
      .set({
        ...(change.role ? { role: change.role } : {}),
        ...(passwordHash ? { passwordHash, passwordChangedAt: new Date() } : {}),
      })
      .where(eq(users.id, id));
    if (passwordHash) await tx.delete(userSessions).where(eq(userSessions.userId, id));
  });
  return getUser(db, id);
}

export async function deleteUser(db: Db, id: number, by: Identity | undefined): Promise<{ message: string }> {
  if (by?.kind === 'user' && by.id === id) {
    throw conflict('You cannot delete your own account; another admin can');
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_LOCK_KEY})`);
    const [row] = await tx.select().from(users).where(eq(users.id, id));
    if (!row) throw notFound('User', id);
    if (row.role === 'admin') await assertAnotherAdmin(tx as unknown as Db, id, `Deleting ${row.name}`);
    await tx.delete(users).where(eq(users.id, id));
    return {
      message: `Deleted the account ${row.name}; its recordings and changes keep its name in the audit log`,
    };
  });
}

/** Checks a name and password; the same answer whether the name or the password was wrong. */
export async function authenticate(db: Db, name: string, password: string): Promise<UserRow> {
  const row = await findUserByName(db, name);
  const ok = await verifyPassword(row?.passwordHash, password);
  if (!row || !ok) throw new AppError(401, 'The name or the password is wrong');
  return row;
}

export async function changeOwnPassword(
  db: Db,
  identity: Identity,
  input: { current_password: string; new_password: string },
  keepSessionId: string | undefined,
): Promise<{ message: string }> {
  if (identity.kind !== 'user') throw badRequest('A device token has no password');
  const [row] = await db.select().from(users).where(eq(users.id, identity.id));
  if (!row) throw notFound('User', identity.id);
  if (!(await verifyPassword(row.passwordHash, input.current_password))) {
    throw badRequest('The current password is wrong', 'body.current_password');
  }
  const passwordHash = await hashPassword(input.new_password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, passwordChangedAt: new Date() }).where(eq(users.id, row.id));
    await tx
      .delete(userSessions)
      .where(
        keepSessionId
          ? and(eq(userSessions.userId, row.id), ne(userSessions.id, keepSessionId))
          : eq(userSessions.userId, row.id),
      );
  });
  return { message: 'Password changed; your other browsers are signed out' };
}
