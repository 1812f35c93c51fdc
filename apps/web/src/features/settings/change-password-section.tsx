import { KeyRound } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { errorMessage } from '../../lib/api';
import { checkNewPassword } from '../../lib/password-check';
import { useIdentity } from '../../lib/session';
import { NewPasswordFields } from './account-fields';
import { useChangePassword } from './account-queries';
import { PasswordField } from './password-field';

/** Change password, for every signed-in account: the current one, and the new one twice. */
export function ChangePasswordSection() {
  const titleId = useId();
  const formId = useId();
  const change = useChangePassword();
  const identity = useIdentity();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.reset();
    const found = current === '' ? 'Give your current password' : checkNewPassword(next, repeat);
    setProblem(found);
    if (found) return;
    change.mutate(
      { current_password: current, new_password: next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
          setRepeat('');
        },
      },
    );
  };

  const error = problem ?? (change.isError ? errorMessage(change.error) : null);
  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-3 p-4 sm:p-6">
        <h3 id={titleId} className="card-title text-base">
          <KeyRound className="size-4" aria-hidden="true" />
          Change password
        </h3>
        <p className="text-base-content/60 text-sm">
          Your other browsers are signed out; this one stays signed in.
        </p>
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-3 md:grid-cols-3">
          {/* For password managers: whose password this is (browsers ask for it beside a new one). */}
          <input type="text" hidden readOnly autoComplete="username" value={identity?.name ?? ''} />
          <PasswordField
            id={`${formId}-current`}
            label="Current password"
            value={current}
            onChange={setCurrent}
            autoComplete="current-password"
          />
          <NewPasswordFields
            id={formId}
            label="New password"
            password={next}
            repeat={repeat}
            onPassword={setNext}
            onRepeat={setRepeat}
          />
          {error && (
            <div role="alert" className="alert alert-error alert-soft md:col-span-3">
              {error}
            </div>
          )}
          {change.isSuccess && (
            <div role="status" className="alert alert-success alert-soft md:col-span-3">
              {change.data.message}
            </div>
          )}
          <div className="md:col-span-3">
            <button type="submit" className="btn btn-primary" disabled={change.isPending}>
              {change.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
              Change password
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}
