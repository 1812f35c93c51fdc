import type { Locator, Page } from '@playwright/test';

/** The sidebar entries in the specification's order, with their routes. */
export const SIDEBAR_ENTRIES = [
  { label: 'Dashboard', path: '/' },
  { label: 'Recordings', path: '/recordings' },
  { label: 'Downloads', path: '/downloads' },
  { label: 'Events', path: '/events' },
  { label: 'Songs', path: '/songs' },
  { label: 'Analytics', path: '/analytics' },
  { label: 'Event Insights', path: '/events/insights' },
  { label: 'Overplay Monitor', path: '/overplay' },
  { label: 'Playlists', path: '/playlists' },
  { label: 'Settings', path: '/settings' },
] as const;

export const PRODUCT_NAME = 'WCS DJ Library';

/** The root layout around every screen: sidebar (or drawer), header, content. */
export class AppShell {
  readonly sidebar: Locator;
  readonly sidebarLinks: Locator;
  readonly title: Locator;
  readonly liveBadge: Locator;
  readonly openMenuButton: Locator;
  readonly closeMenuButton: Locator;
  readonly main: Locator;
  /** The header's Sign out, beside the signed-in name and role. */
  readonly signOutButton: Locator;

  constructor(readonly page: Page) {
    this.sidebar = page.getByRole('navigation', { name: 'Main' });
    this.sidebarLinks = this.sidebar.getByRole('link');
    this.title = page.getByRole('banner').getByRole('heading', { level: 1 });
    this.liveBadge = page.getByRole('banner').getByText('● LIVE');
    this.openMenuButton = page.getByRole('button', { name: 'Open menu', exact: true });
    this.closeMenuButton = page.getByRole('button', { name: 'Close menu', exact: true });
    this.main = page.getByRole('main');
    this.signOutButton = page.getByRole('banner').getByRole('button', { name: 'Sign out', exact: true });
  }

  async goto(path: string): Promise<void> {
    await this.page.goto(path);
  }

  sidebarLink(label: string): Locator {
    return this.sidebar.getByRole('link', { name: label, exact: true });
  }

  /** Taps the dimmed backdrop beside the open drawer (its right edge, clear of the sidebar). */
  async tapBackdrop(): Promise<void> {
    // The backdrop has no role of its own: it is daisyUI's overlay label for the drawer toggle.
    const backdrop = this.page.locator('.drawer-overlay');
    const box = await backdrop.boundingBox();
    if (!box) throw new Error('the drawer backdrop is not on screen');
    await backdrop.click({ position: { x: box.width - 10, y: Math.round(box.height / 2) } });
  }
}
