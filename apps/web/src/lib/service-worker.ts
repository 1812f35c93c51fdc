import { registerSW } from 'virtual:pwa-register';
import { announceUpdate } from './app-update';

/** The specification's update check: every 60 minutes. */
export const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Registers the service worker once the page has loaded and checks for a new version every hour.
 * A new version waits until the user reloads from the prompt (lib/app-update.ts) or every tab of
 * the app is closed. A failure is only logged: the app works without a service worker, just not
 * offline.
 */
export function registerServiceWorker(): void {
  const updateServiceWorker = registerSW({
    onNeedRefresh() {
      announceUpdate(() => updateServiceWorker(true));
    },
    onRegisteredSW(_scriptUrl, registration) {
      if (!registration) return;
      setInterval(() => {
        registration.update().catch((error: unknown) => {
          console.error('Service worker update check failed', error);
        });
      }, UPDATE_CHECK_INTERVAL_MS);
    },
    onRegisterError(error: unknown) {
      console.error('Service worker registration failed', error);
    },
  });
}
