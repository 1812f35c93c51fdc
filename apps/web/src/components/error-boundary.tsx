import { Component, type ErrorInfo, type ReactNode } from 'react';

export interface ErrorBoundaryProps {
  children: ReactNode;
  /** What to render instead of the children once one of them threw while rendering. */
  fallback: (error: Error) => ReactNode;
}

interface ErrorBoundaryState {
  error: Error | null;
}

/** Catches a render error below it and shows `fallback` instead of a blank screen. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('A screen failed to render', error, info.componentStack);
  }

  override render() {
    if (this.state.error) return this.props.fallback(this.state.error);
    return this.props.children;
  }
}

/** The specification's fallback: a 'Critical Error' card with a Reload Page button. */
export function CriticalErrorCard({ error }: { error: Error }) {
  return (
    <div role="alert" className="card mx-auto max-w-xl border border-error bg-base-100 shadow">
      <div className="card-body">
        <h2 className="card-title text-error">Critical Error</h2>
        <p className="break-words text-sm">{error.message || 'This screen failed to render.'}</p>
        <div className="card-actions">
          <button type="button" className="btn btn-error btn-sm" onClick={() => window.location.reload()}>
            Reload Page
          </button>
        </div>
      </div>
    </div>
  );
}
