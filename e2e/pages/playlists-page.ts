import type { Locator, Page } from '@playwright/test';

export interface ApiPlaylist {
  playlist_id: number;
  playlist_name: string;
  song_count: number;
  total_duration_seconds: number;
}

/** Managed Playlists at /playlists. */
export class PlaylistsPage {
  readonly heading: Locator;
  readonly regenerateButton: Locator;
  readonly activeHeading: Locator;
  readonly list: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Managed Playlists' });
    this.regenerateButton = page.getByRole('button', { name: 'Regenerate All Playlists' });
    this.activeHeading = page.getByRole('heading', { name: /^Active Playlists \(\d+\)$/ });
    this.list = page.getByRole('region', { name: /^Active Playlists/ }).getByRole('list');
  }

  async goto(): Promise<void> {
    await this.page.goto('/playlists');
  }

  card(name: string): Locator {
    return this.list.getByRole('listitem', { name, exact: true });
  }
}
