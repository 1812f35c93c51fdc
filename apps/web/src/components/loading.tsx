export interface LoadingProps {
  /** Visible text beside the spinner and the status's name, e.g. 'Loading songs...'. */
  label?: string;
}

/** A spinner with a status role, optionally with visible text. */
export function Loading({ label = 'Loading' }: LoadingProps) {
  return (
    <div role="status" aria-label={label} className="flex items-center justify-center gap-3 py-10">
      <span className="loading loading-spinner loading-md" aria-hidden="true" />
      <span className="text-base-content/70">{label}</span>
    </div>
  );
}
