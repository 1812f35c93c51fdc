import { useQueryClient } from '@tanstack/react-query';
import { AudioWaveform } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import { Badge } from '../../components/badge';
import { errorMessage } from '../../lib/api';
import { useCan } from '../../lib/session';
import { useAnalysisStatus, useAnalyzeOutdated } from './queries';

/**
 * The library's audio analysis at a glance: how many songs are analysed, waiting, failed (with the
 * reasons) or outdated, and a button that queues the outdated ones. While analyses run it refreshes
 * every few seconds, and the song list with it, so the badges move from Pending to Analyzed.
 */
export function AnalysisStatusCard() {
  const titleId = useId();
  const status = useAnalysisStatus();
  const analyzeOutdated = useAnalyzeOutdated();
  const canAnalyze = useCan('analyzeOutdated');
  const queryClient = useQueryClient();
  const data = status.data;

  // A song finished (or failed): the list's badges and values change.
  const lastDone = useRef<string | null>(null);
  useEffect(() => {
    if (!data) return;
    const done = `${data.analyzed}/${data.failed}`;
    if (lastDone.current !== null && lastDone.current !== done) {
      void queryClient.invalidateQueries({ queryKey: ['songs', 'list'] });
    }
    lastDone.current = done;
  }, [data, queryClient]);

  if (status.isError) {
    return (
      <p className="text-error text-sm" role="alert">
        Could not load the analysis status: {errorMessage(status.error)}
      </p>
    );
  }
  // The card's usual height is held while the status loads, so the list below does not move.
  if (status.isPending) return <div className="skeleton h-24 w-full" aria-hidden="true" />;
  if (!data || data.total_songs === 0) return null;

  const isBusy = data.pending > 0;
  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-3 p-4">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <h3 id={titleId} className="flex items-center gap-2 font-semibold">
            <AudioWaveform className="size-4" aria-hidden="true" />
            Audio analysis
          </h3>
          <span className="text-sm">
            {data.analyzed} of {data.total_songs} analyzed
          </span>
          {isBusy && (
            <Badge tone="warning" size="sm">
              {data.pending} pending{data.running > 0 ? ` · ${data.running} running` : ''}
            </Badge>
          )}
          {data.failed > 0 && (
            <Badge tone="error" size="sm">
              {data.failed} failed
            </Badge>
          )}
          {data.outdated > 0 && (
            <Badge
              tone="info"
              size="sm"
              isOutline
              title="Songs with a file not analysed by the current analyser"
            >
              {data.outdated} outdated
            </Badge>
          )}
          {canAnalyze && (
            <button
              type="button"
              className="btn btn-sm btn-outline ml-auto"
              disabled={data.outdated === 0 || analyzeOutdated.isPending}
              onClick={() => analyzeOutdated.mutate()}
            >
              {analyzeOutdated.isPending ? 'Queueing...' : 'Analyze outdated'}
            </button>
          )}
        </div>
        {analyzeOutdated.isError && (
          <p className="text-error text-sm" role="alert">
            {errorMessage(analyzeOutdated.error)}
          </p>
        )}
        {analyzeOutdated.isSuccess && (
          <p className="text-base-content/70 text-sm" aria-live="polite">
            {analyzeOutdated.data.queued === 0
              ? 'Nothing to queue: every outdated song is already waiting.'
              : `Queued ${analyzeOutdated.data.queued} song${analyzeOutdated.data.queued === 1 ? '' : 's'} for analysis.`}
          </p>
        )}
        {data.failures.length > 0 && (
          <details className="text-sm">
            <summary className="cursor-pointer">Why analyses failed</summary>
            <ul className="mt-2 space-y-1">
              {data.failures.map((failure) => (
                <li key={failure.song_id}>
                  <span className="font-medium">
                    {failure.title} · {failure.artist}
                  </span>
                  : <span className="text-base-content/70 break-all">{failure.error}</span>
                </li>
              ))}
            </ul>
          </details>
        )}
        <p className="truncate text-base-content/60 text-xs" title={data.analysis_version}>
          Analyser: {data.analysis_version}
        </p>
      </div>
    </section>
  );
}
