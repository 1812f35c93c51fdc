import { Play } from 'lucide-react';
import { Badge } from '../../components/badge';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { Modal } from '../../components/modal';
import { errorMessage } from '../../lib/api';
import { useCan } from '../../lib/session';
import { formatPriority, priorityTone } from './download-tones';
import { ProvidersSummary } from './providers-summary';
import { useDownloadPreview, useStartDownloads } from './queries';

/** The preview lists up to 20 top-priority songs. */
const PREVIEW_TOP_SONGS = 20;

interface PreviewModalProps {
  isOpen: boolean;
  onClose: () => void;
}

/** What a download run would fetch, with Start Downloads. */
export function PreviewModal({ isOpen, onClose }: PreviewModalProps) {
  const preview = useDownloadPreview(isOpen);
  const start = useStartDownloads();
  const canStart = useCan('startDownloads');
  const data = preview.data;

  const close = () => {
    start.reset();
    onClose();
  };

  return (
    <Modal
      isOpen={isOpen}
      title="Download Preview"
      onClose={close}
      size="lg"
      isDismissable={!start.isPending}
      actions={
        <>
          <button type="button" className="btn" onClick={close} disabled={start.isPending}>
            Close
          </button>
          {canStart && (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => start.mutate(undefined, { onSuccess: () => void preview.refetch() })}
              disabled={start.isPending || !data}
            >
              {start.isPending ? (
                <span className="loading loading-spinner loading-xs" aria-hidden="true" />
              ) : (
                <Play className="size-4" aria-hidden="true" />
              )}
              Start Downloads
            </button>
          )}
        </>
      }
    >
      {start.isSuccess && (
        <div role="status" className="alert alert-success alert-soft">
          {start.data.message}
        </div>
      )}
      {start.isError && (
        <div role="alert" className="alert alert-error alert-soft">
          {errorMessage(start.error)}
        </div>
      )}
      {preview.isPending ? (
        <Loading label="Loading preview..." />
      ) : preview.isError ? (
        <ErrorCard
          title="Failed to load the download preview"
          message={errorMessage(preview.error)}
          onRetry={() => void preview.refetch()}
          isRetrying={preview.isFetching}
        />
      ) : (
        data && (
          <>
            <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
              <div className="rounded-box bg-base-200 p-3">
                <dt className="text-base-content/70 text-sm">Candidates</dt>
                <dd className="font-bold text-2xl">{data.total_candidates}</dd>
              </div>
              <div className="rounded-box bg-base-200 p-3">
                <dt className="text-base-content/70 text-sm">Total Size</dt>
                <dd className="font-bold text-2xl">{data.estimated_size_gb.toFixed(2)} GB</dd>
              </div>
              <div className="rounded-box bg-base-200 p-3">
                <dt className="text-base-content/70 text-sm">Estimated Time</dt>
                <dd className="font-bold text-2xl">{Math.round(data.estimated_analysis_minutes)} min</dd>
              </div>
              <div className="rounded-box bg-base-200 p-3">
                <dt className="text-base-content/70 text-sm">Estimated Cost</dt>
                <dd className="font-bold text-2xl">${data.estimated_cost_usd.toFixed(2)} USD</dd>
              </div>
            </dl>

            <section aria-labelledby="preview-settings" className="space-y-1">
              <h3 id="preview-settings" className="font-semibold">
                Current Settings
              </h3>
              <ul className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
                <li>Minimum plays: {data.current_settings.minimum_plays}</li>
                <li>Priority threshold: {data.current_settings.priority_threshold}</li>
                <li>Downloads enabled: {data.current_settings.download_enabled ? 'Yes' : 'No'}</li>
              </ul>
            </section>

            <ProvidersSummary candidates={data.total_candidates} />

            <section aria-labelledby="preview-top-songs" className="space-y-2">
              <h3 id="preview-top-songs" className="font-semibold">
                Top Priority Songs
              </h3>
              {data.top_songs.length === 0 ? (
                <p className="text-base-content/60 text-sm">No song meets the download rules right now.</p>
              ) : (
                <div className="max-h-80 overflow-y-auto">
                  <table className="table-sm table">
                    <thead>
                      <tr>
                        <th>Title</th>
                        <th>Artist</th>
                        <th>Priority</th>
                        <th>Plays</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.top_songs.slice(0, PREVIEW_TOP_SONGS).map((song) => (
                        <tr key={song.song_id}>
                          <td>{song.title}</td>
                          <td>{song.artist}</td>
                          <td>
                            <Badge tone={priorityTone(song.priority)} size="sm">
                              {formatPriority(song.priority)}
                            </Badge>
                          </td>
                          <td>{song.play_count}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
          </>
        )
      )}
    </Modal>
  );
}
