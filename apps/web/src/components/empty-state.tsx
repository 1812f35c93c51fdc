import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  /** The specification's empty text, e.g. 'No recordings found'. */
  title: string;
  /** A line of help beneath. */
  hint?: ReactNode;
  icon?: LucideIcon;
  /** A button or link to act on the emptiness. */
  action?: ReactNode;
}

/** Nothing to show: a centred title with an optional icon, hint and action. */
export function EmptyState({ title, hint, icon: Icon, action }: EmptyStateProps) {
  return (
    <div className="flex flex-col items-center gap-2 px-4 py-10 text-center">
      {Icon && <Icon className="size-10 text-base-content/40" aria-hidden="true" />}
      <p className="font-medium text-base-content/80">{title}</p>
      {hint && <p className="max-w-md text-base-content/60 text-sm">{hint}</p>}
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}
