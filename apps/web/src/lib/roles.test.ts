import * as contract from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import { PASSWORD_LIMITS, ROLES, roleAllows } from './roles';

describe('the roles and limits repeated from the contract', () => {
  it('are the contract’s, in its order', () => {
    expect(ROLES).toEqual(contract.ROLES);
    expect(PASSWORD_LIMITS).toEqual({ min: contract.PASSWORD_MIN_LENGTH, max: contract.PASSWORD_MAX_LENGTH });
  });
  it('compare roles as the contract does', () => {
    for (const role of contract.ROLES) {
      for (const needed of contract.ROLES) {
        expect(roleAllows(role, needed), `${role} for ${needed}`).toBe(contract.roleAllows(role, needed));
      }
    }
  });
});
