import { Info, LogIn } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/api';
import { safeNextPath } from '../../lib/auth-paths';
import { useSession } from '../../lib/session';
import { AuthCard, AuthField, AuthSubmit } from './auth-card';
import { useSignIn } from './queries';

/** /login: name and password; the server's message when it refuses (wrong password, too many tries). */
export function LoginPage() {
  const session = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signIn = useSignIn();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const formId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(
      { name: name.trim(), password },
      {
        onSuccess: () => void navigate(safeNextPath(params.get('next')), { replace: true }),
        onError: () => setPassword(''),
      },
    );
  };

  return (
    <AuthCard title="Sign in">
      {session?.setup_required && (
        <div role="status" className="alert alert-info alert-soft items-start">
          <Info className="size-5 shrink-0" aria-hidden="true" />
          <p>
            No account exists yet: open the setup link printed on the server's console, or run{' '}
            <code className="font-mono">wcs user add &lt;name&gt; --role admin</code> on the server.
          </p>
        </div>
      )}
      {session?.demo && (
        <div role="status" className="alert alert-info alert-soft">
          <Info className="size-5 shrink-0" aria-hidden="true" />
          <p>Demo: sign in as demo with the password demo</p>
        </div>
      )}
      <form onSubmit={submit} className="space-y-3" aria-label="Sign in">
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
          autoComplete="current-password"
        />
        <AuthSubmit
          label="Sign in"
          icon={LogIn}
          isPending={signIn.isPending}
          error={signIn.isError ? errorMessage(signIn.error) : null}
        />
      </form>
    </AuthCard>
  );
}
