import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { newDataDir, type Server, start, useServerProcesses } from '../test/server-process.js';

useServerProcesses();

/**
 * Several `wcs serve` processes on one hosted PostgreSQL (docs/operations.md, "Hosted
 * PostgreSQL"): started at the same instant on a fresh database, every one of them serves.
 */
describe('several processes on one database', () => {
  it('three processes started at once on a fresh database all serve', async () => {
    const name = `wcs_many_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(inject('pgAdminUrl'));
    url.pathname = `/${name}`;
    const servers: Server[] = [];
    try {
      const env = { DATABASE_URL: url.toString(), WCS_SCRAPER_SCHEDULE: 'off' };
      const results = await Promise.allSettled([0, 1, 2].map(() => start(newDataDir(), env)));
      for (const result of results) if (result.status === 'fulfilled') servers.push(result.value);
      const failures = results.flatMap((result) =>
        result.status === 'rejected' ? [String(result.reason)] : [],
      );
      expect(failures).toEqual([]);
      for (const server of servers) {
        expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      }
    } finally {
      for (const server of servers) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 120_000);
});
