import type { DownloadQueueEntry, DownloadStatus } from '@wcs/contract';
import { CheckCircle2, Download, Eye, ListOrdered, Music, RefreshCw, RotateCw, XCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { Badge } from '../../components/badge';
import { EmptyState } from '../../components/empty-state';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { StatTile } from '../../components/stat-tile';
import { StoreLinks } from '../../components/store-links';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useCan } from '../../lib/session';
import { DownloadActivity, PROVIDER_NAMES } from './download-activity';
import { formatPriority, priorityTone, statusTone } from './download-tones';
import { PreviewModal } from './preview-modal';
import { useDownloadQueue, useDownloadStats, useRetryDownload } from './queries';

type Filter = DownloadStatus | 'all';

const FILTERS: readonly { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'downloading', label: 'Downloading' },
  { value: 'completed', label: 'Completed' },
  { value: 'failed', label: 'Failed' },
];

interface Notice {
  tone: 'success' | 'error';
  text: string;
}

/** /downloads: the download queue with its counts, filters, Retry and the run preview. */
export function DownloadsPage() {
  const [filter, setFilter] = useState<Filter>('all');
  const [isPreviewOpen, setIsPreviewOpen] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const queue = useDownloadQueue(filter);
  const stats = useDownloadStats();
  const retry = useRetryDownload();
  const canRetry = useCan('retryDownload');
  const listId = useId();

  const retryEntry = (entry: DownloadQueueEntry) => {
    setNotice(null);
    retry.mutate(entry.queue_id, {
      onSuccess: (updated) =>
        setNotice({
          tone: 'success',
          text: `"${updated.title}" by ${updated.artist} is back in the queue (${updated.status}).`,
        }),
      onError: (error) => setNotice({ tone: 'error', text: errorMessage(error) }),
    });
  };

  const counts = stats.data?.queue;
  const entries = queue.data?.entries ?? [];

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="font-bold text-2xl">Downloads Queue</h2>
          <p className="text-base-content/70">Songs played at events that have no file in the library yet</p>
        </div>
        <div className="flex gap-2">
          <button type="button" className="btn btn-primary btn-sm" onClick={() => setIsPreviewOpen(true)}>
            <Eye className="size-4" aria-hidden="true" />
            Preview Downloads
          </button>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => {
              void queue.refetch();
              void stats.refetch();
            }}
            disabled={queue.isFetching}
          >
            <RefreshCw className={`size-4 ${queue.isFetching ? 'animate-spin' : ''}`} aria-hidden="true" />
            Refresh
          </button>
        </div>
      </header>

      <section
        aria-label="Download statistics"
        className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4"
      >
        <StatTile
          label="Queue Total"
          value={counts?.total}
          description={counts && `${counts.pending} pending · ${counts.downloading} active`}
          icon={ListOrdered}
          isLoading={stats.isPending}
        />
        <StatTile
          label="Completed"
          value={counts?.completed}
          icon={CheckCircle2}
          tone="success"
          isLoading={stats.isPending}
        />
        <StatTile
          label="Failed"
          value={counts?.failed}
          icon={XCircle}
          tone="error"
          isLoading={stats.isPending}
        />
        <StatTile
          label="Songs Needed"
          value={stats.data?.songs.played_but_no_file}
          description="played but no file"
          icon={Music}
          isLoading={stats.isPending}
        />
      </section>
      {stats.isError && (
        <ErrorCard
          title="Failed to load the download statistics"
          message={errorMessage(stats.error)}
          onRetry={() => void stats.refetch()}
        />
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

      <section aria-labelledby={listId} className="card bg-base-100 shadow">
        <div className="card-body gap-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id={listId} className="card-title">
              <Download className="size-5" aria-hidden="true" />
              Queue
              {queue.data && <Badge tone="neutral">{queue.data.total}</Badge>}
            </h2>
            <fieldset className="join" aria-label="Filter by status">
              {FILTERS.map(({ value, label }) => (
                <button
                  key={value}
                  type="button"
                  className={`join-item btn btn-sm ${filter === value ? 'btn-active btn-primary' : ''}`}
                  aria-pressed={filter === value}
                  onClick={() => setFilter(value)}
                >
                  {label}
                </button>
              ))}
            </fieldset>
          </div>

          {queue.isPending ? (
            <Loading label="Loading the queue..." />
          ) : queue.isError ? (
            <ErrorCard
              title="Failed to load the download queue"
              message={errorMessage(queue.error)}
              onRetry={() => void queue.refetch()}
              isRetrying={queue.isFetching}
            />
          ) : entries.length === 0 ? (
            <EmptyState
              icon={Download}
              title={filter === 'all' ? 'The download queue is empty' : `No ${filter} downloads`}
              hint="Open the preview to see which played songs would be downloaded."
            />
          ) : (
            <ul className="divide-y divide-base-300" aria-label="Download queue">
              {entries.map((entry) => (
                <QueueEntry
                  key={entry.queue_id}
                  entry={entry}
                  onRetry={canRetry ? () => retryEntry(entry) : undefined}
                  isRetrying={retry.isPending && retry.variables === entry.queue_id}
                />
              ))}
            </ul>
          )}
        </div>
      </section>

      <DownloadActivity />

      <PreviewModal isOpen={isPreviewOpen} onClose={() => setIsPreviewOpen(false)} />
    </div>
  );
}

function QueueEntry({
  entry,
  onRetry,
  isRetrying,
}: {
  entry: DownloadQueueEntry;
  /** Absent when the signed-in role may not retry (viewer). */
  onRetry: (() => void) | undefined;
  isRetrying: boolean;
}) {
  const headingId = useId();
  return (
    <li aria-labelledby={headingId} className="flex flex-wrap items-start gap-4 py-3">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} className="font-semibold">
            {entry.title}
          </h3>
          <Badge tone={statusTone(entry.status)} size="sm">
            {entry.status}
          </Badge>
          <Badge tone={priorityTone(entry.priority_score)} size="sm" isOutline title="Download priority">
            Priority {formatPriority(entry.priority_score)}
          </Badge>
        </div>
        <p className="text-base-content/70 text-sm">{entry.artist}</p>
        <p className="flex flex-wrap gap-x-4 text-base-content/60 text-xs">
          <span>Attempts: {entry.download_attempts}</span>
          <span>Added {formatDateTime(entry.added_at)}</span>
          {entry.started_at && <span>Started {formatDateTime(entry.started_at)}</span>}
          {entry.completed_at && <span>Completed {formatDateTime(entry.completed_at)}</span>}
          {entry.provider && <span>Provider: {PROVIDER_NAMES[entry.provider]}</span>}
        </p>
        {entry.last_error &&
          (entry.status === 'failed' ? (
            <p className="text-error text-sm">Last error: {entry.last_error}</p>
          ) : (
            <p className="text-base-content/80 text-sm">Last try: {entry.last_error}</p>
          ))}
        <StoreLinks artist={entry.artist} title={entry.title} collapsed />
      </div>
      {onRetry && entry.status === 'failed' && (
        <button
          type="button"
          className="btn btn-outline btn-warning btn-sm"
          onClick={onRetry}
          disabled={isRetrying}
        >
          <RotateCw className="size-4" aria-hidden="true" />
          Retry
        </button>
      )}
      {entry.status === 'completed' && (
        <button type="button" className="btn btn-success btn-sm" disabled>
          <CheckCircle2 className="size-4" aria-hidden="true" />
          Done
        </button>
      )}
    </li>
  );
}
