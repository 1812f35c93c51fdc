// Makes a fresh clone runnable: dependencies, Debian packages, build outputs.
// Plain Node with no dependencies, because it runs before `npm ci` has ever happened.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Calls `stop` once this process's parent has gone. `npm start` and `npm run demo` run their
 * launcher under npm's `sh`; a SIGTERM to npm (from a service manager, or `timeout`) ends npm and
 * that shell, which passes it on to no one, and the launcher, adopted by init, kept the server and
 * its PostgreSQL running (seen 2026-11-28). Checked every `intervalMs`; the timer alone keeps no
 * process alive.
 */
export function whenOrphaned(stop, intervalMs = 1000) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop();
  }, intervalMs);
  timer.unref();
}

/** An expected failure: the caller prints the message and exits non-zero, without a stack trace. */
export class EnsureError extends Error {
  name = 'EnsureError';
}

export function log(message) {
  console.log(`[wcs] ${message}`);
}

/** Runs a command with inherited stdio in the repo root; throws EnsureError when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', ...options });
  if (result.error) throw new EnsureError(`${command} could not start: ${result.error.message}`);
  if (result.status !== 0) {
    const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.status}`;
    throw new EnsureError(`${[command, ...args].join(' ')} ${how}`);
  }
}

function sha256(file) {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function seconds(startedAt) {
  return `${((performance.now() - startedAt) / 1000).toFixed(1)} s`;
}

// ---------------------------------------------------------------------------------------------
// 1. node_modules

const lockfile = path.join(repoRoot, 'package-lock.json');
const nodeModules = path.join(repoRoot, 'node_modules');
// Inside node_modules on purpose: `npm ci` deletes the folder, and the stamp with it.
const installStamp = path.join(nodeModules, '.wcs-lockfile.sha256');

/**
 * Whether npm's record of what it installed (node_modules/.package-lock.json, written by every
 * `npm ci` and `npm install`) is package-lock.json's tree: each installed package at the locked
 * version, integrity and source, and each locked package installed unless it is optional (another
 * platform's build). An `npm ci` run by hand leaves no stamp of ours; this tells it was done.
 */
export function installMatchesLock(lock, installed) {
  const locked = lock?.packages;
  const present = installed?.packages;
  if (!locked || !present) return false;
  for (const [key, entry] of Object.entries(present)) {
    const want = locked[key];
    if (!want) return false;
    for (const field of ['version', 'integrity', 'resolved', 'link']) {
      if (want[field] !== entry[field]) return false;
    }
  }
  return Object.entries(locked).every(
    ([key, entry]) => key === '' || key in present || entry.optional === true,
  );
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Runs `npm ci` when node_modules is missing or package-lock.json changed since the last install;
 * its output goes to stderr, as the builds' do.
 */
export function ensureNodeModules() {
  const lockHash = sha256(lockfile);
  const installedHash = fs.existsSync(installStamp) ? fs.readFileSync(installStamp, 'utf8').trim() : null;
  if (installedHash === lockHash) return;
  if (
    installedHash === null &&
    installMatchesLock(readJson(lockfile), readJson(path.join(nodeModules, '.package-lock.json')))
  ) {
    // Installed by hand (`npm ci`): nothing to do but remember it.
    fs.writeFileSync(installStamp, `${lockHash}\n`);
    return;
  }
  log(
    fs.existsSync(nodeModules)
      ? 'package-lock.json changed since the last install: running npm ci'
      : 'node_modules is missing: running npm ci',
  );
  const startedAt = performance.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Playwright must never download a browser: we drive Debian's chromium.
  const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
  try {
    // Its complaint is kept quiet: the fallback below says what happened, and shows its own errors.
    run(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
      env,
      stdio: ['inherit', 2, 'pipe'],
    });
  } catch (error) {
    // A registry that lacks other platforms' optional packages (Biome's darwin and win32 builds)
    // yields a lockfile without them, which `npm ci` then rejects as out of sync. `npm install
    // --no-save` installs the same locked versions and leaves package-lock.json untouched.
    if (!(error instanceof EnsureError)) throw error;
    log(
      "npm ci refused the lockfile (this registry lacks some platforms' optional packages); installing the locked versions with npm install --no-save",
    );
    run(npm, ['install', '--no-save', '--no-audit', '--no-fund'], { env, stdio: ['inherit', 2, 'inherit'] });
  }
  fs.writeFileSync(installStamp, `${lockHash}\n`);
  log(`dependencies installed in ${seconds(startedAt)}`);
}

// ---------------------------------------------------------------------------------------------
// 2. Debian packages

/**
 * The bin folder of the newest PostgreSQL of Debian's, or null. Its `postgresql` package installs
 * no binary of that name: the programs live under /usr/lib/postgresql/<version>/bin.
 */
export function postgresBin() {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((name) => isExecutable(path.join(root, name, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], 'bin') : null;
}

/** For each Debian package: how to tell that it is already there (else: its name on PATH). */
const systemPackages = {
  chromium: { env: 'CHROMIUM_PATH', binary: 'chromium' },
  ffmpeg: { env: 'FFMPEG_PATH', binary: 'ffmpeg' },
  postgresql: { installed: () => postgresBin() !== null },
};

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The full path of `binary` on PATH, or null. */
export function findOnPath(binary) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, binary))) return path.join(dir, binary);
  }
  return null;
}

function isInstalled(name) {
  const known = systemPackages[name];
  if (!known) return findOnPath(name) !== null;
  if (known.installed) return known.installed();
  const fromEnv = process.env[known.env];
  // An explicit path wins; a wrong one is reported rather than silently replaced.
  if (fromEnv) return isExecutable(fromEnv);
  return findOnPath(known.binary) !== null;
}

let hasUpdatedAptLists = false;

/**
 * Installs the Debian packages whose binaries are missing (`apt-get`, when running as root).
 * Without root it explains what to install and throws, so the caller exits non-zero.
 */
export function ensureSystemPackages(names) {
  const missing = names.filter((name) => !isInstalled(name));
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const aptGet = findOnPath('apt-get');
  if (!isRoot || !aptGet) {
    const overrides = missing
      .map((name) => systemPackages[name]?.env)
      .filter(Boolean)
      .join(' or ');
    throw new EnsureError(
      `missing system packages: ${missing.join(', ')}. Install them, for example with\n` +
        `  sudo apt-get install -y --no-install-recommends ${missing.join(' ')}\n` +
        (overrides ? `or point ${overrides} at an existing binary, ` : '') +
        'then run the command again.',
    );
  }
  const startedAt = performance.now();
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!hasUpdatedAptLists) {
    log('apt-get update');
    run(aptGet, ['update'], { env });
    hasUpdatedAptLists = true;
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  run(aptGet, ['install', '-y', '--no-install-recommends', ...missing], { env });
  const stillMissing = missing.filter((name) => !isInstalled(name));
  if (stillMissing.length > 0) {
    throw new EnsureError(`apt-get finished but these are still missing: ${stillMissing.join(', ')}`);
  }
  log(`Debian packages installed in ${seconds(startedAt)}`);
}

// ---------------------------------------------------------------------------------------------
// 3. Build outputs

const buildStampDir = path.join(nodeModules, '.cache', 'wcs-build');
const skippedDirs = new Set(['node_modules', 'dist', '.git', '.cache', 'coverage', 'test-results']);

function listFiles(entry, into) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    into.push(`${path.relative(repoRoot, entry)} missing`);
    return;
  }
  if (stat.isDirectory()) {
    for (const child of fs.readdirSync(entry).sort()) {
      // Build info is written by the build itself, so it is an output, not an input.
      if (!skippedDirs.has(child) && !child.endsWith('.tsbuildinfo'))
        listFiles(path.join(entry, child), into);
    }
  } else {
    into.push(`${path.relative(repoRoot, entry)} ${stat.size} ${stat.mtimeMs}`);
  }
}

/**
 * A fingerprint of every input file (path, size, mtime). Unlike "newest mtime" it also changes
 * when a file is deleted or renamed, or restored from git with an older mtime.
 */
function fingerprint(inputs) {
  const lines = [];
  for (const input of inputs) listFiles(path.join(repoRoot, input), lines);
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

function hasOutputs(outputs) {
  return outputs.every((output) => {
    const full = path.join(repoRoot, output);
    if (!fs.existsSync(full)) return false;
    return !fs.statSync(full).isDirectory() || fs.readdirSync(full).length > 0;
  });
}

const sharedInputs = [
  'package-lock.json',
  'package.json',
  'tsconfig.base.json',
  'packages/contract/src',
  'packages/contract/package.json',
  'packages/contract/tsconfig.json',
];

const builds = [
  {
    name: 'server',
    inputs: [...sharedInputs, 'apps/server/src', 'apps/server/package.json', 'apps/server/tsconfig.json'],
    outputs: ['packages/contract/dist', 'apps/server/dist'],
    command: ['npx', ['tsc', '-b', 'apps/server']],
  },
  {
    name: 'web',
    inputs: [
      ...sharedInputs,
      'apps/web/src',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
      'apps/web/tsconfig.json',
    ],
    outputs: ['apps/web/dist/index.html'],
    command: ['npm', ['run', 'build', '-w', '@wcs/web']],
  },
];

/**
 * Builds the server (tsc -b) and the web app (vite) when their outputs are missing or stale; `names`
 * narrows it (a benchmark of the server alone: ['server']). The builds write to stderr, so the
 * figures a benchmark prints on stdout stay alone there.
 */
export function ensureBuilt(names = builds.map((build) => build.name)) {
  fs.mkdirSync(buildStampDir, { recursive: true });
  for (const build of builds.filter((candidate) => names.includes(candidate.name))) {
    const stampFile = path.join(buildStampDir, `${build.name}.sha256`);
    const current = fingerprint(build.inputs);
    const previous = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8').trim() : null;
    if (previous === current && hasOutputs(build.outputs)) continue;
    log(`building ${build.name}`);
    const startedAt = performance.now();
    const [command, args] = build.command;
    run(process.platform === 'win32' ? `${command}.cmd` : command, args, {
      stdio: ['inherit', 2, 'inherit'],
    });
    // The fingerprint from before the build: a file saved during the build makes the next run rebuild.
    fs.writeFileSync(stampFile, `${current}\n`);
    log(`built ${build.name} in ${seconds(startedAt)}`);
  }
}

/** Wraps a script's main function: EnsureError prints its message only; anything else its stack. */
export function runMain(main) {
  main().catch((error) => {
    if (error instanceof EnsureError) console.error(`[wcs] ${error.message}`);
    else console.error(error);
    process.exitCode = 1;
  });
}
