/**
 * The contract's roles and password limits, from its constants module (no zod, so reading them
 * adds nothing to the screens' shared code), under the names the screens use.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@wcs/contract';

export { ROLES, roleAllows } from '@wcs/contract';

export const PASSWORD_LIMITS = { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH } as const;
