import type { AuditEntry, Identity } from '@wcs/contract';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';

export interface AuditRecord {
  actor: Identity | undefined;
  /** When no one is signed in: the name given (a failed sign-in), else 'anonymous'. */
  actorName?: string;
  action: string;
  kind: string;
  targetId?: string | null;
  summary: string;
  method?: string;
  path?: string;
  status?: number;
  address?: string;
}

export async function recordAudit(db: Db, record: AuditRecord): Promise<void> {
  const { actor } = record;
  await db.insert(auditLog).values({
    actorKind: actor?.kind ?? 'anonymous',
    actorUserId: actor?.kind === 'user' ? actor.id : null,
    actorTokenId: actor?.kind === 'token' ? actor.id : null,
    actorName: actor?.name ?? record.actorName ?? 'anonymous',
    action: record.action,
    kind: record.kind,
    targetId: record.targetId ?? null,
    summary: record.summary.slice(0, 500),
    method: record.method ?? null,
    path: record.path?.slice(0, 500) ?? null,
    status: record.status ?? null,
    address: record.address ?? null,
  });
}

export async function listAudit(
  db: Db,
  query: {
    skip: number;
    limit: number;
    user_id?: number | undefined;
    token_id?: number | undefined;
    kind?: string | undefined;
  },
): Promise<{ data: AuditEntry[]; total: number }> {
  const filters: SQL[] = [];
  if (query.user_id !== undefined) filters.push(eq(auditLog.actorUserId, query.user_id));
  if (query.token_id !== undefined) filters.push(eq(auditLog.actorTokenId, query.token_id));
  if (query.kind !== undefined) filters.push(eq(auditLog.kind, query.kind));
  const where = filters.length > 0 ? and(...filters) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .offset(query.skip)
      .limit(query.limit),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return {
    total: total?.n ?? 0,
    data: rows.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      actor_kind: row.actorKind as AuditEntry['actor_kind'],
      actor_name: row.actorName,
      action: row.action,
      kind: row.kind,
      target_id: row.targetId,
      summary: row.summary,
      method: row.method,
      path: row.path,
      status: row.status,
      address: row.address,
    })),
  };
}
