import { describe, expect, it } from 'vitest';
import { installMatchesLock } from './ensure.mjs';

const lock = {
  packages: {
    '': { name: 'root' },
    'node_modules/a': { version: '1.0.0', integrity: 'sha512-a', resolved: 'https://r/a-1.0.0.tgz' },
    'node_modules/@wcs/contract': { resolved: 'packages/contract', link: true },
    'node_modules/b-darwin': { version: '2.0.0', integrity: 'sha512-b', optional: true },
  },
};
const installed = {
  packages: {
    'node_modules/a': { version: '1.0.0', integrity: 'sha512-a', resolved: 'https://r/a-1.0.0.tgz' },
    'node_modules/@wcs/contract': { resolved: 'packages/contract', link: true },
  },
};

describe('installMatchesLock (an npm ci run by hand)', () => {
  it("takes npm's record of the locked tree, without other platforms' optional builds", () => {
    expect(installMatchesLock(lock, installed)).toBe(true);
  });

  it('refuses a package at another version, one not locked, a required one missing, or no record', () => {
    const other = structuredClone(installed);
    other.packages['node_modules/a'].version = '1.0.1';
    expect(installMatchesLock(lock, other)).toBe(false);
    const extra = structuredClone(installed);
    extra.packages['node_modules/c'] = { version: '1.0.0' };
    expect(installMatchesLock(lock, extra)).toBe(false);
    const missing = structuredClone(installed);
    delete missing.packages['node_modules/a'];
    expect(installMatchesLock(lock, missing)).toBe(false);
    expect(installMatchesLock(lock, null)).toBe(false);
  });
});
