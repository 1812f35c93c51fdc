import { describe, expect, it } from 'vitest';
import { idParam } from './url-params.js';

describe('idParam', () => {
  it('reads positive whole numbers', () => {
    expect(idParam('12')).toBe(12);
  });
  it('ignores anything else', () => {
    for (const value of [null, '', '0', '-3', '1.5', 'abc', '12abc', '99999999999999999999']) {
      expect(idParam(value), String(value)).toBeNull();
    }
  });
});
