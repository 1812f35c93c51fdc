import type { ReactNode } from 'react';

/**
 * A wide table's horizontal scroll box, for tables of plain text. On a phone the table is wider
 * than the screen; a box that scrolls must be reachable by keyboard (axe:
 * scrollable-region-focusable), and a focusable box needs a name, so it is a labelled region.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
      tabIndex={0}
      className="overflow-x-auto rounded focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary"
    >
      {children}
    </section>
  );
}
