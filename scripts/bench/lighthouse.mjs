#!/usr/bin/env node
// Lighthouse benchmark of the web app: starts `wcs serve` on demo data (seeded by `wcs demo seed`
// into a scratch folder, or into --data-dir when it holds no demo data yet), drives Debian's
// chromium with the `lighthouse` package (its default mobile profile: simulated slow 4G and a 4x
// slower CPU, a cold cache on every load) over every screen of apps/web/src/app/router.tsx, and
// prints the four category scores, LCP, TBT and CLS per screen, the median of --runs loads.
// Usage: node scripts/bench/lighthouse.mjs [--runs 1] [--only TEXT[,TEXT]] [--data-dir DIR] [--details]
//        [--reports DIR] [--port P]
//   --only TEXT     the screens whose name or path contains one of the texts
//   --data-dir DIR  keep the demo data there and reuse it next time (default: a scratch folder)
//   --details       list the audits that failed (score under 0.9) per screen
//   --reports DIR   write each Lighthouse report there as JSON (open them in the Lighthouse viewer)
//   --url URL       measure a server that is already running there (no seeding, no server started)
// WCS_WEB_DIST serves another build of the web app (the server's own setting); CHROMIUM_PATH
// another browser. It signs in as demo / demo (WCS_BENCH_USER, WCS_BENCH_PASSWORD for --url).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  ensureBuilt,
  ensureNodeModules,
  ensureSystemPackages,
  log,
  repoRoot,
  run,
  runMain,
} from '../ensure.mjs';

/** Every screen of the router, by path (the catch-all 404 is not a screen). */
const SCREENS = [
  ['Dashboard', '/'],
  ['Recordings', '/recordings'],
  ['Downloads', '/downloads'],
  ['Events', '/events'],
  ['Event review', '/events/review'],
  ['Songs', '/songs'],
  ['Analytics', '/analytics'],
  ['Event insights', '/events/insights'],
  ['Overplay', '/overplay'],
  ['Playlists', '/playlists'],
  ['Playlist import', '/playlists/import'],
  ['Import from DJ software', '/dj-import'],
  ['Settings', '/settings'],
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
/** Keep in step with apps/server/src/cli/demo.ts (DEMO_MARKER_FILE). */
const MARKER_FILE = 'demo-seed.json';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const USAGE =
  'usage: node scripts/bench/lighthouse.mjs [--runs 1] [--only TEXT[,TEXT]] [--data-dir DIR] [--details]\n' +
  '       [--reports DIR] [--port P] [--url URL]';
const VALUE_FLAGS = new Set(['--runs', '--only', '--data-dir', '--reports', '--port', '--url']);

function parseArgs(argv) {
  for (let i = 0; i < argv.length; i += 1) {
    if (VALUE_FLAGS.has(argv[i])) i += 1;
    else if (argv[i] !== '--details') {
      console.error(argv[i] === '--help' ? USAGE : `unknown argument ${argv[i]}\n${USAGE}`);
      process.exit(argv[i] === '--help' ? 0 : 2);
    }
  }
  const arg = (name, fallback) => {
    const index = argv.indexOf(name);
    return index >= 0 && argv[index + 1] !== undefined ? argv[index + 1] : fallback;
  };
  return {
    runs: Math.max(1, Number(arg('--runs', 1)) || 1),
    only: arg('--only', ''),
    dataDir: arg('--data-dir', ''),
    reportsDir: arg('--reports', ''),
    port: Number(arg('--port', 0)) || 19_000 + Math.floor(Math.random() * 1000),
    details: argv.includes('--details'),
    url: arg('--url', '').replace(/\/+$/, ''),
  };
}

/** The environment of the demo server: none of the user's data settings (as scripts/demo.mjs). */
function serverEnv() {
  const env = { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', WCS_SCRAPER_SCHEDULE: 'off' };
  for (const name of ['WCS_DATA_DIR', 'WCS_RECORDINGS_DIR', 'WCS_PLAYLISTS_DIR', 'WCS_LIBRARY_ROOTS']) {
    delete env[name];
  }
  return env;
}

/**
 * Signs in as the demo account (or WCS_BENCH_USER / WCS_BENCH_PASSWORD for a server given by
 * --url) and returns the session cookie to send with every request.
 */
async function signIn(url) {
  const name = process.env.WCS_BENCH_USER || 'demo';
  const password = process.env.WCS_BENCH_PASSWORD || 'demo';
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ name, password }),
  });
  if (!response.ok) {
    throw new Error(`signing in as ${name} failed (${response.status}): ${await response.text()}`);
  }
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('wcs_session='));
  if (!cookie) throw new Error('the sign-in answer set no session cookie');
  return cookie.split(';')[0];
}

async function waitForHealth(url, server) {
  const deadline = performance.now() + 180_000;
  while (performance.now() < deadline) {
    if (server && server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not answer /api/health within 180 s');
}

const median = (values) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The figures of one Lighthouse report. */
function figuresOf(lhr) {
  const score = (id) => (lhr.categories[id]?.score == null ? Number.NaN : lhr.categories[id].score * 100);
  const audit = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    ...Object.fromEntries(CATEGORIES.map((id) => [id, score(id)])),
    lcp: audit('largest-contentful-paint'),
    fcp: audit('first-contentful-paint'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    transfer: audit('total-byte-weight'),
  };
}

/** Audits of the report that failed, by category, for --details. */
function failedAudits(lhr) {
  const lines = [];
  for (const id of CATEGORIES) {
    const category = lhr.categories[id];
    if (!category) continue;
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 0.9) continue;
      if (audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'notApplicable') continue;
      const value = audit.displayValue ? ` (${audit.displayValue})` : '';
      lines.push(`  ${id}: ${ref.id}${value}: ${audit.title}`);
      for (const item of (audit.details?.items ?? []).slice(0, 3)) {
        const node = item.node?.snippet ?? item.url ?? item.source?.url;
        if (node) lines.push(`      ${String(node).slice(0, 160)}`);
      }
    }
  }
  return lines;
}

runMain(async () => {
  const options = parseArgs(process.argv.slice(2));
  ensureNodeModules();
  ensureSystemPackages(['chromium']);
  if (!options.url) ensureBuilt();
  // Installed by ensureNodeModules on a fresh clone, so imported only now.
  const [{ default: lighthouse }, chromeLauncher] = await Promise.all([
    import('lighthouse'),
    import('chrome-launcher'),
  ]);

  const scratch =
    options.dataDir || options.url ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-bench-lighthouse-'));
  let url = options.url;
  let server = null;
  if (!url) {
    const dataDir = path.resolve(repoRoot, options.dataDir || path.join(scratch, 'data'));
    if (scratch) fs.chmodSync(scratch, 0o755); // as root, PostgreSQL runs as the postgres user
    const env = serverEnv();
    const wcs = path.join(repoRoot, 'apps/server/bin/wcs.js');
    if (!fs.existsSync(path.join(dataDir, MARKER_FILE))) {
      log(`seeding demo data into ${dataDir}`);
      const startedAt = performance.now();
      run(process.execPath, [wcs, 'demo', 'seed', '--data-dir', dataDir], { env });
      log(`seeded in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
    }
    url = `http://127.0.0.1:${options.port}`;
    server = spawn(process.execPath, [wcs, 'serve', '--port', String(options.port), '--data-dir', dataDir], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  }
  let chrome;
  try {
    await waitForHealth(url, server);
    const cookie = await signIn(url);
    const chromePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
    chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' });
    if (options.reportsDir) fs.mkdirSync(options.reportsDir, { recursive: true });

    const wanted = options.only.toLowerCase().split(',').filter(Boolean);
    const screens = SCREENS.filter(
      ([name, screenPath]) =>
        wanted.length === 0 || wanted.some((text) => `${name} ${screenPath}`.toLowerCase().includes(text)),
    );
    const rows = [];
    const details = [];
    const startedAt = performance.now();
    for (const [name, screenPath] of screens) {
      const figures = [];
      for (let runIndex = 0; runIndex < options.runs; runIndex += 1) {
        const result = await lighthouse(`${url}${screenPath}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: CATEGORIES,
          // Signed in as the demo account: every screen is behind the login page.
          extraHeaders: { Cookie: cookie },
        });
        if (!result) throw new Error(`Lighthouse returned nothing for ${screenPath}`);
        const { lhr } = result;
        if (lhr.runtimeError)
          console.error(`${screenPath}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
        for (const warning of lhr.runWarnings ?? []) console.error(`${screenPath}: ${warning}`);
        figures.push(figuresOf(lhr));
        if (options.reportsDir) {
          const file = `${screenPath.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'dashboard'}-${runIndex + 1}.json`;
          fs.writeFileSync(path.join(options.reportsDir, file), result.report);
        }
        if (options.details && runIndex === options.runs - 1) {
          details.push(`${name} (${screenPath})`, ...failedAudits(lhr));
        }
      }
      const pick = (key) => median(figures.map((figure) => figure[key]));
      const row = {
        name,
        screenPath,
        ...Object.fromEntries(Object.keys(figures[0]).map((key) => [key, pick(key)])),
      };
      rows.push(row);
      console.error(
        `[lighthouse] ${screenPath}: performance ${row.performance.toFixed(0)}, LCP ${(row.lcp / 1000).toFixed(1)} s`,
      );
    }

    const lighthouseVersion = JSON.parse(
      fs.readFileSync(path.join(repoRoot, 'node_modules/lighthouse/package.json'), 'utf8'),
    ).version;
    const seconds = (ms) => (Number.isFinite(ms) ? (ms / 1000).toFixed(1) : '-');
    const whole = (value) => (Number.isFinite(value) ? value.toFixed(0) : '-');
    console.log(
      `\nLighthouse ${lighthouseVersion}, mobile profile (simulated throttling), ` +
        `${options.runs === 1 ? 'one load' : `median of ${options.runs} loads`} per screen, ` +
        `${((performance.now() - startedAt) / 1000).toFixed(0)} s\n`,
    );
    console.log(
      '| screen | performance | accessibility | best practices | SEO | FCP s | LCP s | TBT ms | CLS | transfer KB |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const row of rows) {
      console.log(
        `| ${row.name} (\`${row.screenPath}\`) | ${whole(row.performance)} | ${whole(row.accessibility)} | ` +
          `${whole(row['best-practices'])} | ${whole(row.seo)} | ${seconds(row.fcp)} | ${seconds(row.lcp)} | ` +
          `${whole(row.tbt)} | ${Number.isFinite(row.cls) ? row.cls.toFixed(3) : '-'} | ${whole(row.transfer / 1024)} |`,
      );
    }
    if (details.length > 0)
      console.log(`\nFailed audits (score under 0.9), last load:\n${details.join('\n')}`);
  } finally {
    await chrome?.kill();
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  }
});
