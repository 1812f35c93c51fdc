import { Password, ROLES, type Role, UserName } from '@wcs/contract';
import { type Command, InvalidArgumentError } from 'commander';
import { type DataDirOptions, dataDirOption, overridesFrom } from './options.js';
import { readNewPassword } from './password-input.js';

/**
 * `wcs user ...` and `wcs token ...`: accounts and device tokens from the machine itself, whether
 * or not a server runs on the data folder (docs/security.md). Passwords are read from the
 * terminal or stdin, never from an argument.
 */

function parseRole(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of ${ROLES.join(', ')}.`);
  }
  return value as Role;
}

/** "30d", "12h" or a number of days. */
function parseExpiry(value: string): number {
  const match = /^(\d{1,5})\s*(d|days?)?$/i.exec(value.trim());
  if (!match || Number(match[1]) < 1 || Number(match[1]) > 3650) {
    throw new InvalidArgumentError('give a number of days from 1 to 3650, e.g. 30d.');
  }
  return Number(match[1]);
}

function checked<T>(
  schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: Array<{ message: string }> } };
  },
  value: unknown,
  what: string,
): T {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new Error(`${what}: ${result.error.issues.map((issue) => issue.message).join('; ')}`);
  return result.data;
}

/** Opens the data folder's database (beside a running server or not), runs `work`, closes. */
async function withDatabase<T>(
  options: DataDirOptions,
  work: (db: import('../db/client.js').Db) => Promise<T>,
): Promise<T> {
  const [{ loadConfig }, { attachDatabase }, { createDatabase }] = await Promise.all([
    import('../config.js'),
    import('../main.js'),
    import('../db/client.js'),
  ]);
  const config = loadConfig(process.env, overridesFrom(options));
  // Progress of the embedded PostgreSQL goes to stderr: stdout carries the command's answer.
  const database = await attachDatabase(config, (message) => console.error(`[wcs] ${message}`));
  const { pool, db } = createDatabase(database.connectionString, 2);
  try {
    return await work(db);
  } finally {
    await pool.end();
    await database.close();
  }
}

async function userAdd(name: string, options: DataDirOptions & { role: Role }): Promise<void> {
  const validName = checked(UserName, name, 'The name');
  const password = checked(Password, await readNewPassword(`Password for ${validName}`), 'The password');
  const { createUser } = await import('../services/accounts/users.js');
  const user = await withDatabase(options, (db) =>
    createUser(db, { name: validName, role: options.role, password }),
  );
  console.log(`Created the account ${user.name} (${user.role}).`);
}

async function userResetPassword(name: string, options: DataDirOptions): Promise<void> {
  const password = checked(Password, await readNewPassword(`New password for ${name}`), 'The password');
  const { findUserByName, updateUser } = await import('../services/accounts/users.js');
  await withDatabase(options, async (db) => {
    const user = await findUserByName(db, name);
    if (!user) throw new Error(`No account is named ${name} (see: wcs user list)`);
    await updateUser(db, user.id, { password });
  });
  console.log(`Set a new password for ${name}; its browsers are signed out.`);
}

async function userList(options: DataDirOptions): Promise<void> {
  const { listUsers } = await import('../services/accounts/users.js');
  const users = await withDatabase(options, (db) => listUsers(db));
  if (users.length === 0) console.log('No accounts yet.');
  for (const user of users) console.log(`${user.name}\t${user.role}\tsince ${user.created_at.slice(0, 10)}`);
}

async function tokenCreate(
  options: DataDirOptions & { name: string; role: Role; expires?: number },
): Promise<void> {
  const { createToken } = await import('../services/accounts/tokens.js');
  const created = await withDatabase(options, (db) =>
    createToken(db, { name: options.name, role: options.role, expires_in_days: options.expires }, undefined),
  );
  // The token alone on stdout, so `TOKEN=$(wcs token create ...)` works; the rest on stderr.
  console.error(
    `Token ${created.info.id} for ${created.info.name} (${created.info.role}${created.info.expires_at ? `, until ${created.info.expires_at}` : ''}). It is shown this once:`,
  );
  console.log(created.token);
}

async function tokenList(options: DataDirOptions): Promise<void> {
  const { listTokens } = await import('../services/accounts/tokens.js');
  const tokens = await withDatabase(options, (db) => listTokens(db));
  if (tokens.length === 0) console.log('No tokens yet.');
  for (const token of tokens) {
    const state = token.revoked_at
      ? `revoked ${token.revoked_at}`
      : token.expires_at
        ? `until ${token.expires_at}`
        : 'active';
    console.log(
      `${token.id}\t${token.name}\t${token.role}\t${state}\tlast used ${token.last_used_at ?? 'never'}`,
    );
  }
}

async function tokenRevoke(nameOrId: string, options: DataDirOptions): Promise<void> {
  const { findActiveTokens, revokeToken } = await import('../services/accounts/tokens.js');
  const revoked = await withDatabase(options, async (db) => {
    const matches = await findActiveTokens(db, nameOrId);
    if (matches.length === 0)
      throw new Error(`No active token is named or numbered ${nameOrId} (see: wcs token list)`);
    if (matches.length > 1) {
      throw new Error(
        `${matches.length} active tokens are named ${nameOrId}: revoke one by its number (${matches.map((t) => t.id).join(', ')})`,
      );
    }
    return revokeToken(db, matches[0]!.id);
  });
  console.log(`Revoked token ${revoked.id} (${revoked.name}): it stops working at once.`);
}

export function registerAccountCommands(program: Command): void {
  const user = program.command('user').description('accounts that sign in to the web app');
  user
    .command('add <name>')
    .description('create an account (password typed twice, or the first line of stdin)')
    .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`, parseRole)
    .addOption(dataDirOption())
    .action(userAdd);
  user
    .command('reset-password <name>')
    .description('set a new password for an account and sign out its browsers')
    .addOption(dataDirOption())
    .action(userResetPassword);
  user.command('list').description('list the accounts').addOption(dataDirOption()).action(userList);

  const token = program.command('token').description('tokens for recording devices and scripts');
  token
    .command('create')
    .description('create a token and print it once (send it as "Authorization: Bearer <token>")')
    .requiredOption('--name <device>', 'what the token is for, e.g. "pi by the speakers"')
    .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`, parseRole)
    .option(
      '--expires <days>',
      'stop working after this many days, e.g. 30d (default: until revoked)',
      parseExpiry,
    )
    .addOption(dataDirOption())
    .action(tokenCreate);
  token.command('list').description('list the tokens').addOption(dataDirOption()).action(tokenList);
  token
    .command('revoke <name-or-id>')
    .description('revoke a token: it stops working at once')
    .addOption(dataDirOption())
    .action(tokenRevoke);
}
