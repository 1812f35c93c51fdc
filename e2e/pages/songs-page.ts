import type { Locator, Page } from '@playwright/test';

/** The six filters with their options' labels, as the screen shows them. */
export const SONG_FILTERS = {
  Genre: ['All genres', 'Acoustic', 'Hip-Hop/R&B', 'Pop', 'Contemporary', 'Blues/Jazz'],
  Age: ['All ages', 'New (under 6 months)', 'Mid (6 months to 2 years)', 'Old (over 2 years)'],
  Energy: ['All energy levels', 'High (70-100%)', 'Mid (40-70%)', 'Low (0-40%)'],
  Analysis: ['All', 'Analyzed', 'Pending'],
  'File Status': ['All', 'Downloaded', 'Not downloaded'],
  'Spotify Popularity': ['All', 'Hot (90-100)', 'Popular (60-89)', 'Niche (under 60)'],
} as const;

export type SongFilterLabel = keyof typeof SONG_FILTERS;

export interface ApiSong {
  song_id: number;
  title: string;
  artist: string;
  overplay_score: number;
}

/** Songs at /songs. */
export class SongsPage {
  readonly heading: Locator;
  readonly subtitle: Locator;
  readonly search: Locator;
  readonly clearFilters: Locator;
  readonly countLine: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly pagination: Locator;
  readonly modal: Locator;

  constructor(readonly page: Page) {
    const main = page.getByRole('main');
    this.heading = main.getByRole('heading', { name: 'Songs', exact: true });
    this.subtitle = main.getByText('Browse and manage your song library', { exact: true });
    this.search = page.getByRole('searchbox', { name: 'Search songs' });
    this.clearFilters = page.getByRole('button', { name: 'Clear all filters' });
    this.countLine = main.getByText(/^Showing \d+ of \d+ songs/);
    this.table = main.getByRole('table');
    this.rows = this.table.getByRole('row');
    this.pagination = page.getByRole('navigation', { name: 'Pagination' });
    this.modal = page.getByRole('dialog');
  }

  async goto(): Promise<void> {
    await this.page.goto('/songs');
  }

  filter(label: SongFilterLabel): Locator {
    return this.page.getByRole('combobox', { name: label, exact: true });
  }

  songButton(title: string): Locator {
    return this.table.getByRole('button', { name: title, exact: true });
  }
}
