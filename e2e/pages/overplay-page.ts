import type { Locator, Page } from '@playwright/test';

/** Overplay Detection Dashboard at /overplay. */
export class OverplayPage {
  readonly heading: Locator;
  readonly slider: Locator;
  readonly warnings: Locator;
  readonly warningList: Locator;
  readonly trend: Locator;
  readonly freshPool: Locator;
  readonly ageFilter: Locator;
  readonly genreFilter: Locator;
  readonly freshList: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Overplay Detection Dashboard' });
    this.slider = page.getByRole('slider', { name: 'Overplay Threshold' });
    this.warnings = page.getByRole('region', { name: 'Overplay Warnings' });
    this.warningList = this.warnings.getByRole('list', { name: 'Overplayed songs' });
    this.trend = page.getByRole('region', { name: 'Play Trend' });
    this.freshPool = page.getByRole('region', { name: 'Fresh Songs Pool' });
    this.ageFilter = this.freshPool.getByRole('combobox', { name: 'Age Category' });
    this.genreFilter = this.freshPool.getByRole('combobox', { name: 'Genre' });
    this.freshList = this.freshPool.getByRole('list', { name: 'Fresh songs' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/overplay');
  }

  tileValue(scope: Locator, label: string): Locator {
    return scope.getByRole('article', { name: label, exact: true }).getByRole('paragraph');
  }
}
