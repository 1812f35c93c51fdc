import type { Identity } from '@wcs/contract';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { setupLinks, users } from '../../db/schema.js';
import { AppError, conflict } from '../errors.js';
import { hashPassword } from './passwords.js';
import { randomSecret, secretHash } from './secrets.js';
import { userIdentity } from './users.js';

/** A setup link works once, within this time of being printed. */
export const SETUP_LINK_LIFETIME_MS = 3600 * 1000;

/** A new one-time setup token (printed by the start when no account exists). */
export async function createSetupLink(db: Db): Promise<string> {
  const token = randomSecret();
  await db.insert(setupLinks).values({
    tokenHash: secretHash(token),
    expiresAt: new Date(Date.now() + SETUP_LINK_LIFETIME_MS),
  });
  return token;
}

/** "wcs-set" as a number: one first-admin creation at a time. */
const SETUP_LOCK_KEY = 0x7763_732d_7365;

/**
 * Creates the first admin with a setup token: only while no account exists, once per token,
 * within its hour. Two requests at once take turns; the second finds an account and is refused.
 */
export async function completeSetup(
  db: Db,
  input: { token: string; name: string; password: string },
): Promise<Identity> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SETUP_LOCK_KEY})`);
    const [link] = await tx
      .update(setupLinks)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(setupLinks.tokenHash, secretHash(input.token)),
          isNull(setupLinks.usedAt),
          gt(setupLinks.expiresAt, new Date()),
        ),
      )
      .returning({ id: setupLinks.id });
    if (!link) {
      throw new AppError(
        401,
        'This setup link is not valid: it works once, within an hour. Restart the server for a new one, or run `wcs user add`',
      );
    }
    const [existing] = await tx.select({ id: users.id }).from(users).limit(1);
    if (existing) throw conflict('An account exists already: sign in, or ask an admin for an account');
    const [row] = await tx
      .insert(users)
      .values({ name: input.name, role: 'admin', passwordHash })
      .returning();
    return userIdentity(row!);
  });
}
