import type { LucideIcon } from 'lucide-react';
import { type ReactNode, useId } from 'react';

export interface StatTileProps {
  /** The tile's name; tests find it with `getByRole('article', { name: label })`. */
  label: string;
  /** The figure. `undefined` shows 0, as the specification asks for missing counts. */
  value: ReactNode;
  /** A line under the figure, e.g. '3 pending · 1 active'. */
  description?: ReactNode;
  icon?: LucideIcon;
  /** Shows a spinner instead of the figure. */
  isLoading?: boolean;
  /** Colour of the figure. */
  tone?: 'default' | 'primary' | 'success' | 'warning' | 'error' | 'info';
}

const TONES = {
  default: '',
  primary: 'text-primary',
  success: 'text-success',
  warning: 'text-warning',
  error: 'text-error',
  info: 'text-info',
} as const;

/** A labelled figure: an article named by its label, the value in a paragraph. */
export function StatTile({
  label,
  value,
  description,
  icon: Icon,
  isLoading = false,
  tone = 'default',
}: StatTileProps) {
  const labelId = useId();
  return (
    <article aria-labelledby={labelId} aria-busy={isLoading} className="stats bg-base-100 shadow">
      <div className="stat">
        {Icon && (
          <div className={`stat-figure ${tone === 'default' ? 'text-primary' : TONES[tone]}`}>
            <Icon className="size-8" aria-hidden="true" />
          </div>
        )}
        <h3 id={labelId} className="stat-title">
          {label}
        </h3>
        <p className={`stat-value text-2xl ${TONES[tone]}`}>
          {isLoading ? (
            <span role="status" className="loading loading-dots loading-md" aria-label="Loading" />
          ) : (
            (value ?? 0)
          )}
        </p>
        {/* Wraps rather than widening the tile: daisyUI's stats scroll sideways when a line is
            too long, and a scrolling box of plain text cannot be reached by keyboard. The line is
            always there (empty while the figure loads, or without a description), so a tile keeps
            its height when its data arrives. */}
        <div className="stat-desc min-h-4 whitespace-normal">{isLoading ? null : description}</div>
      </div>
    </article>
  );
}
