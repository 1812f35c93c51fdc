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

/** Key of the advisory lock that serialises the start-up of processes sharing one database. */
const STARTUP_LOCK_KEY = 0x7763_732d_7374; // "wcs-st"

/**
 * Holds an advisory lock until the returned function is called: processes that start at the same
 * instant on one database take turns through the job queue's schema creation and the start-up
 * tasks, which deadlocked when run side by side (measured: 2 of 3 processes died with "deadlock
 * detected"). The lock lives in its own connection; ending the process releases it as well.
 */
export async function holdStartupLock(connectionString: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString });
  client.on('notice', () => {});
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
  let released: Promise<void> | undefined;
  return () => {
    released ??= client
      .query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY])
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => client.end().catch(() => {}));
    return released;
  };
}
