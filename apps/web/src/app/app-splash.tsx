/**
 * What the page shows while the router learns who is signed in, on the first visit only: a
 * spinner on the app's background, nothing of the app itself, so a signed-out visitor goes to the
 * login page without glimpsing a screen first.
 */
export function AppSplash() {
  return (
    <div
      role="status"
      aria-label="Loading"
      className="flex min-h-screen items-center justify-center bg-base-200"
    >
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
    </div>
  );
}
