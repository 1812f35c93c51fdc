// `npm start`: install what is missing, build what is stale, then run the server in the foreground.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import {
  ensureBuilt,
  ensureNodeModules,
  ensureSystemPackages,
  log,
  repoRoot,
  runMain,
  whenOrphaned,
} from './ensure.mjs';

/** Signals that arrive this close together are one request (npm and the terminal both send Ctrl+C). */
const DUPLICATE_SIGNAL_WINDOW_MS = 500;

runMain(async () => {
  ensureNodeModules();
  // Not needed to serve yet; recognition decodes every recording with it.
  ensureSystemPackages(['ffmpeg']);
  ensureBuilt();

  const serverArgs = ['serve', ...process.argv.slice(2)];
  log(`node apps/server/bin/wcs.js ${serverArgs.join(' ')}`);
  const child = spawn(process.execPath, [path.join(repoRoot, 'apps/server/bin/wcs.js'), ...serverArgs], {
    cwd: repoRoot,
    env: process.env,
    // Its own process group, so a Ctrl+C reaches the server once (from us), not twice; a second
    // signal could otherwise cut short its shutdown of the embedded PostgreSQL.
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit'],
  });

  let lastForwardedAt = Number.NEGATIVE_INFINITY;
  const forward = (signal) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const now = performance.now();
    if (now - lastForwardedAt < DUPLICATE_SIGNAL_WINDOW_MS) return;
    lastForwardedAt = now;
    // A closed terminal (SIGHUP) asks for the same clean stop as SIGTERM.
    child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
  // npm's SIGTERM ends its shell, not this launcher: stop the server when left alone (ensure.mjs).
  whenOrphaned(() => forward('SIGTERM'));

  const exitCode = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      resolve(signal ? 128 + (os.constants.signals[signal] ?? 0) : (code ?? 1));
    });
  });
  process.exitCode = exitCode;
});
