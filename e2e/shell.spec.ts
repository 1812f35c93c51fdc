import { expect, test } from '@playwright/test';
import { AppShell, PRODUCT_NAME, SIDEBAR_ENTRIES } from './pages/app-shell.js';
import { DashboardPage, QUICK_ACTION_PATHS, STAT_CARDS } from './pages/dashboard-page.js';
import { ErrorPage } from './pages/error-page.js';

// An uncaught exception in the page fails the test that caused it.
const pageErrors: Error[] = [];
test.beforeEach(({ page }) => {
  pageErrors.length = 0;
  page.on('pageerror', (error) => pageErrors.push(error));
});
test.afterEach(() => {
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

test.describe('shell on a wide screen', () => {
  test('the sidebar lists the ten entries in order, each with an icon', async ({ page }) => {
    const shell = new AppShell(page);
    await shell.goto('/');

    await expect(shell.sidebar).toBeVisible();
    await expect(shell.sidebarLinks).toHaveText(SIDEBAR_ENTRIES.map((entry) => entry.label));
    for (const entry of SIDEBAR_ENTRIES) {
      const link = shell.sidebarLink(entry.label);
      await expect(link).toHaveAttribute('href', entry.path);
      await expect(link.locator('svg')).toHaveCount(1);
    }
    // The sidebar is fixed: no menu button on a wide screen.
    await expect(shell.openMenuButton).toBeHidden();
  });

  test('the brand shows the product, its subtitle and the version', async ({ page }) => {
    const shell = new AppShell(page);
    await shell.goto('/');
    const sidebar = page.locator('#app-sidebar');
    await expect(sidebar.getByText(PRODUCT_NAME, { exact: true })).toBeVisible();
    await expect(sidebar.getByText('v0.1.0', { exact: true })).toBeVisible();
  });

  test('Dashboard is active only on /', async ({ page }) => {
    const shell = new AppShell(page);
    await shell.goto('/');
    await expect(shell.sidebarLink('Dashboard')).toHaveAttribute('aria-current', 'page');

    await shell.sidebarLink('Songs').click();
    await expect(page).toHaveURL('/songs');
    await expect(shell.sidebarLink('Songs')).toHaveAttribute('aria-current', 'page');
    await expect(shell.sidebarLink('Dashboard')).not.toHaveAttribute('aria-current', 'page');

    await shell.goto('/settings');
    await expect(shell.sidebarLink('Settings')).toHaveAttribute('aria-current', 'page');
    await expect(shell.sidebarLink('Dashboard')).not.toHaveAttribute('aria-current', 'page');
  });

  test('the header title follows the path, with the LIVE badge', async ({ page }) => {
    const shell = new AppShell(page);
    const expectedTitles: [path: string, title: string][] = [
      ['/', 'Dashboard'],
      ['/events', 'Events'],
      ['/songs', 'Songs'],
      ['/analytics', 'Analytics'],
      ['/playlists', 'Playlists'],
      ['/settings', 'Settings'],
      ['/recordings', PRODUCT_NAME],
      ['/downloads', PRODUCT_NAME],
      ['/events/insights', PRODUCT_NAME],
      ['/overplay', PRODUCT_NAME],
    ];
    for (const [path, title] of expectedTitles) {
      await shell.goto(path);
      await expect(shell.title, `title on ${path}`).toHaveText(title);
      await expect(shell.liveBadge).toBeVisible();
    }
  });

  test('the LIVE badge pulses', async ({ page }) => {
    const shell = new AppShell(page);
    await shell.goto('/');
    await expect(shell.liveBadge).toBeVisible();
    await expect(shell.liveBadge).toHaveCSS('animation-name', 'pulse');
  });
});

test.describe('dashboard', () => {
  test('the four stat cards show the numbers of the overview', async ({ page }) => {
    const dashboard = new DashboardPage(page);
    const overview = await dashboard.goto();

    await expect(dashboard.welcome).toBeVisible();
    for (const { label, field } of STAT_CARDS) {
      const expected = overview[field] ?? 0;
      expect(typeof expected, `${field} in the overview`).toBe('number');
      await expect(dashboard.statValue(label)).toHaveText(String(expected));
    }
  });

  test('six quick actions lead to their screens, and System Status is shown', async ({ page }) => {
    const dashboard = new DashboardPage(page);
    await dashboard.goto();

    await expect(dashboard.quickActions).toHaveCount(QUICK_ACTION_PATHS.length);
    for (const [index, path] of QUICK_ACTION_PATHS.entries()) {
      await expect(dashboard.quickActions.nth(index)).toHaveAttribute('href', path);
    }
    // Measured and read from the configuration: this fresh server has no download provider.
    await expect(dashboard.systemStatus.getByRole('heading', { level: 3 })).toHaveCount(6);
    await expect(dashboard.systemStatus.getByRole('listitem', { name: 'Server: OK' })).toBeVisible();
    await expect(dashboard.systemStatus.getByRole('listitem', { name: 'Database: OK' })).toBeVisible();
    const downloads = dashboard.systemStatus.getByRole('listitem', { name: 'Downloads: Warning' });
    await expect(downloads).toContainText('No download provider is configured');
    await expect(downloads).toContainText('Turn on the inbox folder under Download providers in Settings');
    await expect(dashboard.systemStatus.getByRole('listitem', { name: /^Disk space: / })).toContainText(
      'GB free',
    );
    await expect(dashboard.systemStatus).not.toContainText(/streaming/i);
  });
});

test.describe('drawer on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the menu button opens it; backdrop, close button and navigation close it', async ({ page }) => {
    const shell = new AppShell(page);
    await shell.goto('/');
    await expect(shell.sidebar).toBeHidden();

    await shell.openMenuButton.click();
    await expect(shell.sidebar).toBeVisible();
    await shell.tapBackdrop();
    await expect(shell.sidebar).toBeHidden();

    await shell.openMenuButton.click();
    await expect(shell.sidebar).toBeVisible();
    await shell.closeMenuButton.click();
    await expect(shell.sidebar).toBeHidden();

    await shell.openMenuButton.click();
    await expect(shell.sidebar).toBeVisible();
    await shell.sidebarLink('Songs').click();
    await expect(shell.sidebar).toBeHidden();
    await expect(page).toHaveURL('/songs');
    await expect(shell.title).toHaveText('Songs');
  });
});

test.describe('route errors', () => {
  test('an unknown route shows the error page with 404', async ({ page }) => {
    const shell = new AppShell(page);
    const errorPage = new ErrorPage(page);
    await shell.goto('/no-such-screen');

    await expect(errorPage.title).toBeVisible();
    await expect(errorPage.alert).toContainText('404 Not Found');
    // The shell stays around the error, so the sidebar still leads somewhere.
    await expect(shell.title).toHaveText(PRODUCT_NAME);
  });
});
