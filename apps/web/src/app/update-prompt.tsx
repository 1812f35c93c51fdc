import { RefreshCw } from 'lucide-react';
import { useState, useSyncExternalStore } from 'react';
import { applyUpdate, dismissUpdate, isUpdateWaiting, subscribeToUpdate } from '../lib/app-update';

/**
 * "A new version is ready": shown when the service worker has downloaded a new version of the app.
 * It never reloads by itself (a reload would cut a browser recording short); Reload does, Later
 * hides the prompt until the next version (the new one still takes over once every tab is closed).
 * The live region stays in the page, so screen readers announce the text when it appears.
 */
export function UpdatePrompt() {
  const isWaiting = useSyncExternalStore(subscribeToUpdate, isUpdateWaiting, () => false);
  const [isReloading, setIsReloading] = useState(false);
  return (
    <div role="status" aria-live="polite" className="toast toast-end toast-bottom pointer-events-none z-30">
      {isWaiting && (
        <div className="alert alert-vertical pointer-events-auto max-w-sm border border-base-300 bg-base-100 shadow-lg sm:alert-horizontal">
          <RefreshCw className="size-5 shrink-0 text-primary" aria-hidden="true" />
          <div>
            <p className="font-semibold">A new version of the app is ready</p>
            <p className="text-sm">Reload to use it. Reloading stops a recording in this tab.</p>
          </div>
          <div className="flex gap-2">
            <button type="button" className="btn btn-ghost btn-sm" onClick={dismissUpdate}>
              Later
            </button>
            <button
              type="button"
              className="btn btn-primary btn-sm"
              disabled={isReloading}
              onClick={() => {
                setIsReloading(true);
                void applyUpdate();
              }}
            >
              Reload
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
