import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../db/embedded.js';
import { runMigrations } from '../db/migrate.js';
import { createJobQueue } from '../jobs/queue.js';

/** The migrated database every test database is copied from (CREATE DATABASE ... TEMPLATE). */
export const TEMPLATE_DATABASE = 'wcs_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's PostgreSQL, on its `postgres` maintenance database. */
    pgAdminUrl: string;
    /** Name of the migrated template database. */
    pgTemplateDatabase: string;
  }
}

/**
 * Starts one throwaway embedded PostgreSQL for the whole test run and migrates a template
 * database once, so each test file only pays for a copy (see harness.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-vitest-pg-'));
  // mkdtemp makes it 0700; as root, PostgreSQL runs as the postgres user, who must get through it.
  await fs.chmod(dataDir, 0o755);
  const postgres = await startEmbeddedPostgres({
    dataDir,
    database: TEMPLATE_DATABASE,
    isEphemeral: true,
  }).catch(async (error: unknown) => {
    await fs.rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  try {
    await runMigrations(postgres.connectionString);
    // pg-boss installs its schema on first start: do it once here rather than in every copy.
    const jobs = await createJobQueue({ connectionString: postgres.connectionString });
    await jobs.stop();
    const admin = new pg.Client({ connectionString: postgres.adminConnectionString });
    await admin.connect();
    try {
      // A copy fails while anyone is connected to the template: shut the door for good.
      await admin.query(`alter database ${TEMPLATE_DATABASE} with is_template true allow_connections false`);
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [TEMPLATE_DATABASE],
      );
    } finally {
      await admin.end();
    }
  } catch (error) {
    await postgres.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  project.provide('pgAdminUrl', postgres.adminConnectionString);
  project.provide('pgTemplateDatabase', TEMPLATE_DATABASE);

  return async () => {
    await postgres.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  };
}
