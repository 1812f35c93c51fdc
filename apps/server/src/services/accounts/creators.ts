import type { CreatedBy, Identity } from '@wcs/contract';
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { apiTokens, users } from '../../db/schema.js';

/** The two columns every made-by row carries (recordings, playlists, download entries). */
export interface CreatorColumns {
  createdByUserId: number | null;
  createdByTokenId: number | null;
}

/** The columns to write for a row made by `by` (both null when no one, e.g. a scheduled job). */
export function creatorColumns(by: Identity | undefined): CreatorColumns {
  return {
    createdByUserId: by?.kind === 'user' ? by.id : null,
    createdByTokenId: by?.kind === 'token' ? by.id : null,
  };
}

/**
 * Names the makers of `rows` with one query per kind, and returns how to describe each row's
 * maker; a maker deleted since is null (its name stays in the audit log).
 */
export async function describeCreators(
  db: Db,
  rows: readonly CreatorColumns[],
): Promise<(row: CreatorColumns) => CreatedBy> {
  const userIds = [...new Set(rows.map((row) => row.createdByUserId).filter((id) => id !== null))];
  const tokenIds = [...new Set(rows.map((row) => row.createdByTokenId).filter((id) => id !== null))];
  const [userRows, tokenRows] = await Promise.all([
    userIds.length > 0
      ? db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, userIds))
      : [],
    tokenIds.length > 0
      ? db
          .select({ id: apiTokens.id, name: apiTokens.name })
          .from(apiTokens)
          .where(inArray(apiTokens.id, tokenIds))
      : [],
  ]);
  const userNames = new Map(userRows.map((row) => [row.id, row.name]));
  const tokenNames = new Map(tokenRows.map((row) => [row.id, row.name]));
  return (row) => {
    if (row.createdByUserId !== null && userNames.has(row.createdByUserId)) {
      return { kind: 'user', id: row.createdByUserId, name: userNames.get(row.createdByUserId)! };
    }
    if (row.createdByTokenId !== null && tokenNames.has(row.createdByTokenId)) {
      return { kind: 'token', id: row.createdByTokenId, name: tokenNames.get(row.createdByTokenId)! };
    }
    return null;
  };
}
