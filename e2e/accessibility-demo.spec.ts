import { expect, type Page, test } from '@playwright/test';
import { SIDEBAR_ENTRIES } from './pages/app-shell.js';
import { trackCspViolations } from './pages/login-page.js';
import { SIGNED_OUT } from './servers.js';
import { axeViolations, FAILING_IMPACTS, type Violation } from './support/axe.js';

/**
 * axe-core on every screen of the app, filled with the demo data (so lists, tables, badges and
 * charts are there to check), in the light and the dark theme; signed in as the demo's admin, so
 * Settings shows its Users, Device tokens and Audit log too. The login and setup pages are checked
 * signed out. A serious or critical violation fails the test, listed with the rule, the elements
 * and what axe says to fix. Each screen must also run under the server's Content-Security-Policy.
 *
 * The two themes differ only in colours (apps/web/src/index.css: daisyUI's light and dark themes,
 * the same markup and sizes), so the light theme runs every rule and the dark theme the rules that
 * read colours. axe runs the fast way (e2e/support/axe.ts).
 */
const SCREENS = [
  ...SIDEBAR_ENTRIES,
  { label: 'Event Review', path: '/events/review' },
  { label: 'Playlist Import', path: '/playlists/import' },
  { label: 'Import from DJ software', path: '/dj-import' },
] as const;
/** The screens anyone may open, checked in a browser with nobody signed in. */
const PUBLIC_SCREENS = [
  { label: 'Login', path: '/login' },
  { label: 'Setup', path: '/setup?token=not-a-real-token' },
] as const;
/** The rules whose outcome depends on the colours, all that can differ between the themes. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

function describeViolations(violations: Violation[]): string {
  return violations
    .map((violation) => {
      const nodes = violation.nodes.slice(0, 5).map((node) => {
        const summary = (node.failureSummary ?? '').split('\n').map((line) => `      ${line}`);
        return [`    - ${node.target.join(' ')}`, `      ${node.html.slice(0, 200)}`, ...summary].join('\n');
      });
      const more = violation.nodes.length > 5 ? [`    ... and ${violation.nodes.length - 5} more`] : [];
      return [
        `[${violation.impact}] ${violation.id}: ${violation.help} (${violation.nodes.length} elements)`,
        `    ${violation.helpUrl}`,
        ...nodes,
        ...more,
      ].join('\n');
    })
    .join('\n\n');
}

/** The screen with its data: no spinner left, and every chart scrolled into view and drawn. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('main .loading')).toHaveCount(0, { timeout: 15_000 });
  // Charts draw when they come near the viewport: scroll through the page so axe sees them too.
  const height = Number(await page.evaluate('document.body.scrollHeight'));
  // A chart draws within half a screen of the viewport (apps/web/src/components/charts/lazy.tsx):
  // a screen at a time brings every one near.
  const step = page.viewportSize()?.height ?? 720;
  for (let y = 0; y < height; y += step) {
    await page.mouse.wheel(0, step);
    await page.waitForTimeout(50);
  }
  await page.evaluate('window.scrollTo(0, 0)');
  await page.waitForLoadState('networkidle');
  await expect(page.locator('main .loading')).toHaveCount(0, { timeout: 15_000 });
}

/** Opens the screen, lets it settle, and fails on a serious or critical violation or a CSP report. */
async function checkScreen(page: Page, path: string, colorScheme: 'light' | 'dark'): Promise<void> {
  // axe over a long screen took 45 s once on the 2 shared cores under other work (30 s default).
  test.setTimeout(90_000);
  const cspViolations = trackCspViolations(page);
  await page.goto(path);
  await expect(page.getByRole('main')).toBeVisible();
  await settle(page);

  const violations = await axeViolations(page, colorScheme === 'light' ? {} : { rules: COLOUR_RULES });
  const failing = violations.filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''));
  const minor = violations.filter((violation) => !FAILING_IMPACTS.has(violation.impact ?? ''));
  if (minor.length > 0) {
    console.log(`${path} (${colorScheme}), not failing:\n${describeViolations(minor)}`);
  }
  expect(describeViolations(failing), `serious or critical violations on ${path}`).toBe('');
  expect(cspViolations, `Content-Security-Policy violations on ${path}`).toEqual([]);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`accessibility, ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    for (const screen of SCREENS) {
      test(`${screen.label} (${screen.path}) has no serious or critical axe violation`, async ({ page }) => {
        await checkScreen(page, screen.path, colorScheme);
      });
    }

    test.describe('signed out', () => {
      test.use({ storageState: SIGNED_OUT });

      for (const screen of PUBLIC_SCREENS) {
        test(`${screen.label} (${screen.path}) has no serious or critical axe violation`, async ({
          page,
        }) => {
          await checkScreen(page, screen.path, colorScheme);
          await expect(page).toHaveURL(new RegExp(`${screen.path.replace(/[?]/g, '\\?')}$`));
        });
      }
    });
  });
}
