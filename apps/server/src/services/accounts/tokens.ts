import type { ApiToken, Identity, Role } from '@wcs/contract';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { apiTokens, users } from '../../db/schema.js';
import { AppError, conflict, notFound } from '../errors.js';
import { randomSecret, secretHash } from './secrets.js';

/** Every token starts so; a leaked one is easy to recognise (and for secret scanners to find). */
export const TOKEN_PREFIX = 'wcs_';
/** last_used_at is written at most this often per token. */
const TOUCH_EVERY_MS = 60 * 1000;

type TokenRow = typeof apiTokens.$inferSelect;

function toToken(row: TokenRow, createdBy: string | null): ApiToken {
  return {
    id: row.id,
    name: row.name,
    role: row.role as Role,
    created_at: row.createdAt.toISOString(),
    created_by: createdBy,
    expires_at: row.expiresAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** Creates a token; the token itself is returned here only, its SHA-256 is what is stored. */
export async function createToken(
  db: Db,
  input: { name: string; role: Role; expires_in_days?: number | undefined },
  createdBy: Identity | undefined,
): Promise<{ token: string; info: ApiToken }> {
  const token = `${TOKEN_PREFIX}${randomSecret()}`;
  const [row] = await db
    .insert(apiTokens)
    .values({
      name: input.name,
      role: input.role,
      tokenHash: secretHash(token),
      createdByUserId: createdBy?.kind === 'user' ? createdBy.id : null,
      expiresAt: input.expires_in_days ? new Date(Date.now() + input.expires_in_days * 86_400_000) : null,
    })
    .returning();
  return { token, info: toToken(row!, createdBy?.name ?? null) };
}

export async function listTokens(db: Db): Promise<ApiToken[]> {
  const rows = await db
    .select({ token: apiTokens, createdBy: users.name })
    .from(apiTokens)
    .leftJoin(users, eq(users.id, apiTokens.createdByUserId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return rows.map((row) => toToken(row.token, row.createdBy));
}

/** Revokes by id; revoking a revoked token is refused, so a retry's answer says what happened. */
export async function revokeToken(db: Db, id: number): Promise<ApiToken> {
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
    .returning();
  if (!row) {
    const [existing] = await db.select().from(apiTokens).where(eq(apiTokens.id, id));
    if (!existing) throw notFound('Token', id);
    throw conflict(
      `Token ${id} (${existing.name}) was revoked already, at ${existing.revokedAt?.toISOString()}`,
    );
  }
  return toToken(row, null);
}

/** The tokens a name matches (for `wcs token revoke <name or id>`), not revoked yet. */
export async function findActiveTokens(db: Db, nameOrId: string): Promise<TokenRow[]> {
  const id = /^\d+$/.test(nameOrId) ? Number(nameOrId) : null;
  return db
    .select()
    .from(apiTokens)
    .where(
      and(
        isNull(apiTokens.revokedAt),
        id !== null && id <= 2_147_483_647
          ? eq(apiTokens.id, id)
          : sql`lower(${apiTokens.name}) = lower(${nameOrId})`,
      ),
    );
}

/**
 * The identity a bearer token stands for. A revoked or expired token gets a 401 that says so,
 * which a device shows its user (the recorder stops and keeps its spool).
 */
export async function resolveToken(db: Db, token: string): Promise<Identity> {
  const [row] = await db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, secretHash(token)));
  if (!row) throw new AppError(401, 'This token is not valid: ask an admin for a new one (Settings, Tokens)');
  if (row.revokedAt) {
    throw new AppError(
      401,
      `The token ${row.name} was revoked on ${row.revokedAt.toISOString()}: ask an admin for a new one`,
    );
  }
  const now = new Date();
  if (row.expiresAt && row.expiresAt <= now) {
    throw new AppError(
      401,
      `The token ${row.name} expired on ${row.expiresAt.toISOString()}: ask an admin for a new one`,
    );
  }
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.id));
  }
  return { kind: 'token', id: row.id, name: row.name, role: row.role as Role };
}
