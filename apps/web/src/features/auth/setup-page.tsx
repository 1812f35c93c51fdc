import { AlertTriangle, UserPlus } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/api';
import { LOGIN_PATH } from '../../lib/auth-paths';
import { checkNewPassword } from '../../lib/password-check';
import { PASSWORD_LIMITS } from '../../lib/roles';
import { useSession } from '../../lib/session';
import { AuthCard, AuthField, AuthSubmit } from './auth-card';
import { useSetup } from './queries';

/**
 * /setup?token=...: the one-time link the server prints on its console while no account exists.
 * It creates the first admin, who is signed in at once and lands on the Dashboard.
 */
export function SetupPage() {
  const session = useSession();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const setup = useSetup();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const formId = useId();
  const hintId = `${formId}-hint`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkNewPassword(password, repeat);
    setProblem(found);
    if (found) return;
    setup.mutate(
      { token, name: name.trim(), password },
      { onSuccess: () => void navigate('/', { replace: true }) },
    );
  };

  if (session && !session.setup_required) {
    return (
      <AuthCard title="Create the first admin">
        <div role="status" className="alert alert-info alert-soft">
          <p>An account exists already: sign in, or ask an admin for an account.</p>
        </div>
        <Link to={LOGIN_PATH} className="btn btn-primary">
          Go to sign in
        </Link>
      </AuthCard>
    );
  }

  if (token === '') {
    return (
      <AuthCard title="Create the first admin">
        <div role="alert" className="alert alert-warning alert-soft items-start">
          <AlertTriangle className="size-5 shrink-0" aria-hidden="true" />
          <p>
            This address has no setup token: open the whole setup link printed on the server's console (it
            ends in ?token=...), or run{' '}
            <code className="font-mono">wcs user add &lt;name&gt; --role admin</code> on the server.
          </p>
        </div>
      </AuthCard>
    );
  }

  const error = problem ?? (setup.isError ? errorMessage(setup.error) : null);
  return (
    <AuthCard title="Create the first admin">
      <p className="text-base-content/70">
        This account may do everything, including creating the other accounts in Settings.
      </p>
      <form onSubmit={submit} className="space-y-3" aria-label="Create the first admin" noValidate>
        <AuthField
          id={`${formId}-name`}
          label="Name"
          value={name}
          onChange={setName}
          autoComplete="username"
        />
        <AuthField
          id={`${formId}-password`}
          label="Password"
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          minLength={PASSWORD_LIMITS.min}
          describedBy={hintId}
        />
        <AuthField
          id={`${formId}-repeat`}
          label="Repeat password"
          type="password"
          value={repeat}
          onChange={setRepeat}
          autoComplete="new-password"
          minLength={PASSWORD_LIMITS.min}
        />
        <p id={hintId} className="text-base-content/60 text-xs">
          At least {PASSWORD_LIMITS.min} characters.
        </p>
        <AuthSubmit label="Create admin" icon={UserPlus} isPending={setup.isPending} error={error} />
      </form>
    </AuthCard>
  );
}
