import { useQuery } from '@tanstack/react-query';
import { RECORDING, type Recording } from '@wcs/contract';
import { Clock, Database, FileAudio, ListMusic, Mic, RefreshCw, RotateCw, UserRound } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Badge } from '../../components/badge';
import { EmptyState } from '../../components/empty-state';
import { CriticalErrorCard, ErrorBoundary } from '../../components/error-boundary';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { StatTile } from '../../components/stat-tile';
import { tokensOptions, usersOptions } from '../../lib/accounts';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useCan } from '../../lib/session';
import { BrowserRecorderPanel } from './browser-recorder-panel';
import { type Maker, makerKey, makerLabel, makerOptions } from './made-by';
import { useOlderRecordings, useProcessRecording, useRecordingStats, useRecordings } from './queries';
import { RecordingDetailsModal } from './recording-details-modal';
import {
  canRetryProcessing,
  formatMegabytes,
  formatMinutes,
  recordingStatus,
  timeSince,
} from './recording-status';
import { TodayRecordings } from './today-recordings';

export const LOADING_TIMEOUT_TEXT = 'Loading timeout - check network connection';

/** True once `isLoading` has lasted `ms` without interruption. */
function useLoadingTimeout(isLoading: boolean, ms: number): boolean {
  const [hasTimedOut, setHasTimedOut] = useState(false);
  useEffect(() => {
    setHasTimedOut(false);
    if (!isLoading) return;
    const timer = setTimeout(() => setHasTimedOut(true), ms);
    return () => clearTimeout(timer);
  }, [isLoading, ms]);
  return hasTimedOut;
}

/** /recordings: the recorder, today's browser recordings, totals and every recording. */
export function RecordingsPage() {
  return (
    <ErrorBoundary fallback={(error) => <CriticalErrorCard error={error} />}>
      <RecordingsScreen />
    </ErrorBoundary>
  );
}

function RecordingsScreen() {
  const [isUnprocessedOnly, setIsUnprocessedOnly] = useState(false);
  const [madeBy, setMadeBy] = useState<string | null>(null);
  const recordings = useRecordings(isUnprocessedOnly, madeBy);
  const older = useOlderRecordings(isUnprocessedOnly, madeBy);
  // The newest page, then the older pages asked for; a recording that arrived meanwhile shifts
  // the pages by one, so an id already listed is not listed twice.
  const firstPage = recordings.data?.recordings ?? [];
  const firstIds = new Set(firstPage.map((recording) => recording.recording_id));
  const listed = [...firstPage, ...older.items.filter((recording) => !firstIds.has(recording.recording_id))];
  const total = recordings.data?.total ?? 0;
  const canRecord = useCan('uploadRecording');
  const makers = useMakers(isUnprocessedOnly);
  const stats = useRecordingStats();
  const hasTimedOut = useLoadingTimeout(recordings.isPending, RECORDING.loadTimeoutMs);
  const [detailsOf, setDetailsOf] = useState<Recording | null>(null);

  const refresh = () => {
    void recordings.refetch();
    void stats.refetch();
  };

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="font-bold text-2xl">Recordings</h2>
          <p className="text-base-content/70">
            {canRecord
              ? 'Record a social in the browser or follow the device uploads'
              : 'Follow the recordings of the socials; recording needs the dj role'}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <MadeByFilter makers={makers} value={madeBy} onChange={setMadeBy} />
          <button
            type="button"
            className={`btn btn-sm ${isUnprocessedOnly ? 'btn-primary' : 'btn-outline'}`}
            aria-pressed={isUnprocessedOnly}
            onClick={() => setIsUnprocessedOnly((value) => !value)}
          >
            {isUnprocessedOnly ? 'Show All' : 'Unprocessed Only'}
          </button>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={refresh}
            disabled={recordings.isFetching}
          >
            <RefreshCw
              className={`size-4 ${recordings.isFetching ? 'animate-spin' : ''}`}
              aria-hidden="true"
            />
            Refresh
          </button>
        </div>
      </header>

      {recordings.isError && (
        <ErrorCard
          title="Failed to load recordings"
          message={errorMessage(recordings.error)}
          onRetry={refresh}
          isRetrying={recordings.isFetching}
        />
      )}
      {hasTimedOut && recordings.isPending && (
        <ErrorCard title={LOADING_TIMEOUT_TEXT} onRetry={refresh} isRetrying={recordings.isFetching} />
      )}

      {canRecord && <BrowserRecorderPanel />}
      <TodayRecordings />
      <RecordingStats stats={stats} />

      <section aria-labelledby="recordings-list-heading" className="card bg-base-100 shadow">
        <div className="card-body gap-3">
          <h2 id="recordings-list-heading" className="card-title">
            <FileAudio className="size-5" aria-hidden="true" />
            {isUnprocessedOnly ? 'Unprocessed Recordings' : 'All Recordings'}
            {recordings.data && <Badge tone="neutral">{recordings.data.total}</Badge>}
          </h2>
          {recordings.isPending ? (
            <Loading label="Loading recordings..." />
          ) : recordings.isError && !recordings.data ? null : (recordings.data?.recordings.length ?? 0) ===
            0 ? (
            <EmptyState
              icon={Mic}
              title={isUnprocessedOnly ? 'No unprocessed recordings' : 'No recordings found'}
              hint="Record in the browser above, or upload recordings from the single-board recording device by the speakers."
            />
          ) : (
            <>
              <ul className="divide-y divide-base-300" aria-label="Recordings">
                {listed.map((recording) => (
                  <RecordingItem
                    key={recording.recording_id}
                    recording={recording}
                    onDetails={() => setDetailsOf(recording)}
                  />
                ))}
              </ul>
              {older.error && (
                <p className="text-error text-sm">
                  Could not load older recordings: {errorMessage(older.error)}
                </p>
              )}
              {listed.length < total && (
                <button
                  type="button"
                  className="btn btn-sm self-start"
                  onClick={older.loadMore}
                  disabled={older.isLoading}
                >
                  {older.isLoading
                    ? 'Loading...'
                    : `Show older recordings (${listed.length} of ${total} shown)`}
                </button>
              )}
            </>
          )}
        </div>
      </section>

      <RecordingDetailsModal recording={detailsOf} onClose={() => setDetailsOf(null)} />
    </div>
  );
}

/**
 * The makers the filter offers: those of the recordings in the unfiltered list, and for an admin
 * every account and device token.
 */
function useMakers(isUnprocessedOnly: boolean): Maker[] {
  const all = useRecordings(isUnprocessedOnly);
  const canListUsers = useCan('listUsers');
  const canListTokens = useCan('listTokens');
  const users = useQuery({ ...usersOptions(), enabled: canListUsers });
  const tokens = useQuery({ ...tokensOptions(), enabled: canListTokens });
  return makerOptions(all.data?.recordings ?? [], users.data, tokens.data);
}

function MadeByFilter({
  makers,
  value,
  onChange,
}: {
  makers: Maker[];
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  const selectId = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={selectId} className="text-sm">
        Made by
      </label>
      <select
        id={selectId}
        className="select select-bordered select-sm w-44"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}
      >
        <option value="">Anyone</option>
        {makers.map((maker) => (
          <option key={makerKey(maker)} value={makerKey(maker)}>
            {makerLabel(maker)}
          </option>
        ))}
      </select>
    </div>
  );
}

function RecordingStats({ stats }: { stats: ReturnType<typeof useRecordingStats> }) {
  const data = stats.data;
  return (
    <section
      aria-label="Recording statistics"
      className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4"
    >
      <StatTile
        label="Total Recordings"
        value={data?.recordings.total}
        description={
          data && `${data.recordings.processed} processed · ${data.recordings.unprocessed} unprocessed`
        }
        icon={FileAudio}
        isLoading={stats.isPending}
      />
      <StatTile
        label="Storage Used"
        value={data && `${data.storage.total_gb.toFixed(2)} GB`}
        description={data && `${data.storage.total_mb.toFixed(1)} MB`}
        icon={Database}
        isLoading={stats.isPending}
      />
      <StatTile
        label="Total Duration"
        value={data && `${data.duration.total_hours.toFixed(1)} h`}
        description="recorded audio"
        icon={Clock}
        isLoading={stats.isPending}
      />
      <StatTile
        label="Songs Recognized"
        value={data?.recognition.total_songs_recognized}
        description={data && `${data.recognition.average_per_recording.toFixed(1)} per recording`}
        icon={ListMusic}
        isLoading={stats.isPending}
      />
      {stats.isError && (
        <p className="text-error text-sm sm:col-span-2 xl:col-span-4">{errorMessage(stats.error)}</p>
      )}
    </section>
  );
}

function RecordingItem({ recording, onDetails }: { recording: Recording; onDetails: () => void }) {
  const status = recordingStatus(recording);
  const processing = useProcessRecording();
  const canProcess = useCan('processRecording');
  const headingId = useId();
  const maker = makerLabel(recording.created_by);

  const retry = () => {
    processing.mutate(recording.recording_id, {
      onSuccess: () => window.alert('Processing task queued!'),
      onError: (error) => window.alert(`Failed to trigger processing: ${errorMessage(error)}`),
    });
  };

  return (
    <li aria-labelledby={headingId} className="flex flex-wrap items-start gap-4 py-4">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} className="truncate font-semibold">
            {recording.filename}
          </h3>
          <Badge tone={status.tone} size="sm">
            {status.label}
          </Badge>
          {recording.event_name && (
            <Badge tone="primary" size="sm" isOutline>
              {recording.event_name}
            </Badge>
          )}
        </div>
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-base-content/70 text-sm">
          <span>{formatMinutes(recording.duration_minutes)}</span>
          <span>{formatMegabytes(recording.file_size_mb)}</span>
          <span>
            {recording.songs_recognized} {recording.songs_recognized === 1 ? 'song' : 'songs'} recognised
          </span>
          <span title={formatDateTime(recording.uploaded_at)}>
            uploaded {timeSince(recording.uploaded_at)}
          </span>
          {maker && (
            <span className="flex items-center gap-1">
              <UserRound className="size-3" aria-hidden="true" />
              by {maker}
            </span>
          )}
        </div>
        {recording.error_message && <p className="text-error text-sm">{recording.error_message}</p>}
        <p className="text-base-content/60 text-xs">
          Recorded {formatDateTime(recording.recorded_at)}
          {recording.processed_at && <> · Processed {formatDateTime(recording.processed_at)}</>}
        </p>
      </div>
      <div className="flex gap-2">
        <button type="button" className="btn btn-outline btn-sm" onClick={onDetails}>
          Details
        </button>
        {canProcess && canRetryProcessing(recording) && (
          <button
            type="button"
            className="btn btn-outline btn-warning btn-sm"
            onClick={retry}
            disabled={processing.isPending}
          >
            <RotateCw className="size-4" aria-hidden="true" />
            Retry
          </button>
        )}
      </div>
    </li>
  );
}
