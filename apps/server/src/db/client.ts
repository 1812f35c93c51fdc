import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.js';

export type Db = NodePgDatabase<typeof schema>;

// PostgreSQL returns int8/numeric as strings by default; our counts and sums fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

export interface Database {
  pool: pg.Pool;
  db: Db;
}

export function createDatabase(connectionString: string, max = 10): Database {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client that loses its server must not crash the process; queries still fail loudly.
  pool.on('error', () => {});
  return { pool, db: drizzle(pool, { schema }) };
}

/** The parts of a node-postgres DatabaseError that callers read. */
export interface DatabaseError {
  code: string;
  detail?: string;
  constraint?: string;
  column?: string;
}

/**
 * The PostgreSQL error behind an error, if any. Drizzle wraps the driver's error (its `cause`), so
 * the chain is followed a few levels.
 */
export function findDatabaseError(error: unknown): DatabaseError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const candidate = current as Partial<DatabaseError> & { severity?: unknown; cause?: unknown };
    if (
      typeof candidate.code === 'string' &&
      /^[0-9A-Z]{5}$/.test(candidate.code) &&
      'severity' in candidate
    ) {
      return candidate as DatabaseError;
    }
    current = candidate.cause;
  }
  return null;
}

/**
 * Runs a transaction again when PostgreSQL chose it as a deadlock's victim (40P01) or failed it
 * for serialization (40001): the documented answer to both is to retry the whole transaction.
 * For transactions that write many rows while others write some of them (a scrape's upsert and an
 * event's delete, whose foreign key clears links in its own order).
 */
export async function withDeadlockRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      const state = findDatabaseError(error)?.code;
      if (attempt >= attempts || (state !== '40P01' && state !== '40001')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
    }
  }
}
