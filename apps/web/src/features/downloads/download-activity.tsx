import type { DownloadAttempt, DownloadProviderName } from '@wcs/contract';
import { History } from 'lucide-react';
import { useId } from 'react';
import { Badge, type BadgeTone } from '../../components/badge';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useDownloadAttempts } from '../../lib/system-status';

export const PROVIDER_NAMES: Record<DownloadProviderName, string> = {
  inbox: 'Inbox folder',
  command: 'External command',
};

const OUTCOMES: Record<DownloadAttempt['outcome'], { label: string; tone: BadgeTone }> = {
  running: { label: 'running', tone: 'info' },
  completed: { label: 'completed', tone: 'success' },
  new_song: { label: 'new song', tone: 'info' },
  not_found: { label: 'not found', tone: 'ghost' },
  mismatch: { label: 'mismatch', tone: 'warning' },
  error: { label: 'error', tone: 'error' },
  timeout: { label: 'timeout', tone: 'error' },
  unusable: { label: 'not usable', tone: 'warning' },
  duplicate: { label: 'already in library', tone: 'ghost' },
};

/**
 * The latest provider tries and inbox files (GET /downloads/attempts): what each did, including
 * files that matched no queued song and became new songs, and files refused.
 */
export function DownloadActivity() {
  const attempts = useDownloadAttempts(20);
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-3">
        <h2 id={titleId} className="card-title">
          <History className="size-5" aria-hidden="true" />
          Provider Activity
        </h2>
        {attempts.isPending ? (
          <Loading label="Loading the activity..." />
        ) : attempts.isError ? (
          <ErrorCard
            title="Failed to load the provider activity"
            message={errorMessage(attempts.error)}
            onRetry={() => void attempts.refetch()}
          />
        ) : attempts.data.attempts.length === 0 ? (
          <p className="text-base-content/60 text-sm">
            No provider has tried anything yet. Files dropped into the inbox folder and runs of Start
            Downloads show here.
          </p>
        ) : (
          <ul className="divide-y divide-base-300" aria-label="Provider activity">
            {attempts.data.attempts.map((attempt) => (
              <li key={attempt.id} className="space-y-1 py-2 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge tone={OUTCOMES[attempt.outcome].tone} size="sm">
                    {OUTCOMES[attempt.outcome].label}
                  </Badge>
                  <span className="font-medium">{attempt.song ?? attempt.file_name ?? 'a file'}</span>
                  <span className="text-base-content/60 text-xs">
                    {PROVIDER_NAMES[attempt.provider]} · {formatDateTime(attempt.started_at)}
                  </span>
                </div>
                {attempt.message && <p className="text-base-content/80">{attempt.message}</p>}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
