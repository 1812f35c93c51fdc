import { test as base } from '@playwright/test';

export { expect } from '@playwright/test';

/**
 * Playwright's `test` with one change: the `request` fixture, which specs use to read and prepare
 * data through the API, names the server under test as its Origin. The server refuses a
 * state-changing request signed in by cookie without a same-origin Origin (docs/security.md
 * "Browser sessions"); browsers add that header themselves, an API context does not. The cookie
 * comes from the project's storage state, like the browser's.
 */
export const test = base.extend({
  request: async ({ playwright, baseURL }, use) => {
    if (!baseURL) throw new Error('the e2e projects set a baseURL');
    const context = await playwright.request.newContext({
      extraHTTPHeaders: { origin: new URL(baseURL).origin },
    });
    await use(context);
    await context.dispose();
  },
});
