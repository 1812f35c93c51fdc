import { expect, test as setup } from '@playwright/test';
import { AppShell } from './pages/app-shell.js';
import { LoginPage, trackCspViolations } from './pages/login-page.js';
import {
  baseURL,
  DEMO_ACCOUNT,
  DEMO_STATE,
  demoURL,
  FRESH_ADMIN,
  FRESH_STATE,
  SIGNED_OUT,
} from './servers.js';

/**
 * Signs in on both servers as a user would: the app sends a signed-out visitor to the login page,
 * the account signs in there and lands where it was going. The cookies are kept for the specs
 * (playwright.config.ts). The built app must run under the server's Content-Security-Policy:
 * any violation the browser reports fails the setup, and with it the run.
 */
const SERVERS = [
  { label: 'the fresh server', url: baseURL, account: FRESH_ADMIN, state: FRESH_STATE, isDemo: false },
  { label: 'the demo server', url: demoURL, account: DEMO_ACCOUNT, state: DEMO_STATE, isDemo: true },
] as const;

for (const server of SERVERS) {
  setup(
    `sign in as ${server.account.name} on ${server.label} through the login page`,
    async ({ browser }) => {
      const context = await browser.newContext({ baseURL: server.url, storageState: SIGNED_OUT });
      const page = await context.newPage();
      const violations = trackCspViolations(page);

      await page.goto('/analytics');
      await expect(page).toHaveURL(`${server.url}/login?next=%2Fanalytics`);
      const login = new LoginPage(page);
      await expect(login.heading).toBeVisible();
      // The demo's login page names its account; a real server's does not.
      await expect(login.demoHint).toHaveCount(server.isDemo ? 1 : 0);
      await expect(login.setupHint).toHaveCount(0);

      await login.signIn(server.account.name, server.account.password);
      await expect(page).toHaveURL(`${server.url}/analytics`);
      const shell = new AppShell(page);
      await expect(shell.title).toHaveText('Analytics');
      await expect(page.getByRole('banner')).toContainText(server.account.name);
      await expect(page.getByRole('banner')).toContainText('admin');

      expect(violations, 'Content-Security-Policy violations reported by the browser').toEqual([]);
      await context.storageState({ path: server.state });
      await context.close();
    },
  );
}
