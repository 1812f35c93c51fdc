import type { DownloadProviderSettings } from '@wcs/contract';
import { ArrowDown, ArrowUp, Download } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Badge } from '../../components/badge';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { errorMessage } from '../../lib/api';
import { useCan } from '../../lib/session';
import { useDownloadProviders, useUpdateDownloadProviders } from '../../lib/system-status';

type Row = Omit<DownloadProviderSettings, 'position'> & {
  label: string;
  configured: boolean;
  detail: string;
  used_today: number;
};

/**
 * Settings → Download providers: which providers the download worker uses, in which order, and
 * each one's daily cap, timeout and tries; an admin edits them, the other roles read them.
 */
export function DownloadProvidersSection() {
  const providers = useDownloadProviders();
  const update = useUpdateDownloadProviders();
  const canEdit = useCan('updateDownloadProviders');
  const titleId = useId();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  useEffect(() => {
    if (providers.data) setRows(providers.data.providers);
  }, [providers.data]);

  const change = (index: number, patch: Partial<Row>) =>
    setRows((current) => current?.map((row, i) => (i === index ? { ...row, ...patch } : row)) ?? null);
  const move = (index: number, by: -1 | 1) =>
    setRows((current) => {
      if (!current) return current;
      const next = [...current];
      const [row] = next.splice(index, 1);
      next.splice(index + by, 0, row!);
      return next;
    });
  const save = () => {
    if (!rows) return;
    setNotice(null);
    update.mutate(
      {
        providers: rows.map(({ name, enabled, daily_cap, timeout_seconds, max_attempts }) => ({
          name,
          enabled,
          daily_cap,
          timeout_seconds,
          max_attempts,
        })),
      },
      {
        onSuccess: () => setNotice({ tone: 'success', text: 'Download providers saved.' }),
        onError: (error) => setNotice({ tone: 'error', text: errorMessage(error) }),
      },
    );
  };

  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-4 p-4 sm:p-6">
        <h3 id={titleId} className="card-title text-base">
          <Download className="size-4" aria-hidden="true" />
          Download providers
        </h3>
        <p className="text-base-content/70 text-sm">
          Start Downloads tries them in this order. The inbox folder takes the files you buy and drop there;
          the external command runs your own download program (WCS_DOWNLOAD_COMMAND).
          {providers.data &&
            ` At most ${providers.data.max_downloads_per_day} tries a day in all (${providers.data.used_today} today).`}
        </p>
        {providers.isPending || !rows ? (
          providers.isError ? (
            <ErrorCard
              title="The download providers could not be read"
              message={errorMessage(providers.error)}
              onRetry={() => void providers.refetch()}
            />
          ) : (
            <Loading label="Loading the download providers..." />
          )
        ) : (
          <ol className="space-y-3" aria-label="Download providers in order">
            {rows.map((row, index) => (
              <li key={row.name} aria-label={row.label} className="rounded-box border border-base-300 p-3">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold">
                    {index + 1}. {row.label}
                  </span>
                  <Badge tone={row.configured ? 'success' : 'warning'} size="sm">
                    {row.configured ? 'configured' : 'not configured'}
                  </Badge>
                  <span className="text-base-content/60 text-xs">{row.used_today} tries today</span>
                  {canEdit && (
                    <span className="ml-auto flex gap-1">
                      <button
                        type="button"
                        className="btn btn-ghost btn-xs"
                        onClick={() => move(index, -1)}
                        disabled={index === 0}
                        aria-label={`Move ${row.label} up`}
                      >
                        <ArrowUp className="size-4" aria-hidden="true" />
                      </button>
                      <button
                        type="button"
                        className="btn btn-ghost btn-xs"
                        onClick={() => move(index, 1)}
                        disabled={index === rows.length - 1}
                        aria-label={`Move ${row.label} down`}
                      >
                        <ArrowDown className="size-4" aria-hidden="true" />
                      </button>
                    </span>
                  )}
                </div>
                <p className="text-base-content/70 text-sm">{row.detail}</p>
                {canEdit ? (
                  <div className="mt-2 flex flex-wrap items-end gap-4">
                    <label className="label cursor-pointer gap-2">
                      <input
                        type="checkbox"
                        className="toggle toggle-primary toggle-sm"
                        checked={row.enabled}
                        onChange={(event) => change(index, { enabled: event.target.checked })}
                      />
                      <span>Use {row.label.toLowerCase()}</span>
                    </label>
                    <NumberField
                      label="Daily cap"
                      value={row.daily_cap}
                      min={0}
                      max={100000}
                      onChange={(value) => change(index, { daily_cap: value })}
                    />
                    <NumberField
                      label="Timeout (s)"
                      value={row.timeout_seconds}
                      min={1}
                      max={86400}
                      onChange={(value) => change(index, { timeout_seconds: value })}
                    />
                    <NumberField
                      label="Tries"
                      value={row.max_attempts}
                      min={1}
                      max={10}
                      onChange={(value) => change(index, { max_attempts: value })}
                    />
                  </div>
                ) : (
                  <p className="text-sm">
                    {row.enabled ? 'In use' : 'Not used'} · daily cap {row.daily_cap} · timeout{' '}
                    {row.timeout_seconds} s · {row.max_attempts} {row.max_attempts === 1 ? 'try' : 'tries'}
                  </p>
                )}
              </li>
            ))}
          </ol>
        )}
        {notice && (
          <div
            role={notice.tone === 'error' ? 'alert' : 'status'}
            className={`alert alert-soft ${notice.tone === 'error' ? 'alert-error' : 'alert-success'}`}
          >
            {notice.text}
          </div>
        )}
        {canEdit && rows && (
          <div>
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={save}
              disabled={update.isPending}
            >
              Save download providers
            </button>
          </div>
        )}
      </div>
    </section>
  );
}

function NumberField({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  onChange: (value: number) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-base-content/70 text-xs">
        {label}
      </label>
      <input
        id={id}
        type="number"
        className="input input-sm w-28"
        value={value}
        min={min}
        max={max}
        step={1}
        onChange={(event) => onChange(Number(event.target.value))}
      />
    </div>
  );
}
