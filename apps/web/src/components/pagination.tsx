import { ChevronLeft, ChevronRight } from 'lucide-react';

export interface PaginationProps {
  /** The current page, 1-based. */
  page: number;
  /** Number of pages (at least 1 is shown even when 0 is passed). */
  pageCount: number;
  /** Called with the new 1-based page. */
  onPageChange: (page: number) => void;
  /** Disables both buttons, e.g. while the next page loads. */
  isDisabled?: boolean;
}

/** Number of pages for `total` items at `pageSize` per page (at least 1). */
export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** Previous / 'Page x of y' / Next, as a labelled navigation region. */
export function Pagination({ page, pageCount, onPageChange, isDisabled = false }: PaginationProps) {
  const pages = Math.max(1, pageCount);
  return (
    <nav aria-label="Pagination" className="flex items-center justify-center gap-3">
      <button
        type="button"
        className="btn btn-sm"
        disabled={isDisabled || page <= 1}
        onClick={() => onPageChange(page - 1)}
      >
        <ChevronLeft className="size-4" aria-hidden="true" />
        Previous
      </button>
      <span className="text-sm" aria-live="polite">
        Page {page} of {pages}
      </span>
      <button
        type="button"
        className="btn btn-sm"
        disabled={isDisabled || page >= pages}
        onClick={() => onPageChange(page + 1)}
      >
        Next
        <ChevronRight className="size-4" aria-hidden="true" />
      </button>
    </nav>
  );
}
