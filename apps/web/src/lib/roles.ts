import type { Role } from '@wcs/contract';

/**
 * The contract's roles and password limits (packages/contract/src/accounts.ts), repeated here for
 * the same reason as `api-routes.ts`: that module builds zod schemas as it loads, so reading one
 * value from it would put zod and the account schemas into every screen's code. The types below
 * make tsc refuse a role the contract does not have or a missing one, and `roles.test.ts` holds
 * the order and the limits equal to the contract's.
 */
export const ROLES = ['viewer', 'dj', 'admin'] as const satisfies readonly Role[];

// A role added to the contract and missing here fails to compile.
type Unlisted = Exclude<Role, (typeof ROLES)[number]>;
const everyRoleListed: [Unlisted] extends [never] ? true : never = true;
void everyRoleListed;

/** True when `role` may do what `needed` allows (viewer < dj < admin), as the contract's roleAllows. */
export function roleAllows(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/** The contract's PASSWORD_MIN_LENGTH and PASSWORD_MAX_LENGTH. */
export const PASSWORD_LIMITS = { min: 8, max: 256 } as const;
