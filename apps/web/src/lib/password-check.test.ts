import { PASSWORD_MIN_LENGTH } from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import { checkNewPassword } from './password-check';

describe('checkNewPassword', () => {
  it('accepts the same password of the minimum length twice', () => {
    const password = 'x'.repeat(PASSWORD_MIN_LENGTH);
    expect(checkNewPassword(password, password)).toBeNull();
  });
  it('says what is wrong: too short, too long, or two different texts', () => {
    expect(checkNewPassword('short', 'short')).toBe(
      `The password needs at least ${PASSWORD_MIN_LENGTH} characters`,
    );
    expect(checkNewPassword('y'.repeat(257), 'y'.repeat(257))).toMatch(/at most 256/);
    expect(checkNewPassword('long enough', 'long enougH')).toMatch(/^The two passwords differ/);
  });
});
