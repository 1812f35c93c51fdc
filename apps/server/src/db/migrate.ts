import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

/**
 * The generated SQL migrations. From src/db (vitest) and from dist/db (built) alike, this lands
 * in apps/server/src/db/migrations: the SQL is not copied into dist.
 */
export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../src/db/migrations');

/** Key of the session advisory lock that serialises migrators ("wcs-migrate" as a number). */
const MIGRATION_LOCK_KEY = 0x7763_732d_6d69;

/**
 * Applies every pending migration. Two processes starting at once against one hosted database
 * take turns on an advisory lock; the second finds nothing left to do.
 */
export async function runMigrations(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  // "schema already exists, skipping" notices are expected on every start.
  client.on('notice', () => {});
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      // Ending the session releases it too; a failed unlock must not hide the migration's error.
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    }
  } finally {
    await client.end();
  }
}
