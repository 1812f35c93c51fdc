/**
 * What the content area shows while a screen's code loads on the first visit: the shell is
 * already there, so only the screen's place is held (a title, a line and two cards), without a
 * spinner in the middle of an empty page.
 */
export function PageSkeleton() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading" className="space-y-6">
      <div className="space-y-2">
        <div className="skeleton h-8 w-64 max-w-full" />
        <div className="skeleton h-5 w-96 max-w-full" />
      </div>
      <div className="skeleton h-40 w-full" />
      <div className="skeleton h-64 w-full" />
    </div>
  );
}
