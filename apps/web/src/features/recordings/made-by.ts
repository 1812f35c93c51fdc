import type { ApiToken, CreatedBy, Recording, User } from '@wcs/contract';
import { type ActorKind, actorKey, actorLabel, parseActorKey } from '../../lib/accounts';

/**
 * Who made a recording (an account or a device token) and the "Made by" filter of the recordings
 * list (docs/product.md "Recordings"). A filter value is written `user:<id>` or `token:<id>`.
 */
export interface Maker {
  kind: ActorKind;
  id: number;
  name: string;
}

export const makerKey = actorKey;

/** The filter value back to a maker, or null for "Anyone" (or anything unreadable). */
export const parseMakerKey = parseActorKey;

/** The query of GET /recordings/ for a maker: created_by_user_id or created_by_token_id. */
export function makerQuery(key: string | null): {
  created_by_user_id?: number;
  created_by_token_id?: number;
} {
  const maker = parseMakerKey(key);
  if (!maker) return {};
  return maker.kind === 'user' ? { created_by_user_id: maker.id } : { created_by_token_id: maker.id };
}

/** 'alice', or 'kitchen-pi (device)' for a token; null for a recording made before accounts. */
export function makerLabel(createdBy: CreatedBy | Maker): string | null {
  return createdBy ? actorLabel(createdBy) : null;
}

/**
 * The makers the filter offers: those of the recordings in the list, and for an admin every
 * account and token (listUsers, listTokens). Accounts first, then devices, each by name.
 */
export function makerOptions(
  recordings: readonly Pick<Recording, 'created_by'>[],
  users: readonly Pick<User, 'id' | 'name'>[] = [],
  tokens: readonly Pick<ApiToken, 'id' | 'name'>[] = [],
): Maker[] {
  const byKey = new Map<string, Maker>();
  const add = (maker: Maker) => {
    if (!byKey.has(makerKey(maker))) byKey.set(makerKey(maker), maker);
  };
  for (const user of users) add({ kind: 'user', id: user.id, name: user.name });
  for (const token of tokens) add({ kind: 'token', id: token.id, name: token.name });
  for (const { created_by: maker } of recordings) if (maker) add(maker);
  return [...byKey.values()].sort(
    (a, b) =>
      (a.kind === b.kind ? 0 : a.kind === 'user' ? -1 : 1) ||
      a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) ||
      a.id - b.id,
  );
}
