/**
 * Starts a worker thread on a module of this package, from the built `dist/` (plain .js) and from
 * the TypeScript source under Vitest alike. From source, the thread first registers the hooks of
 * ts-worker-hooks.mjs, which transpile .ts on load, then imports the module; nothing extra (tsx,
 * a build step) is needed for tests, and the built server never takes that path.
 */
import { Worker } from 'node:worker_threads';

const hooksUrl = new URL('./ts-worker-hooks.mjs', import.meta.url);

/** The sibling module `name` (without extension) in the form this file itself runs as: .js or .ts. */
export function siblingModuleUrl(name: string): URL {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${name}${extension}`, import.meta.url);
}

/** A thread running `moduleUrl`; `.ts` modules are loaded through the transpiling hooks. */
export function startThread(moduleUrl: URL): Worker {
  // execArgv: []: the thread does not inherit the parent's flags (Vitest's, a debugger's).
  if (!moduleUrl.pathname.endsWith('.ts')) return new Worker(moduleUrl, { execArgv: [] });
  const bootstrap = `
    const { register } = require('node:module');
    register(${JSON.stringify(hooksUrl.href)});
    import(${JSON.stringify(moduleUrl.href)}).catch((error) => {
      setImmediate(() => { throw error; });
    });
  `;
  return new Worker(bootstrap, { eval: true, execArgv: [] });
}
