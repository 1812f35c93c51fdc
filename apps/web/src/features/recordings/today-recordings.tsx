import type { Recording } from '@wcs/contract';
import { CalendarPlus, Globe, Trash2 } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Badge } from '../../components/badge';
import { EmptyState } from '../../components/empty-state';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { errorMessage, listItems } from '../../lib/api';
import { canDeleteRecording } from '../../lib/permissions';
import { useCan, useIdentity } from '../../lib/session';
import { makerLabel } from './made-by';
import {
  localMidnightIso,
  useAssignEvent,
  useDeleteRecording,
  useEventOptions,
  useTodayRecordings,
} from './queries';
import { deleteConfirmation, formatMegabytes, formatMinutes, formatTimeOfDay } from './recording-status';

/** docs/product.md "Limits and constants": the Assign Event dropdown lists up to 100 events. */
const ASSIGN_EVENT_LIMIT = 100;

/** Today's recordings made in this browser (source web_browser), refreshed every 30 s. */
export function TodayRecordings() {
  const headingId = useId();
  // Recomputed on every render, so the list moves on to the new day after midnight.
  const since = localMidnightIso();
  const today = useTodayRecordings(since);
  const recordings = today.data?.recordings ?? [];

  return (
    <section aria-labelledby={headingId} className="card bg-base-100 shadow">
      <div className="card-body gap-3">
        <h2 id={headingId} className="card-title">
          <Globe className="size-5" aria-hidden="true" />
          Today's Browser Recordings
          {today.data && <Badge tone="neutral">{today.data.total}</Badge>}
        </h2>
        {today.isPending ? (
          <Loading label="Loading today's recordings..." />
        ) : today.isError ? (
          <ErrorCard
            title="Failed to load recordings"
            message={errorMessage(today.error)}
            onRetry={() => void today.refetch()}
            isRetrying={today.isFetching}
          />
        ) : recordings.length === 0 ? (
          <EmptyState title="No browser recordings today" hint="Start a recording above; it appears here." />
        ) : (
          <ul className="divide-y divide-base-300" aria-label="Today's browser recordings">
            {recordings.map((recording) => (
              <TodayRecordingItem key={recording.recording_id} recording={recording} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function TodayRecordingItem({ recording }: { recording: Recording }) {
  const [isAssigning, setIsAssigning] = useState(false);
  const deletion = useDeleteRecording();
  // An admin deletes any recording, a dj the ones it made; a viewer changes nothing.
  const canDelete = canDeleteRecording(useIdentity(), recording);
  const canAssign = useCan('assignRecordingEvent');
  const maker = makerLabel(recording.created_by);

  const remove = () => {
    if (!window.confirm(deleteConfirmation(recording.filename))) return;
    deletion.mutate(recording.recording_id, {
      onError: (error) => window.alert(`Failed to delete recording: ${errorMessage(error)}`),
    });
  };

  return (
    <li className="space-y-2 py-3" aria-label={recording.filename}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-mono font-semibold">{formatTimeOfDay(recording.recorded_at)}</span>
        {recording.processed ? (
          <Badge tone="success" size="sm">
            Processed
          </Badge>
        ) : (
          <Badge tone="warning" size="sm">
            Processing...
          </Badge>
        )}
        {recording.event_name ? (
          <Badge tone="primary" size="sm">
            {recording.event_name}
          </Badge>
        ) : (
          <span className="text-base-content/60 text-sm">No event</span>
        )}
        <span className="flex-1" />
        {canAssign && recording.event_id === null && !isAssigning && (
          <button type="button" className="btn btn-outline btn-xs" onClick={() => setIsAssigning(true)}>
            <CalendarPlus className="size-3" aria-hidden="true" />
            Assign Event
          </button>
        )}
        {canDelete && (
          <button
            type="button"
            className="btn btn-ghost btn-xs text-error"
            aria-label={`Delete ${recording.filename}`}
            title="Delete recording"
            onClick={remove}
            disabled={deletion.isPending}
          >
            <Trash2 className="size-4" aria-hidden="true" />
          </button>
        )}
      </div>
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-base-content/70 text-sm">
        <span>{formatMinutes(recording.duration_minutes)}</span>
        <span>{formatMegabytes(recording.file_size_mb)}</span>
        <span>
          {recording.songs_recognized} {recording.songs_recognized === 1 ? 'song' : 'songs'}
        </span>
        <span>
          {recording.chunk_count} {recording.chunk_count === 1 ? 'chunk' : 'chunks'}
        </span>
        {maker && <span>by {maker}</span>}
        <span className="truncate font-mono text-xs leading-5">{recording.filename}</span>
      </div>
      {isAssigning && (
        <AssignEventForm recordingId={recording.recording_id} onDone={() => setIsAssigning(false)} />
      )}
    </li>
  );
}

function AssignEventForm({ recordingId, onDone }: { recordingId: number; onDone: () => void }) {
  const selectId = useId();
  const events = useEventOptions(ASSIGN_EVENT_LIMIT);
  const eventList = useMemo(() => listItems(events.data), [events.data]);
  const [eventId, setEventId] = useState('');
  const assign = useAssignEvent();

  const save = () => {
    if (!eventId) return;
    assign.mutate(
      { recordingId, eventId: Number(eventId) },
      {
        onSuccess: onDone,
        onError: (error) => window.alert(`Failed to update event: ${errorMessage(error)}`),
      },
    );
  };

  return (
    <div className="flex flex-wrap items-end gap-2 rounded-box bg-base-200 p-3">
      <div className="min-w-48 flex-1">
        <label htmlFor={selectId} className="label-text mb-1 block text-sm">
          Event for this recording
        </label>
        <select
          id={selectId}
          className="select select-bordered select-sm w-full"
          value={eventId}
          onChange={(event) => setEventId(event.target.value)}
          disabled={events.isPending}
        >
          <option value="">{events.isPending ? 'Loading events...' : 'Select an event...'}</option>
          {eventList.map((event) => (
            <option key={event.event_id} value={event.event_id}>
              {event.event_name}
            </option>
          ))}
        </select>
        {events.isError && <p className="mt-1 text-error text-xs">{errorMessage(events.error)}</p>}
      </div>
      <button
        type="button"
        className="btn btn-primary btn-sm"
        disabled={!eventId || assign.isPending}
        onClick={save}
      >
        {assign.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
        Save
      </button>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onDone} disabled={assign.isPending}>
        Cancel
      </button>
    </div>
  );
}
