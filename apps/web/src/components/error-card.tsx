import { AlertTriangle, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';

export interface ErrorCardProps {
  /** The screen's sentence for the failure, e.g. 'Failed to load recordings'. */
  title: string;
  /** The detail beneath: usually the server's `message` (`errorMessage(error)`). */
  message?: ReactNode;
  /** Shows a Retry button when given. */
  onRetry?: () => void;
  /** Disables Retry and shows a spinner while the retry runs. */
  isRetrying?: boolean;
  /** Label of the retry button. Default 'Retry'. */
  retryLabel?: string;
}

/** A failed load: role alert, the title, the server's message, and a Retry button. */
export function ErrorCard({
  title,
  message,
  onRetry,
  isRetrying = false,
  retryLabel = 'Retry',
}: ErrorCardProps) {
  return (
    <div role="alert" className="alert alert-error alert-soft flex flex-wrap items-start gap-3">
      <AlertTriangle className="size-6 shrink-0" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <h3 className="font-semibold">{title}</h3>
        {message && <p className="break-words text-sm">{message}</p>}
      </div>
      {onRetry && (
        <button type="button" className="btn btn-sm" onClick={onRetry} disabled={isRetrying}>
          {isRetrying ? (
            <span className="loading loading-spinner loading-xs" aria-hidden="true" />
          ) : (
            <RotateCw className="size-4" aria-hidden="true" />
          )}
          {retryLabel}
        </button>
      )}
    </div>
  );
}
