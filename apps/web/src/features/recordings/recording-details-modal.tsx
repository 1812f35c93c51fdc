import type { RecognizedSong, Recording } from '@wcs/contract';
import { Badge } from '../../components/badge';
import { ErrorCard } from '../../components/error-card';
import { Modal } from '../../components/modal';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useMoreRecordingSongs, useRecording } from './queries';
import { formatMegabytes, formatMinutes, formatTimeOfDay, recordingStatus } from './recording-status';

interface RecordingDetailsModalProps {
  /** The recording as the list showed it; the modal loads its current state. */
  recording: Recording | null;
  onClose: () => void;
}

/** Details: status, duration, size, recorded and uploaded times, event and recognised songs. */
export function RecordingDetailsModal({ recording, onClose }: RecordingDetailsModalProps) {
  const detail = useRecording(recording?.recording_id ?? null);
  const shown = detail.data ?? recording;
  const status = shown ? recordingStatus(shown) : null;

  return (
    <Modal
      isOpen={recording !== null}
      title={shown ? `Recording Details: ${shown.filename}` : 'Recording Details'}
      onClose={onClose}
      actions={
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
      }
    >
      {shown && status && (
        <>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="font-medium">Status</dt>
            <dd>
              <Badge tone={status.tone} size="sm">
                {status.label}
              </Badge>
            </dd>
            <dt className="font-medium">Duration</dt>
            <dd>{formatMinutes(shown.duration_minutes)}</dd>
            <dt className="font-medium">Size</dt>
            <dd>{formatMegabytes(shown.file_size_mb)}</dd>
            <dt className="font-medium">Chunks</dt>
            <dd>{shown.chunk_count}</dd>
            <dt className="font-medium">Recorded</dt>
            <dd>{formatDateTime(shown.recorded_at)}</dd>
            <dt className="font-medium">Uploaded</dt>
            <dd>{formatDateTime(shown.uploaded_at)}</dd>
            {shown.processed_at && (
              <>
                <dt className="font-medium">Processed</dt>
                <dd>{formatDateTime(shown.processed_at)}</dd>
              </>
            )}
            <dt className="font-medium">Event</dt>
            <dd>{shown.event_name ?? 'No event'}</dd>
            {shown.error_message && (
              <>
                <dt className="font-medium">Error</dt>
                <dd className="text-error">{shown.error_message}</dd>
              </>
            )}
          </dl>
          {detail.isError && (
            <ErrorCard
              title="Failed to load recordings"
              message={errorMessage(detail.error)}
              onRetry={() => void detail.refetch()}
            />
          )}
          <RecognisedSongs recording={shown} />
        </>
      )}
    </Modal>
  );
}

/** The recording's songs in play order: those its answer carries, then more pages on request. */
function RecognisedSongs({ recording }: { recording: Recording }) {
  const embedded = recording.recognized_songs;
  const more = useMoreRecordingSongs(recording.recording_id, embedded.length);
  const listed: RecognizedSong[] = [...embedded, ...more.items];
  const total = recording.songs_recognized;
  return (
    <div>
      <h3 className="mb-2 font-semibold">Recognised Songs ({total})</h3>
      {listed.length === 0 ? (
        <p className="text-base-content/60 text-sm">No songs recognised in this recording.</p>
      ) : (
        <ul className="max-h-72 divide-y divide-base-300 overflow-y-auto" aria-label="Recognised songs">
          {listed.map((song) => (
            <li key={`${song.song_id}-${song.timestamp}`} className="flex justify-between gap-3 py-2">
              <div className="min-w-0">
                <p className="truncate font-medium">{song.title}</p>
                <p className="truncate text-base-content/70 text-sm">{song.artist}</p>
              </div>
              <span className="shrink-0 font-mono text-sm">{formatTimeOfDay(song.timestamp)}</span>
            </li>
          ))}
        </ul>
      )}
      {more.error && (
        <p className="mt-2 text-error text-sm">Could not load more songs: {errorMessage(more.error)}</p>
      )}
      {listed.length < total && (
        <button type="button" className="btn btn-sm mt-2" onClick={more.loadMore} disabled={more.isLoading}>
          {more.isLoading ? 'Loading...' : `Show more (${listed.length} of ${total} shown)`}
        </button>
      )}
    </div>
  );
}
