import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.E2E_PORT ?? 8181);
const baseURL = `http://127.0.0.1:${port}`;

/**
 * A fresh data folder (embedded PostgreSQL, recordings, playlists) for every run. The runner and
 * each worker evaluate this file: the runner makes the folder and hands it to the workers through
 * the environment, and removes it when it exits (after the web server has been stopped).
 */
function e2eDataDir(): string {
  const inherited = process.env.WCS_E2E_DATA_DIR;
  if (inherited) return inherited;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-e2e-'));
  // mkdtemp makes it 0700; as root, embedded PostgreSQL runs as another user that must reach inside.
  fs.chmodSync(dir, 0o755);
  process.env.WCS_E2E_DATA_DIR = dir;
  process.on('exit', () => {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Best effort: a leftover folder in the temp directory is harmless.
    }
  });
  return dir;
}

const dataDir = e2eDataDir();

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: path.join(repoRoot, 'test-results', 'e2e'),
  // Two cores: one browser at a time keeps timings stable.
  workers: 1,
  retries: 0,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // scripts/test.mjs sets PLAYWRIGHT_JSON_OUTPUT_FILE to read the counts; the json reporter writes there.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's chromium: Playwright never downloads a browser here.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: `node apps/server/bin/wcs.js serve --port ${port} --data-dir ${JSON.stringify(dataDir)}`,
    cwd: repoRoot,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // SIGTERM lets the server stop its embedded PostgreSQL; a SIGKILL would leave it running.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      // Always the fresh embedded database above, whatever the developer's shell has set.
      DATABASE_URL: '',
      WCS_PG_PORT: '0',
      WCS_RECORDINGS_DIR: path.join(dataDir, 'recordings'),
      WCS_PLAYLISTS_DIR: path.join(dataDir, 'playlists'),
      WCS_WEB_DIST: path.join(repoRoot, 'apps/web/dist'),
      LOG_LEVEL: 'warn',
    },
  },
});
