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

/** The admin's sections of Settings (Users, Device tokens, Audit log) and Change password. */
export class AccountSettings {
  readonly users: Locator;
  readonly createUserForm: Locator;
  readonly tokens: Locator;
  readonly createTokenForm: Locator;
  readonly createdToken: Locator;
  readonly audit: Locator;
  readonly changePassword: Locator;

  constructor(readonly page: Page) {
    this.users = page.getByRole('region', { name: 'Users', exact: true });
    this.createUserForm = this.users.getByRole('form', { name: 'Create an account' });
    this.tokens = page.getByRole('region', { name: 'Device tokens', exact: true });
    this.createTokenForm = this.tokens.getByRole('form', { name: 'Create a token' });
    this.createdToken = this.tokens.getByRole('status').filter({ hasText: 'shown only once' });
    this.audit = page.getByRole('region', { name: 'Audit log', exact: true });
    this.changePassword = page.getByRole('region', { name: 'Change password', exact: true });
  }

  /** Fills Create an account and presses Create user. */
  async createUser(name: string, role: 'viewer' | 'dj' | 'admin', password: string): Promise<void> {
    const form = this.createUserForm;
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Role', { exact: true }).selectOption(role);
    await form.getByLabel('Password', { exact: true }).fill(password);
    await form.getByLabel('Repeat password', { exact: true }).fill(password);
    await form.getByRole('button', { name: 'Create user' }).click();
  }

  /** The row of an account in the Users table, by its name. */
  userRow(name: string): Locator {
    return this.users.getByRole('row').filter({ has: this.page.getByRole('rowheader', { name }) });
  }

  /** The row of a device token in the Device tokens table, by its name. */
  tokenRow(name: string): Locator {
    return this.tokens
      .getByRole('row')
      .filter({ has: this.page.getByRole('rowheader', { name, exact: true }) });
  }
}
