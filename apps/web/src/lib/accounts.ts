import { queryOptions } from '@tanstack/react-query';
import { apiCall } from './api';

/**
 * The accounts and device tokens an admin manages (Settings) and that name who made a recording
 * (the Recordings filter). Both calls are admin only: screens ask for them only when `useCan`
 * says the signed-in role reaches them.
 */
export const accountKeys = {
  all: ['accounts'] as const,
  users: ['accounts', 'users'] as const,
  tokens: ['accounts', 'tokens'] as const,
  audit: (query: { page: number; userId?: number; tokenId?: number; kind?: string }) =>
    ['accounts', 'audit', query] as const,
};

/** GET /users. */
export const usersOptions = () =>
  queryOptions({
    queryKey: accountKeys.users,
    queryFn: ({ signal }) => apiCall('listUsers', undefined, { signal }),
    // Active sessions change as people sign in and out.
    staleTime: 0,
  });

/** GET /tokens, revoked ones included. */
export const tokensOptions = () =>
  queryOptions({
    queryKey: accountKeys.tokens,
    queryFn: ({ signal }) => apiCall('listTokens', undefined, { signal }),
    staleTime: 0,
  });

/** An account or a device token, as filters write it: `user:<id>` or `token:<id>`. */
export type ActorKind = 'user' | 'token';

export function actorKey(actor: { kind: ActorKind; id: number }): string {
  return `${actor.kind}:${actor.id}`;
}

/** A filter value back to an account or token; null for "anyone" or anything unreadable. */
export function parseActorKey(key: string | null | undefined): { kind: ActorKind; id: number } | null {
  const match = /^(user|token):([1-9]\d*)$/.exec(key ?? '');
  if (!match) return null;
  return { kind: match[1] as ActorKind, id: Number(match[2]) };
}

/** 'alice', or 'kitchen-pi (device)' for a device token. */
export function actorLabel(actor: { kind: ActorKind; name: string }): string {
  return actor.kind === 'token' ? `${actor.name} (device)` : actor.name;
}
