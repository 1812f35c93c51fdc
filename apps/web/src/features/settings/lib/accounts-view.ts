import type { ApiToken, AuditEntry } from '@wcs/contract';
import { formatDateTime } from '../../../lib/format';

/** What the admin's sections of Settings show (docs/product.md "Signing in, roles and the admin's Settings"). */

export type TokenStatus = { label: string; tone: 'success' | 'error' | 'warning' };

/** Revoked (when), Expired (when), or Active; revoked wins over expired. */
export function tokenStatus(
  token: Pick<ApiToken, 'revoked_at' | 'expires_at'>,
  now = Date.now(),
): TokenStatus {
  if (token.revoked_at) return { label: `Revoked ${formatDateTime(token.revoked_at)}`, tone: 'error' };
  if (token.expires_at && Date.parse(token.expires_at) <= now) {
    return { label: `Expired ${formatDateTime(token.expires_at)}`, tone: 'warning' };
  }
  return { label: 'Active', tone: 'success' };
}

/** The line that starts the device recorder with a token, against this very server. */
export function recorderCommand(origin: string, token: string): string {
  return `wcs record --server ${origin} --token ${token}`;
}

/** The contract's bounds of a token's lifetime in days (TokenCreate.expires_in_days). */
export const TOKEN_EXPIRY_DAYS = { min: 1, max: 3650 } as const;

/** The optional "Expires after (days)" field: empty is "never", else a whole number in range. */
export function parseExpiryDays(
  text: string,
): { ok: true; days: number | undefined } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, days: undefined };
  const days = Number(trimmed);
  if (!Number.isInteger(days) || days < TOKEN_EXPIRY_DAYS.min || days > TOKEN_EXPIRY_DAYS.max) {
    return {
      ok: false,
      message: `Expires after: a whole number of days from ${TOKEN_EXPIRY_DAYS.min} to ${TOKEN_EXPIRY_DAYS.max}, or empty for a token that works until revoked`,
    };
  }
  return { ok: true, days };
}

/** Who did it: the account, the device token, or the name typed by someone not signed in. */
export function auditActor(entry: Pick<AuditEntry, 'actor_kind' | 'actor_name'>): string {
  if (entry.actor_kind === 'token') return `${entry.actor_name} (device)`;
  if (entry.actor_kind === 'anonymous') return `${entry.actor_name} (not signed in)`;
  return entry.actor_name;
}

/** 'sign_in_failed' as 'sign in failed'. */
export function auditAction(action: string): string {
  return action.replaceAll('_', ' ');
}
