import type { Locator, Page } from '@playwright/test';

/** The four progression charts: title, endpoint and fallback text. */
export const PROGRESSIONS = [
  {
    title: 'BPM Progression',
    path: '/api/analytics/bpm-progression',
    field: 'avg_bpm',
    empty: 'No BPM data available',
  },
  {
    title: 'Energy Progression',
    path: '/api/analytics/energy-progression',
    field: 'avg_energy',
    empty: 'No energy data available',
  },
  {
    title: 'Valence Progression',
    path: '/api/analytics/valence-progression',
    field: 'avg_valence',
    empty: 'No valence data available',
  },
  {
    title: 'Danceability Progression',
    path: '/api/analytics/danceability-progression',
    field: 'avg_danceability',
    empty: 'No danceability data available',
  },
] as const;

/** Analytics at /analytics. */
export class AnalyticsPage {
  readonly filterCard: Locator;
  readonly eventSelect: Locator;
  readonly socialSelect: Locator;
  readonly genreDistribution: Locator;
  readonly timeWindowTable: Locator;
  readonly comparison: Locator;
  readonly eventsRadio: Locator;
  readonly socialsRadio: Locator;
  readonly compareButton: Locator;
  readonly comparisonResults: Locator;

  constructor(readonly page: Page) {
    this.filterCard = page.getByRole('region', { name: 'Filter Analytics' });
    this.eventSelect = this.filterCard.getByRole('combobox', { name: 'Event', exact: true });
    this.socialSelect = this.filterCard.getByRole('combobox', { name: 'Social/Night' });
    this.genreDistribution = page.getByRole('region', { name: 'Genre Distribution', exact: true });
    this.timeWindowTable = page.getByRole('region', { name: 'Time Window Characteristics' });
    this.comparison = page.getByRole('region', { name: 'Event/Social Comparison Tool' });
    this.eventsRadio = this.comparison.getByRole('radio', { name: 'Events' });
    this.socialsRadio = this.comparison.getByRole('radio', { name: 'Socials' });
    this.compareButton = this.comparison.getByRole('button', {
      name: /^(Select at least 2 events\/socials|Compare \d .+)$/,
    });
    this.comparisonResults = this.comparison.getByRole('region', { name: 'Comparison Results' });
  }

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/analytics${query}`);
  }

  chart(title: string): Locator {
    return this.page.getByRole('region', { name: title, exact: true });
  }

  /** The comparison checkbox of an event or social, by the start of its label (its name). */
  comparisonOption(name: string): Locator {
    return this.comparison.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(name)}\\b`) });
  }
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
