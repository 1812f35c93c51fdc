import type { Locator, Page } from '@playwright/test';

export const METRIC_CARDS = ['Variety Score', 'Energy Balance', 'Genre Balance', 'New Song Rate'] as const;

/** Event Success Metrics at /events/insights. */
export class EventInsightsPage {
  readonly heading: Locator;
  readonly eventSelect: Locator;
  readonly noneChosen: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Event Success Metrics' });
    this.eventSelect = page.getByRole('combobox', { name: 'Event', exact: true });
    this.noneChosen = page.getByText('Select an event to view success metrics', { exact: true });
  }

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/events/insights${query}`);
  }

  card(label: (typeof METRIC_CARDS)[number]): Locator {
    return this.page.getByRole('article', { name: label, exact: true });
  }

  chart(title: string): Locator {
    return this.page.getByRole('region', { name: title, exact: true });
  }
}
