import type { LucideIcon } from 'lucide-react';
import { useId } from 'react';

interface StatCardProps {
  label: string;
  /** Missing values show as 0, as the specification asks. */
  value: number | undefined;
  icon: LucideIcon;
  isLoading: boolean;
}

export function StatCard({ label, value, icon: Icon, isLoading }: StatCardProps) {
  const labelId = useId();
  return (
    <article aria-labelledby={labelId} aria-busy={isLoading} className="stats bg-base-100 shadow">
      <div className="stat">
        <div className="stat-figure text-primary">
          <Icon className="size-8" aria-hidden="true" />
        </div>
        <h3 id={labelId} className="stat-title">
          {label}
        </h3>
        <p className="stat-value">
          {isLoading ? (
            <span role="status" className="loading loading-dots loading-md" aria-label="Loading" />
          ) : (
            (value ?? 0)
          )}
        </p>
      </div>
    </article>
  );
}
