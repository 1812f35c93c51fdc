import { useId } from 'react';
import { EmptyState } from '../../components/empty-state';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { TableScroll } from '../../components/table-scroll';
import { errorMessage } from '../../lib/api';
import { byTimeWindow, formatMetric } from './lib/progression';
import { useTimeWindowCharacteristics } from './queries';

/** Plays, averages and the top genre per time window, over all plays. */
export function TimeWindowTable() {
  const titleId = useId();
  const query = useTimeWindowCharacteristics();
  const rows = byTimeWindow(query.data?.data ?? []);

  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-3 p-4 sm:p-6">
        <div>
          <h3 id={titleId} className="card-title text-base">
            Time Window Characteristics
          </h3>
          <p className="text-base-content/60 text-sm">Over all recorded plays</p>
        </div>
        {query.isPending ? (
          <Loading label="Loading time windows..." />
        ) : query.isError ? (
          <ErrorCard
            title="Could not load Time Window Characteristics"
            message={errorMessage(query.error)}
            onRetry={() => query.refetch()}
          />
        ) : rows.length === 0 ? (
          <EmptyState title="No time window data available" />
        ) : (
          <TableScroll label="Time window characteristics table">
            <table className="table table-sm">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Plays</th>
                  <th scope="col">Avg BPM</th>
                  <th scope="col">Avg Energy</th>
                  <th scope="col">Avg Valence</th>
                  <th scope="col">Avg Dance</th>
                  <th scope="col">Top Genre</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.time_window}>
                    <th scope="row">{row.time_window}</th>
                    <td>{row.play_count}</td>
                    <td>{formatMetric('bpm', row.avg_bpm)}</td>
                    <td>{formatMetric('energy', row.avg_energy)}</td>
                    <td>{formatMetric('valence', row.avg_valence)}</td>
                    <td>{formatMetric('danceability', row.avg_danceability)}</td>
                    <td>{row.top_genre ?? '-'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </div>
    </section>
  );
}
