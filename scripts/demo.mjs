// `npm run demo`: install what is missing, build what is stale, seed a demo data folder of its own
// (once), then serve the product on it in the foreground. Never touches ./data or DATABASE_URL.
//   npm run demo -- [--data-dir DIR] [--seed N] [--port P] [other `wcs serve` flags]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  EnsureError,
  ensureBuilt,
  ensureNodeModules,
  ensureSystemPackages,
  log,
  repoRoot,
  run,
  runMain,
  whenOrphaned,
} from './ensure.mjs';

/** Keep in step with apps/server/src/cli/demo.ts (DEMO_DATA_DIR, DEMO_MARKER_FILE). */
const DEFAULT_DATA_DIR = 'data-demo';
const MARKER_FILE = 'demo-seed.json';
/** Signals that arrive this close together are one request (npm and the terminal both send Ctrl+C). */
const DUPLICATE_SIGNAL_WINDOW_MS = 500;
const wcs = path.join(repoRoot, 'apps/server/bin/wcs.js');

function parseArgs(argv) {
  const options = { dataDir: DEFAULT_DATA_DIR, seed: undefined, serveArgs: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const [flag, inline] = arg.split(/=(.*)/s);
    const value = () => {
      const next = inline ?? argv[++i];
      if (next === undefined) throw new EnsureError(`${flag} needs a value`);
      return next;
    };
    if (flag === '--data-dir') options.dataDir = value();
    else if (flag === '--seed') options.seed = value();
    else options.serveArgs.push(arg);
  }
  return options;
}

/** The user's data and database stay out of the demo (see demoEnv in cli/demo.ts). */
function demoEnv() {
  const env = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'WCS_DATA_DIR',
    'WCS_RECORDINGS_DIR',
    'WCS_PLAYLISTS_DIR',
    'WCS_LIBRARY_ROOTS',
  ]) {
    delete env[name];
  }
  return env;
}

runMain(async () => {
  const options = parseArgs(process.argv.slice(2));
  const dataDir = path.resolve(repoRoot, options.dataDir);
  if (dataDir === path.resolve(repoRoot, 'data')) {
    throw new EnsureError('The demo never uses ./data (your own library). Pick another --data-dir.');
  }
  ensureNodeModules();
  // Not needed to serve yet; recognition decodes every recording with it (as in npm start).
  ensureSystemPackages(['ffmpeg']);
  ensureBuilt();
  const env = demoEnv();

  const marker = path.join(dataDir, MARKER_FILE);
  if (fs.existsSync(marker)) {
    const seeded = JSON.parse(fs.readFileSync(marker, 'utf8'));
    log(
      `${dataDir} holds demo data seeded ${seeded.seededAt} (seed ${seeded.seed}); delete the folder to seed again`,
    );
  } else {
    const startedAt = performance.now();
    run(
      process.execPath,
      [wcs, 'demo', 'seed', '--data-dir', dataDir, ...(options.seed ? ['--seed', options.seed] : [])],
      {
        env,
      },
    );
    log(`seeding took ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  }

  const serveArgs = ['serve', '--data-dir', dataDir, ...options.serveArgs];
  log(`node apps/server/bin/wcs.js ${serveArgs.join(' ')}`);
  const child = spawn(process.execPath, [wcs, ...serveArgs], {
    cwd: repoRoot,
    env,
    // Its own process group, so a Ctrl+C reaches the server once (from us), not twice.
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let lastForwardedAt = Number.NEGATIVE_INFINITY;
  const forward = (signal) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const now = performance.now();
    if (now - lastForwardedAt < DUPLICATE_SIGNAL_WINDOW_MS) return;
    lastForwardedAt = now;
    child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
  // npm's SIGTERM ends its shell, not this launcher: stop the server when left alone (ensure.mjs).
  whenOrphaned(() => forward('SIGTERM'));
  process.exitCode = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      resolve(signal ? 128 + (os.constants.signals[signal] ?? 0) : (code ?? 1)),
    );
  });
});
