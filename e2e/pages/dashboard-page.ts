import type { Locator, Page } from '@playwright/test';

export const STAT_CARDS = [
  { label: 'Total Songs', field: 'total_songs' },
  { label: 'Total Events', field: 'total_events' },
  { label: 'Total Plays', field: 'total_plays' },
  { label: 'Pending Downloads', field: 'pending_downloads' },
] as const;

export const QUICK_ACTION_PATHS = [
  '/recordings',
  '/downloads',
  '/analytics',
  '/songs',
  '/events',
  '/playlists',
] as const;

/** The dashboard at /. */
export class DashboardPage {
  readonly welcome: Locator;
  readonly quickActions: Locator;
  readonly systemStatus: Locator;

  constructor(readonly page: Page) {
    this.welcome = page.getByRole('heading', { name: /welcome/i });
    this.quickActions = page.getByRole('region', { name: 'Quick Actions' }).getByRole('link');
    this.systemStatus = page.getByRole('region', { name: 'System Status' });
  }

  /** Loads the dashboard and returns the overview the server answered with. */
  async goto(): Promise<Record<string, unknown>> {
    const overview = this.page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/analytics/overview',
    );
    await this.page.goto('/');
    const response = await overview;
    if (!response.ok()) throw new Error(`GET /api/analytics/overview answered ${response.status()}`);
    return (await response.json()) as Record<string, unknown>;
  }

  statCard(label: string): Locator {
    return this.page.getByRole('article', { name: label, exact: true });
  }

  /** The figure of a stat card (the paragraph under its title). */
  statValue(label: string): Locator {
    return this.statCard(label).getByRole('paragraph');
  }
}
