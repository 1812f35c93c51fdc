import { hash, verify } from '@node-rs/argon2';

/**
 * Passwords are hashed with argon2id by @node-rs/argon2 at its defaults (19 MiB, 2 passes, 1 lane:
 * the minimum OWASP's password storage cheat sheet recommends), in PHC form, salt included.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** A hash of a password nobody has, checked when the name is unknown so both cases take as long. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (passwordHash === undefined) {
    decoy ??= hash('not a password of anyone');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
