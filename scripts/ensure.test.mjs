import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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

describe('whenOrphaned (a launcher whose npm was stopped)', () => {
  it('calls stop once the parent shell has exited, and not before', async () => {
    const ensure = fileURLToPath(new URL('./ensure.mjs', import.meta.url));
    // A launcher under a shell, as npm runs it; the shell exits 0.5 s in, leaving it to init.
    const launcher = [
      `import { whenOrphaned } from ${JSON.stringify(ensure)};`,
      'whenOrphaned(() => { console.log("stopped"); process.exit(0); }, 50);',
      'setTimeout(() => { console.log("never stopped"); process.exit(1); }, 10000);',
    ].join(' ');
    const shell = spawn('sh', ['-c', `node --input-type=module -e '${launcher}' & sleep 0.5`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let shellExited = false;
    let stoppedWhileShellRan = false;
    let output = '';
    shell.once('exit', () => {
      shellExited = true;
    });
    shell.stdout.on('data', (data) => {
      output += data;
      if (String(data).includes('stopped') && !shellExited) stoppedWhileShellRan = true;
    });
    // The pipe closes when both the shell and the launcher have exited.
    await new Promise((resolve) => shell.stdout.on('close', resolve));
    expect(output.trim()).toBe('stopped');
    expect(stoppedWhileShellRan).toBe(false);
  });
});
