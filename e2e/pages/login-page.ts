import { expect, type Locator, type Page } from '@playwright/test';

/** The login page at /login (no shell around it). */
export class LoginPage {
  readonly heading: Locator;
  readonly nameField: Locator;
  readonly passwordField: Locator;
  readonly signInButton: Locator;
  readonly alert: Locator;
  readonly demoHint: Locator;
  readonly setupHint: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Sign in' });
    this.nameField = page.getByLabel('Name', { exact: true });
    this.passwordField = page.getByLabel('Password', { exact: true });
    this.signInButton = page.getByRole('button', { name: 'Sign in', exact: true });
    this.alert = page.getByRole('alert');
    this.demoHint = page.getByText('Demo: sign in as demo with the password demo', { exact: true });
    this.setupHint = page.getByText('No account exists yet', { exact: false });
  }

  async goto(next?: string): Promise<void> {
    await this.page.goto(next ? `/login?next=${encodeURIComponent(next)}` : '/login');
    await expect(this.heading).toBeVisible();
  }

  /** Types the name and password and presses Sign in (the caller checks where it leads). */
  async signIn(name: string, password: string): Promise<void> {
    await this.nameField.fill(name);
    await this.passwordField.fill(password);
    await this.signInButton.click();
  }
}

/**
 * Collects the browser's reports of Content-Security-Policy violations: the server's policy
 * allows only the app's own scripts (apps/server/src/app.ts), and the built app must live with it.
 */
export function trackCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  return violations;
}
