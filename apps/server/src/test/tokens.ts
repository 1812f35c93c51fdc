import type { Role } from '@wcs/contract';
import { createDatabase } from '../db/client.js';
import { runningEmbeddedConnection } from '../db/embedded.js';
import { createToken } from '../services/accounts/tokens.js';

/**
 * A device token in the database of a server process a test started on `dataDir` (its embedded
 * PostgreSQL), as `wcs token create` makes one beside a running server.
 */
export async function tokenForServer(dataDir: string, role: Role = 'dj'): Promise<string> {
  const { pool, db } = createDatabase(runningEmbeddedConnection(dataDir), 1);
  try {
    return (await createToken(db, { name: `test-${role}`, role }, undefined)).token;
  } finally {
    await pool.end();
  }
}
