import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { serverSecrets } from '../../db/schema.js';

/** A new random secret: 32 bytes, URL-safe text (a session id, a device token, a setup link). */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * How a high-entropy secret (a token, a session id, a setup link) is stored and looked up:
 * SHA-256, as GitHub stores its tokens. A slow password hash is for guessable secrets only.
 */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * The key that seals session cookies, made once and shared by every process of the database
 * (two processes racing here both read the one row the first inserted).
 */
export async function sessionCookieKey(db: Db): Promise<Buffer> {
  await db
    .insert(serverSecrets)
    .values({ name: 'session_cookie_key', value: randomBytes(32).toString('base64') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, 'session_cookie_key'));
  return Buffer.from(row!.value, 'base64');
}
