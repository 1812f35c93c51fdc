import { type ReactNode, useId } from 'react';
import { errorMessage } from '../../lib/api';
import { EmptyState } from '../empty-state';
import { ErrorCard } from '../error-card';
import { Loading } from '../loading';

export interface ChartCardProps {
  /** The chart's heading and the region's accessible name, e.g. 'BPM Progression'. */
  title: string;
  /** A line under the title (units, scope). */
  description?: ReactNode;
  isLoading?: boolean;
  /** A failed load: shown with the server's message instead of the chart. */
  error?: unknown;
  onRetry?: () => void;
  /** True when there is nothing to draw. */
  isEmpty?: boolean;
  /** The fallback text when empty, e.g. 'No BPM data available'. */
  emptyText?: string;
  children: ReactNode;
  className?: string;
  /**
   * Room the chart takes (Tailwind min-height classes, e.g. 'min-h-[260px]'): while loading, and
   * when empty or failed, the card keeps this height, so nothing below it moves when data arrives.
   */
  bodyClassName?: string;
}

/**
 * A card around one chart: a region named by its title, so tests and screen readers find it, that
 * shows loading, the server's error, the empty text, or the chart.
 */
export function ChartCard({
  title,
  description,
  isLoading = false,
  error,
  onRetry,
  isEmpty = false,
  emptyText = 'No data available',
  children,
  className,
  bodyClassName,
}: ChartCardProps) {
  const titleId = useId();
  let body: ReactNode;
  if (isLoading) body = <Loading label={`Loading ${title}...`} />;
  else if (error)
    body = <ErrorCard title={`Could not load ${title}`} message={errorMessage(error)} onRetry={onRetry} />;
  else if (isEmpty) body = <EmptyState title={emptyText} />;
  else body = children;

  return (
    <section aria-labelledby={titleId} className={`card bg-base-100 shadow ${className ?? ''}`}>
      <div className="card-body gap-3 p-4 sm:p-6">
        <div>
          <h3 id={titleId} className="card-title text-base">
            {title}
          </h3>
          {description && <p className="text-base-content/60 text-sm">{description}</p>}
        </div>
        {bodyClassName ? <div className={bodyClassName}>{body}</div> : body}
      </div>
    </section>
  );
}
