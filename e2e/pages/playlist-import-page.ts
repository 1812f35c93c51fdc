import type { Locator, Page } from '@playwright/test';

/** Playlist Import at /playlists/import (simulated in the browser, no server call). */
export class PlaylistImportPage {
  readonly heading: Locator;
  readonly runDemoButton: Locator;
  readonly selectAllButton: Locator;
  readonly clearButton: Locator;
  readonly startImportButton: Locator;
  readonly progress: Locator;
  readonly progressStatus: Locator;
  readonly urlInput: Locator;
  readonly importFromUrlButton: Locator;
  readonly list: Locator;
  readonly checkboxes: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Playlist Import', exact: true });
    this.runDemoButton = page.getByRole('button', { name: 'Run Demo' });
    this.selectAllButton = page.getByRole('button', { name: 'Select All' });
    this.clearButton = page.getByRole('button', { name: 'Clear' });
    this.startImportButton = page.getByRole('button', { name: /^(Start Import|Importing\.\.\. \d+%)$/ });
    this.progress = page.getByRole('progressbar', { name: 'Import progress' });
    this.progressStatus = page.getByRole('region', { name: 'Import actions' }).getByRole('status');
    this.urlInput = page.getByRole('textbox', { name: 'Playlist URL' });
    this.importFromUrlButton = page.getByRole('button', { name: 'Import from URL' });
    this.list = page.getByRole('region', { name: 'Historical playlists' });
    this.checkboxes = this.list.getByRole('checkbox');
  }

  async goto(): Promise<void> {
    await this.page.goto('/playlists/import');
  }

  tileValue(label: string): Locator {
    return this.page.getByRole('article', { name: label, exact: true }).getByRole('paragraph');
  }

  /** The section of one festival year, named by the year. */
  year(year: number): Locator {
    return this.list.getByRole('region', { name: String(year), exact: true });
  }

  /** The checkbox of a playlist, named by the playlist's name. */
  checkbox(name: string): Locator {
    return this.list.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(name)}`) });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
