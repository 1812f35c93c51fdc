import { Disc3, type LucideIcon } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';

const PRODUCT_NAME = 'WCS DJ Library';

/** The frame of the sign-in screens: the product's mark and a card, without the app's shell. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · ${PRODUCT_NAME}`;
  }, [title]);

  return (
    <main className="flex min-h-screen items-center justify-center bg-base-200 p-4">
      <div className="card w-full max-w-md bg-base-100 shadow">
        <div className="card-body gap-4">
          <div className="flex items-center gap-3">
            <Disc3 className="size-9 shrink-0 text-primary" aria-hidden="true" />
            <p className="font-bold text-lg leading-tight">{PRODUCT_NAME}</p>
          </div>
          <h1 className="font-bold text-2xl">{title}</h1>
          {children}
        </div>
      </div>
    </main>
  );
}

/** A labelled input of the sign-in forms. */
export function AuthField({
  id,
  label,
  type = 'text',
  value,
  onChange,
  autoComplete,
  minLength,
  describedBy,
}: {
  id: string;
  label: string;
  type?: 'text' | 'password';
  value: string;
  onChange: (value: string) => void;
  autoComplete: string;
  minLength?: number;
  describedBy?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="label-text mb-1 block">
        {label}
      </label>
      <input
        id={id}
        type={type}
        className="input input-bordered w-full"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete={autoComplete}
        required
        minLength={minLength}
        aria-describedby={describedBy}
        autoCapitalize="none"
        spellCheck={false}
      />
    </div>
  );
}

/** The end of a sign-in form: the refusal, if any, and the submit button with its spinner. */
export function AuthSubmit({
  label,
  icon: Icon,
  isPending,
  error,
}: {
  label: string;
  icon: LucideIcon;
  isPending: boolean;
  error: string | null;
}) {
  return (
    <>
      {error && (
        <div role="alert" className="alert alert-error alert-soft">
          {error}
        </div>
      )}
      <button type="submit" className="btn btn-primary w-full" disabled={isPending}>
        {isPending ? (
          <span className="loading loading-spinner loading-sm" aria-hidden="true" />
        ) : (
          <Icon className="size-4" aria-hidden="true" />
        )}
        {label}
      </button>
    </>
  );
}
