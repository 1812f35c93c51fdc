type Listener = () => void;

/**
 * Whether a new version of the app has been downloaded and waits. The service worker is
 * registered with 'prompt' (vite.config.ts): the page asks before it reloads into a new version,
 * since a reload would cut a browser recording short. The shell shows the prompt
 * (`app/update-prompt.tsx`) through useSyncExternalStore.
 */
let applyWaiting: (() => Promise<void>) | null = null;
let isWaiting = false;
const listeners = new Set<Listener>();

function setWaiting(value: boolean): void {
  if (isWaiting === value) return;
  isWaiting = value;
  for (const listener of listeners) listener();
}

export function subscribeToUpdate(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function isUpdateWaiting(): boolean {
  return isWaiting;
}

/** Called when a new version waits; `apply` activates it and reloads the page. */
export function announceUpdate(apply: () => Promise<void>): void {
  applyWaiting = apply;
  setWaiting(true);
}

/** Activates the waiting version (the page reloads into it). */
export async function applyUpdate(): Promise<void> {
  const apply = applyWaiting;
  setWaiting(false);
  if (apply) await apply();
}

/** Hides the prompt; the new version still takes over once every tab of the app is closed. */
export function dismissUpdate(): void {
  setWaiting(false);
}
