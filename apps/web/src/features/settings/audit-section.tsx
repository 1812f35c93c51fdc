import { ScrollText } from 'lucide-react';
import { useId, useState } from 'react';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { Pagination, pageCountOf } from '../../components/pagination';
import { actorKey, actorLabel, parseActorKey } from '../../lib/accounts';
import { errorMessage } from '../../lib/api';
import { formatDateTime, MISSING } from '../../lib/format';
import { AUDIT_PAGE_SIZE, useAuditLog, useTokens, useUsers } from './account-queries';
import { auditAction, auditActor } from './lib/accounts-view';

/**
 * Audit log (admin): every change made through the API and every sign-in, newest first, a page
 * at a time, filtered by the account or token that acted and by kind (the area of the change).
 */
export function AuditSection() {
  const titleId = useId();
  const filterId = useId();
  const [page, setPage] = useState(1);
  const [actor, setActor] = useState('');
  const [kind, setKind] = useState('');
  const [seenKinds, setSeenKinds] = useState<ReadonlySet<string>>(new Set());
  const users = useUsers();
  const tokens = useTokens();
  const who = parseActorKey(actor);
  const audit = useAuditLog({
    page,
    ...(who?.kind === 'user' ? { userId: who.id } : {}),
    ...(who?.kind === 'token' ? { tokenId: who.id } : {}),
    ...(kind.trim() ? { kind: kind.trim() } : {}),
  });
  const entries = audit.data?.data ?? [];
  // The kinds met so far are offered as suggestions; any kind can be typed.
  const newKinds = entries.map((entry) => entry.kind).filter((name) => !seenKinds.has(name));
  if (newKinds.length > 0) setSeenKinds(new Set([...seenKinds, ...newKinds]));

  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-4 p-4 sm:p-6">
        <h3 id={titleId} className="card-title text-base">
          <ScrollText className="size-4" aria-hidden="true" />
          Audit log
        </h3>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor={`${filterId}-who`} className="label-text mb-1 block text-sm">
              Who
            </label>
            <select
              id={`${filterId}-who`}
              className="select select-bordered select-sm w-full"
              value={actor}
              onChange={(event) => {
                setActor(event.target.value);
                setPage(1);
              }}
            >
              <option value="">Everyone</option>
              {(users.data ?? []).map((user) => (
                <option key={`u${user.id}`} value={actorKey({ kind: 'user', id: user.id })}>
                  {actorLabel({ kind: 'user', name: user.name })}
                </option>
              ))}
              {(tokens.data ?? []).map((token) => (
                <option key={`t${token.id}`} value={actorKey({ kind: 'token', id: token.id })}>
                  {actorLabel({ kind: 'token', name: token.name })}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${filterId}-kind`} className="label-text mb-1 block text-sm">
              Kind
            </label>
            <input
              id={`${filterId}-kind`}
              type="search"
              className="input input-bordered input-sm w-full"
              list={`${filterId}-kinds`}
              placeholder="All kinds (e.g. users, events, session)"
              value={kind}
              maxLength={40}
              onChange={(event) => {
                setKind(event.target.value);
                setPage(1);
              }}
            />
            <datalist id={`${filterId}-kinds`}>
              {[...seenKinds].sort().map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
          </div>
        </div>
        {audit.isPending ? (
          <Loading label="Loading the audit log..." />
        ) : audit.isError ? (
          <ErrorCard
            title="Failed to load the audit log"
            message={errorMessage(audit.error)}
            onRetry={() => void audit.refetch()}
            isRetrying={audit.isFetching}
          />
        ) : entries.length === 0 ? (
          <p className="text-base-content/70 text-sm">No entries match these filters.</p>
        ) : (
          <>
            <div className="overflow-x-auto" aria-busy={audit.isFetching}>
              <table className="table table-sm">
                <caption className="sr-only">Audit log, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">Action</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Target</th>
                    <th scope="col">Summary</th>
                    <th scope="col">From</th>
                  </tr>
                </thead>
                <tbody>
                  {entries.map((entry) => (
                    <tr key={entry.id}>
                      <td className="whitespace-nowrap">{formatDateTime(entry.at)}</td>
                      <td>{auditActor(entry)}</td>
                      <td>{auditAction(entry.action)}</td>
                      <td>{entry.kind}</td>
                      <td>{entry.target_id ?? MISSING}</td>
                      <td
                        title={
                          entry.method && entry.path
                            ? `${entry.method} ${entry.path}${entry.status ? ` → ${entry.status}` : ''}`
                            : undefined
                        }
                      >
                        {entry.summary}
                      </td>
                      <td className="font-mono text-xs">{entry.address ?? MISSING}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="text-base-content/60 text-sm">
              {audit.data.total} {audit.data.total === 1 ? 'entry' : 'entries'}
            </p>
            <Pagination
              page={page}
              pageCount={pageCountOf(audit.data.total, AUDIT_PAGE_SIZE)}
              onPageChange={setPage}
              isDisabled={audit.isFetching}
            />
          </>
        )}
      </div>
    </section>
  );
}
