import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import {
  baseURL,
  DEMO_STATE,
  demoPort,
  demoURL,
  FRESH_ADMIN,
  FRESH_STATE,
  metadataFakeURL,
  port,
  repoRoot,
} from './servers.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/browser.js';

/**
 * Fresh data folders (embedded PostgreSQL, recordings, playlists) for every run. The runner and
 * each worker evaluate this file: the runner makes the folders and hands them to the workers
 * through the environment, and removes them when it exits (after the web servers have stopped).
 */
function e2eDataDir(variable: string): string {
  const inherited = process.env[variable];
  if (inherited) return inherited;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-e2e-'));
  // mkdtemp makes it 0700; as root, embedded PostgreSQL runs as another user that must reach inside.
  fs.chmodSync(dir, 0o755);
  process.env[variable] = dir;
  process.on('exit', () => {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Best effort: a leftover folder in the temp directory is harmless.
    }
  });
  return dir;
}

/** An empty product: screens are exercised from nothing, each spec creating what it needs. */
const freshDir = e2eDataDir('WCS_E2E_DATA_DIR');
/** The product filled by `wcs demo seed`: screens that show songs, plays and playlists. */
const demoDir = e2eDataDir('WCS_E2E_DEMO_DIR');
/** Specs of the screens whose content comes from songs and plays run on the demo data. */
const DEMO_SPECS = /(songs|analytics|event-insights|overplay|playlists|[\w-]+-demo)\.spec\.ts$/;

const wcs = (args: string) => `node apps/server/bin/wcs.js ${args}`;
function server(dataDir: string, serverPort: number, command: string) {
  return {
    command,
    cwd: repoRoot,
    url: `http://127.0.0.1:${serverPort}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    // SIGTERM lets the server stop its embedded PostgreSQL; a SIGKILL would leave it running.
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 15_000 },
    env: {
      // Always the embedded database of this folder, whatever the developer's shell has set.
      DATABASE_URL: '',
      WCS_PG_PORT: '0',
      WCS_RECORDINGS_DIR: path.join(dataDir, 'recordings'),
      WCS_PLAYLISTS_DIR: path.join(dataDir, 'playlists'),
      WCS_LIBRARY_ROOTS: path.join(dataDir, 'library'),
      WCS_SCRAPER_SCHEDULE: 'off',
      // Metadata only on demand, from the local stand-in (servers.ts); Spotify stays unconfigured.
      WCS_METADATA_LOOKUP: 'manual',
      MUSICBRAINZ_URL: `${metadataFakeURL}/ws/2/`,
      ITUNES_URL: metadataFakeURL,
      SPOTIFY_CLIENT_ID: '',
      SPOTIFY_CLIENT_SECRET: '',
      // E2E_WEB_DIST: a private build, so a parallel `vite build` cannot swap the files mid-run.
      WCS_WEB_DIST: process.env.E2E_WEB_DIST ?? path.join(repoRoot, 'apps/web/dist'),
      LOG_LEVEL: 'warn',
    },
  };
}

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // E2E_OUTPUT_DIR: a private folder, so a second run beside this one cannot wipe its traces.
  outputDir: process.env.E2E_OUTPUT_DIR ?? path.join(repoRoot, 'test-results', 'e2e'),
  // Two cores: one browser at a time keeps timings stable.
  workers: 1,
  retries: 0,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  // A whole test's budget, not what it asserts: the longest specs (the downloads preview: three
  // dialogs, four server answers) ran past 30 s at a load of 15-20 on two cores.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // scripts/test.mjs sets PLAYWRIGHT_JSON_OUTPUT_FILE to read the counts; the json reporter writes there.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's chromium: Playwright never downloads a browser here.
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    // Signs in through the login page on both servers and keeps the cookies for the projects below.
    { name: 'setup', testMatch: /auth\.setup\.ts$/, use: { ...devices['Desktop Chrome'] } },
    {
      name: 'chromium',
      testIgnore: DEMO_SPECS,
      dependencies: ['setup'],
      use: { ...devices['Desktop Chrome'], baseURL, storageState: FRESH_STATE },
    },
    {
      name: 'demo',
      testMatch: DEMO_SPECS,
      dependencies: ['setup'],
      use: { ...devices['Desktop Chrome'], baseURL: demoURL, storageState: DEMO_STATE },
    },
  ],
  webServer: [
    // Every route needs a session: the fresh server gets its admin before it starts (the password
    // is read from stdin). `exec`: the signal that stops the run reaches the server itself.
    server(
      freshDir,
      port,
      `printf '%s\\n' ${JSON.stringify(FRESH_ADMIN.password)} | ${wcs(
        `user add ${FRESH_ADMIN.name} --role admin --data-dir ${JSON.stringify(freshDir)}`,
      )} && exec ${wcs(`serve --port ${port} --data-dir ${JSON.stringify(freshDir)}`)}`,
    ),
    // The demo's seed makes the account demo / demo. `exec`: the signal that stops the run reaches
    // the server itself, which stops its PostgreSQL.
    server(
      demoDir,
      demoPort,
      `${wcs(`demo seed --data-dir ${JSON.stringify(demoDir)}`)} && exec ${wcs(
        `serve --port ${demoPort} --data-dir ${JSON.stringify(demoDir)}`,
      )}`,
    ),
  ],
});
