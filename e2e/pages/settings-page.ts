import type { Locator, Page } from '@playwright/test';

/** Labels of the six numeric inputs, by setting. */
export const NUMBER_LABELS = {
  download_priority_threshold: 'Download priority threshold',
  minimum_plays_to_download: 'Minimum plays to download',
  party_weight: 'Party weight',
  festival_weight: 'Festival weight',
  overplay_new_threshold: 'Overplay threshold for new songs',
  overplay_mid_threshold: 'Overplay threshold for mid and old songs',
} as const;

export type NumericSetting = keyof typeof NUMBER_LABELS;

export interface ApiSettings extends Record<NumericSetting, number> {
  download_enabled: boolean;
  max_downloads_per_day: number;
  tor_enabled: boolean;
  cloud_recognizers: string[];
}

/** Settings Management at /settings. */
export class SettingsPage {
  readonly heading: Locator;
  readonly downloadsToggle: Locator;
  readonly saveButton: Locator;
  readonly successMessage: Locator;
  readonly alert: Locator;
  readonly readOnly: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Settings Management' });
    this.downloadsToggle = page.getByRole('checkbox', { name: 'Downloads enabled' });
    this.saveButton = page.getByRole('button', { name: /^(Save Settings|Saving\.\.\.)$/ });
    this.successMessage = page.getByRole('status').filter({ hasText: 'Settings updated successfully!' });
    this.alert = page.getByRole('main').getByRole('alert');
    this.readOnly = page.getByRole('region', { name: 'Server configuration (read-only)' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/settings');
  }

  field(setting: NumericSetting): Locator {
    return this.page.getByRole('spinbutton', { name: NUMBER_LABELS[setting], exact: true });
  }
}
