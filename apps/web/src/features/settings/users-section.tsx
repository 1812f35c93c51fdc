import type { Role, User } from '@wcs/contract';
import { KeyRound, Trash2, UserPlus, Users } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { ConfirmModal } from '../../components/confirm-modal';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { Modal } from '../../components/modal';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { checkNewPassword } from '../../lib/password-check';
import { ROLES } from '../../lib/roles';
import { useIdentity } from '../../lib/session';
import { NameAndRoleFields, NewPasswordFields } from './account-fields';
import { useCreateUser, useDeleteUser, useUpdateUser, useUsers } from './account-queries';

type Notice = { tone: 'success' | 'error'; text: string };

/**
 * Users (admin): every account with its role and signed-in browsers; create one, change a role,
 * set a new password, delete. The server refuses what would leave no admin (409), said here as sent.
 */
export function UsersSection() {
  const titleId = useId();
  const users = useUsers();
  const update = useUpdateUser();
  const identity = useIdentity();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [passwordFor, setPasswordFor] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);

  const changeRole = (user: User, role: Role) => {
    setNotice(null);
    update.mutate(
      { id: user.id, body: { role }, isSelf: identity?.kind === 'user' && identity.id === user.id },
      {
        onSuccess: (saved) => setNotice({ tone: 'success', text: `${saved.name} is now ${saved.role}.` }),
        onError: (error) => setNotice({ tone: 'error', text: errorMessage(error) }),
      },
    );
  };

  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-4 p-4 sm:p-6">
        <h3 id={titleId} className="card-title text-base">
          <Users className="size-4" aria-hidden="true" />
          Users
        </h3>
        {users.isPending ? (
          <Loading label="Loading users..." />
        ) : users.isError ? (
          <ErrorCard
            title="Failed to load the users"
            message={errorMessage(users.error)}
            onRetry={() => void users.refetch()}
            isRetrying={users.isFetching}
          />
        ) : (
          <div className="overflow-x-auto">
            <table className="table table-sm">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">Signed in</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.data.map((user) => {
                  const isSelf = identity?.kind === 'user' && identity.id === user.id;
                  return (
                    <tr key={user.id}>
                      <th scope="row" className="font-medium">
                        {user.name}
                        {isSelf && <span className="ml-1 font-normal text-base-content/60">(you)</span>}
                      </th>
                      <td>
                        <select
                          className="select select-bordered select-sm"
                          aria-label={`Role of ${user.name}`}
                          value={user.role}
                          disabled={update.isPending}
                          onChange={(event) => changeRole(user, event.target.value as Role)}
                        >
                          {ROLES.map((role) => (
                            <option key={role} value={role}>
                              {role}
                            </option>
                          ))}
                        </select>
                      </td>
                      <td>
                        {user.active_sessions} {user.active_sessions === 1 ? 'browser' : 'browsers'}
                      </td>
                      <td>{formatDateTime(user.created_at)}</td>
                      <td>
                        <div className="flex justify-end gap-2">
                          <button
                            type="button"
                            className="btn btn-outline btn-xs"
                            aria-label={`Set a new password for ${user.name}`}
                            onClick={() => setPasswordFor(user)}
                          >
                            <KeyRound className="size-3" aria-hidden="true" />
                            Set password
                          </button>
                          {!isSelf && (
                            <button
                              type="button"
                              className="btn btn-outline btn-error btn-xs"
                              aria-label={`Delete the account ${user.name}`}
                              onClick={() => setDeleting(user)}
                            >
                              <Trash2 className="size-3" aria-hidden="true" />
                              Delete
                            </button>
                          )}
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {notice && (
          <div
            role={notice.tone === 'error' ? 'alert' : 'status'}
            className={`alert alert-soft ${notice.tone === 'error' ? 'alert-error' : 'alert-success'}`}
          >
            <span className="flex-1">{notice.text}</span>
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => setNotice(null)}>
              Dismiss
            </button>
          </div>
        )}
        <CreateUserForm
          onCreated={(user) => setNotice({ tone: 'success', text: `Created ${user.name} (${user.role}).` })}
        />
      </div>
      <SetPasswordModal
        user={passwordFor}
        onClose={() => setPasswordFor(null)}
        onDone={(user) => {
          setPasswordFor(null);
          setNotice({
            tone: 'success',
            text: `${user.name} has a new password; their browsers were signed out.`,
          });
        }}
      />
      <DeleteUserModal
        user={deleting}
        onClose={() => setDeleting(null)}
        onDone={(message) => {
          setDeleting(null);
          setNotice({ tone: 'success', text: message });
        }}
      />
    </section>
  );
}

function CreateUserForm({ onCreated }: { onCreated: (user: User) => void }) {
  const formId = useId();
  const create = useCreateUser();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('dj');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.reset();
    const found = name.trim() === '' ? 'Give the account a name' : checkNewPassword(password, repeat);
    setProblem(found);
    if (found) return;
    create.mutate(
      { name: name.trim(), role, password },
      {
        onSuccess: (user) => {
          setName('');
          setPassword('');
          setRepeat('');
          onCreated(user);
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
        Create an account
      </h4>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-4">
        <NameAndRoleFields id={formId} name={name} role={role} onName={setName} onRole={setRole} />
        <NewPasswordFields
          id={formId}
          label="Password"
          password={password}
          repeat={repeat}
          onPassword={setPassword}
          onRepeat={setRepeat}
        />
      </div>
      <p className="text-base-content/60 text-xs">
        viewer: reads everything · dj: records, uploads, manages events, songs, playlists and downloads ·
        admin: everything, including accounts and settings.
      </p>
      {error && (
        <div role="alert" className="alert alert-error alert-soft">
          {error}
        </div>
      )}
      <button type="submit" className="btn btn-primary btn-sm" disabled={create.isPending}>
        {create.isPending ? (
          <span className="loading loading-spinner loading-xs" aria-hidden="true" />
        ) : (
          <UserPlus className="size-4" aria-hidden="true" />
        )}
        Create user
      </button>
    </form>
  );
}

function SetPasswordModal({
  user,
  onClose,
  onDone,
}: {
  user: User | null;
  onClose: () => void;
  onDone: (user: User) => void;
}) {
  const formId = useId();
  const update = useUpdateUser();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const close = () => {
    setPassword('');
    setRepeat('');
    setProblem(null);
    update.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!user) return;
    const found = checkNewPassword(password, repeat);
    setProblem(found);
    if (found) return;
    update.mutate(
      { id: user.id, body: { password }, isSelf: false },
      {
        onSuccess: (saved) => {
          setPassword('');
          setRepeat('');
          update.reset();
          onDone(saved);
        },
      },
    );
  };

  const error = problem ?? (update.isError ? errorMessage(update.error) : null);
  return (
    <Modal
      isOpen={user !== null}
      title={`New password for ${user?.name ?? ''}`}
      onClose={close}
      size="sm"
      isDismissable={!update.isPending}
      actions={
        <>
          <button type="button" className="btn" onClick={close} disabled={update.isPending}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={update.isPending}>
            {update.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            Set password
          </button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={submit} className="space-y-3">
        <p className="text-sm">Every browser signed in as {user?.name} is signed out.</p>
        <NewPasswordFields
          id={formId}
          label="New password"
          password={password}
          repeat={repeat}
          onPassword={setPassword}
          onRepeat={setRepeat}
        />
        {error && (
          <div role="alert" className="alert alert-error alert-soft">
            {error}
          </div>
        )}
      </form>
    </Modal>
  );
}

function DeleteUserModal({
  user,
  onClose,
  onDone,
}: {
  user: User | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const deletion = useDeleteUser();
  const close = () => {
    deletion.reset();
    onClose();
  };
  return (
    <ConfirmModal
      isOpen={user !== null}
      title={`Delete the account ${user?.name ?? ''}?`}
      confirmLabel="Delete account"
      isPending={deletion.isPending}
      error={deletion.error}
      onCancel={close}
      onConfirm={() =>
        user &&
        deletion.mutate(user.id, {
          onSuccess: (result) => {
            deletion.reset();
            onDone(result.message);
          },
        })
      }
    >
      <p>
        {user?.name} can no longer sign in and their browsers are signed out. What they recorded stays; the
        audit log keeps their name. This cannot be undone.
      </p>
    </ConfirmModal>
  );
}
