import { PASSWORD_LIMITS } from './roles';

const { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH } = PASSWORD_LIMITS;

/**
 * The check of a new password typed twice (first admin, new account, new password), before it is
 * sent: the contract's length limits and the same text in both fields. Null when it is fine.
 */
export function checkNewPassword(password: string, repeat: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return `The password needs at least ${PASSWORD_MIN_LENGTH} characters`;
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return `The password may have at most ${PASSWORD_MAX_LENGTH} characters`;
  }
  if (password !== repeat) return 'The two passwords differ: type the same password in both fields';
  return null;
}
