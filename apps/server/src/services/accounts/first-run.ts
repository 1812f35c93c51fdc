import type { Db } from '../../db/client.js';
import { pruneSessions } from './sessions.js';
import { createSetupLink, SETUP_LINK_LIFETIME_MS } from './setup-links.js';
import { countUsers, createUser, findUserByName } from './users.js';

/** The demo's account (docs/security.md): its password is printed, on the console and the login page. */
export const DEMO_USER = { name: 'demo', password: 'demo' } as const;

/**
 * What the start says about accounts: nothing when some exist; else a one-time link that creates
 * the first admin. In a demo data folder, the demo account is made instead (an admin whose
 * password is known: for trying the product, never for a server others can reach).
 */
export async function prepareAccounts(
  db: Db,
  options: { isDemo: boolean },
): Promise<{ setupToken?: string; demoUserCreated?: boolean }> {
  await pruneSessions(db);
  if (options.isDemo) {
    if (await findUserByName(db, DEMO_USER.name)) return {};
    // Below the length rule on purpose: the demo's password is part of its instructions.
    await createUser(db, { name: DEMO_USER.name, role: 'admin', password: DEMO_USER.password });
    return { demoUserCreated: true };
  }
  if ((await countUsers(db)) > 0) return {};
  return { setupToken: await createSetupLink(db) };
}

export const SETUP_LINK_HOURS = SETUP_LINK_LIFETIME_MS / 3_600_000;
