import type { Locator, Page } from '@playwright/test';

/** The route error page: a fixed title with the status or message beneath. */
export class ErrorPage {
  readonly alert: Locator;
  readonly title: Locator;

  constructor(readonly page: Page) {
    this.alert = page.getByRole('alert');
    this.title = this.alert.getByRole('heading', { name: 'Unexpected Application Error!' });
  }
}
