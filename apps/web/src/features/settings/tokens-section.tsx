import type { ApiToken, Role } from '@wcs/contract';
import { AlertTriangle, Ban, Copy, KeySquare, Plus } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Badge } from '../../components/badge';
import { ConfirmModal } from '../../components/confirm-modal';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { type ApiResponse, errorMessage } from '../../lib/api';
import { formatDateTime, MISSING } from '../../lib/format';
import { NameAndRoleFields } from './account-fields';
import { useCreateToken, useRevokeToken, useTokens } from './account-queries';
import { parseExpiryDays, recorderCommand, TOKEN_EXPIRY_DAYS, tokenStatus } from './lib/accounts-view';

type Created = ApiResponse<'createToken'>;

/**
 * Device tokens (admin): for a recorder by the speakers or a script, listed with their use and
 * state; created here (the token is shown once, only its hash is stored) and revoked here.
 */
export function TokensSection() {
  const titleId = useId();
  const tokens = useTokens();
  const [created, setCreated] = useState<Created | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);

  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-4 p-4 sm:p-6">
        <h3 id={titleId} className="card-title text-base">
          <KeySquare className="size-4" aria-hidden="true" />
          Device tokens
        </h3>
        <p className="text-base-content/60 text-sm">
          A token lets a recording device or a script call this server without a password (Authorization:
          Bearer), with the role given here.
        </p>
        {tokens.isPending ? (
          <Loading label="Loading tokens..." />
        ) : tokens.isError ? (
          <ErrorCard
            title="Failed to load the tokens"
            message={errorMessage(tokens.error)}
            onRetry={() => void tokens.refetch()}
            isRetrying={tokens.isFetching}
          />
        ) : tokens.data.length === 0 ? (
          <p className="text-base-content/70 text-sm">No tokens yet.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="table table-sm">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.data.map((token) => {
                  const status = tokenStatus(token);
                  return (
                    <tr key={token.id}>
                      <th scope="row" className="font-medium">
                        {token.name}
                      </th>
                      <td>{token.role}</td>
                      <td>
                        {formatDateTime(token.created_at)}
                        {token.created_by && (
                          <span className="block text-base-content/60 text-xs">by {token.created_by}</span>
                        )}
                      </td>
                      <td>{token.last_used_at ? formatDateTime(token.last_used_at) : 'Never'}</td>
                      <td>{token.expires_at ? formatDateTime(token.expires_at) : MISSING}</td>
                      <td>
                        <Badge tone={status.tone} size="sm">
                          {status.label}
                        </Badge>
                      </td>
                      <td>
                        {!token.revoked_at && (
                          <button
                            type="button"
                            className="btn btn-outline btn-error btn-xs"
                            aria-label={`Revoke the token ${token.name}`}
                            onClick={() => {
                              setRevoked(null);
                              setRevoking(token);
                            }}
                          >
                            <Ban className="size-3" aria-hidden="true" />
                            Revoke
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {revoked && (
          <div role="status" className="alert alert-success alert-soft">
            <span className="flex-1">{revoked}</span>
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => setRevoked(null)}>
              Dismiss
            </button>
          </div>
        )}
        {created && <CreatedToken created={created} onDone={() => setCreated(null)} />}
        <CreateTokenForm
          onCreated={(result) => {
            setRevoked(null);
            setCreated(result);
          }}
        />
      </div>
      <RevokeTokenModal
        token={revoking}
        onClose={() => setRevoking(null)}
        onDone={(token) => {
          setRevoking(null);
          setRevoked(`The token ${token.name} was revoked: it stops working at once.`);
        }}
      />
    </section>
  );
}

/** The new token, once: a copyable field, the warning, and the recorder's command line. */
function CreatedToken({ created, onDone }: { created: Created; onDone: () => void }) {
  const id = useId();
  const command = recorderCommand(window.location.origin, created.token);
  return (
    <div
      role="status"
      aria-labelledby={`${id}-title`}
      className="space-y-3 rounded-box border border-warning p-4"
    >
      <h4 id={`${id}-title`} className="font-semibold">
        Token for {created.info.name} ({created.info.role})
      </h4>
      <p className="flex items-start gap-2 text-sm">
        <AlertTriangle className="size-4 shrink-0 text-warning" aria-hidden="true" />
        Copy it now: it is shown only once. The server keeps only its hash; a lost token is revoked and
        replaced by a new one.
      </p>
      <CopyField id={`${id}-token`} label="Token" value={created.token} />
      <CopyField id={`${id}-command`} label="Record from a device with" value={command} />
      <button type="button" className="btn btn-sm" onClick={onDone}>
        Done, I have copied it
      </button>
    </div>
  );
}

/** A read-only field with a Copy button; where the browser refuses the clipboard, the text is selected. */
function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [result, setResult] = useState<string | null>(null);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(value);
      setResult('Copied');
    } catch {
      inputRef.current?.select();
      setResult(
        'Selected: press Ctrl+C (or ⌘C) to copy; the browser allows copying by a button only over HTTPS',
      );
    }
  };
  return (
    <div>
      <label htmlFor={id} className="label-text mb-1 block text-sm">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          ref={inputRef}
          id={id}
          type="text"
          readOnly
          className="input input-bordered w-full font-mono text-sm"
          value={value}
          onFocus={(event) => event.target.select()}
        />
        <button
          type="button"
          className="btn btn-outline"
          aria-label={`Copy: ${label}`}
          onClick={() => void copy()}
        >
          <Copy className="size-4" aria-hidden="true" />
          Copy
        </button>
      </div>
      {result && (
        <p className="mt-1 text-base-content/70 text-xs" aria-live="polite">
          {result}
        </p>
      )}
    </div>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (created: Created) => void }) {
  const formId = useId();
  const create = useCreateToken();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('dj');
  const [days, setDays] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.reset();
    const expiry = parseExpiryDays(days);
    const found =
      name.trim() === '' ? 'Name the device or script the token is for' : expiry.ok ? null : expiry.message;
    setProblem(found);
    if (found || !expiry.ok) return;
    create.mutate(
      { name: name.trim(), role, ...(expiry.days === undefined ? {} : { expires_in_days: expiry.days }) },
      {
        onSuccess: (result) => {
          setName('');
          setDays('');
          onCreated(result);
        },
      },
    );
  };

  const error = problem ?? (create.isError ? errorMessage(create.error) : null);
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby={`${formId}-title`}
      className="space-y-3 rounded-box bg-base-200 p-4"
    >
      <h4 id={`${formId}-title`} className="font-semibold">
        Create a token
      </h4>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <NameAndRoleFields
          id={formId}
          name={name}
          role={role}
          onName={setName}
          onRole={setRole}
          placeholder="e.g. stage-pi"
        />
        <div>
          <label htmlFor={`${formId}-days`} className="label-text mb-1 block text-sm">
            Expires after (days)
          </label>
          <input
            id={`${formId}-days`}
            type="number"
            inputMode="numeric"
            className="input input-bordered w-full"
            min={TOKEN_EXPIRY_DAYS.min}
            max={TOKEN_EXPIRY_DAYS.max}
            step={1}
            value={days}
            onChange={(event) => setDays(event.target.value)}
            aria-describedby={`${formId}-days-hint`}
          />
          <p id={`${formId}-days-hint`} className="mt-1 text-base-content/60 text-xs">
            Optional: empty, it works until revoked.
          </p>
        </div>
      </div>
      {error && (
        <div role="alert" className="alert alert-error alert-soft">
          {error}
        </div>
      )}
      <button type="submit" className="btn btn-primary btn-sm" disabled={create.isPending}>
        {create.isPending ? (
          <span className="loading loading-spinner loading-xs" aria-hidden="true" />
        ) : (
          <Plus className="size-4" aria-hidden="true" />
        )}
        Create token
      </button>
    </form>
  );
}

function RevokeTokenModal({
  token,
  onClose,
  onDone,
}: {
  token: ApiToken | null;
  onClose: () => void;
  onDone: (token: ApiToken) => void;
}) {
  const revoke = useRevokeToken();
  const close = () => {
    revoke.reset();
    onClose();
  };
  return (
    <ConfirmModal
      isOpen={token !== null}
      title={`Revoke the token ${token?.name ?? ''}?`}
      confirmLabel="Revoke token"
      isPending={revoke.isPending}
      error={revoke.error}
      onCancel={close}
      onConfirm={() =>
        token &&
        revoke.mutate(token.id, {
          onSuccess: (result) => {
            revoke.reset();
            onDone(result);
          },
        })
      }
    >
      <p>
        Whatever uses {token?.name} is refused from now on: a recorder stops with a message and keeps its
        recordings on its disk. This cannot be undone; create a new token instead.
      </p>
    </ConfirmModal>
  );
}
