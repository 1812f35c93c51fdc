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
