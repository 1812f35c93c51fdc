import type { EventSuccess } from '@wcs/contract';
import { Gauge, type LucideIcon, Music2, Shuffle, Sparkles } from 'lucide-react';
import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { Badge } from '../../components/badge';
import { ChartCard } from '../../components/charts/chart-card';
import { CountBarChart, ScoreRadarChart } from '../../components/charts/lazy';
import { genreColour, seriesColour } from '../../components/charts/palette';
import { EmptyState } from '../../components/empty-state';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { errorMessage, listItems } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { idParam } from '../../lib/url-params';
import {
  energyBalanceVerdict,
  genreBalanceVerdict,
  newSongRateVerdict,
  type SuccessVerdict,
  sortRanges,
  varietyVerdict,
} from './lib/success-labels';
import { useEventOptions, useEventSuccess } from './queries';

export function InsightsPage() {
  const selectId = useId();
  // The chosen event lives in the URL, so a metric page can be linked and reloaded.
  const [searchParams, setSearchParams] = useSearchParams();
  const eventId = idParam(searchParams.get('eventId'));
  const eventsQuery = useEventOptions();
  const events = listItems(eventsQuery.data);
  const success = useEventSuccess(eventId);

  const chooseEvent = (id: number | null) =>
    setSearchParams(id === null ? {} : { eventId: String(id) }, { replace: true });

  return (
    <div className="space-y-6">
      <div>
        <h2 className="font-bold text-2xl">Event Success Metrics</h2>
        <p className="text-base-content/70">Variety, energy and genre balance, and new music of one event</p>
      </div>

      <div className="card bg-base-100 shadow">
        <div className="card-body gap-2 p-4 sm:p-6">
          <label htmlFor={selectId} className="font-medium text-sm">
            Event
          </label>
          <select
            id={selectId}
            className="select w-full md:max-w-lg"
            value={eventId ?? ''}
            disabled={eventsQuery.isPending}
            onChange={(e) => chooseEvent(e.target.value ? Number(e.target.value) : null)}
          >
            <option value="">Select an event...</option>
            {eventId !== null && !eventsQuery.isPending && !events.some((e) => e.event_id === eventId) && (
              <option value={eventId}>Event {eventId}</option>
            )}
            {events.map((event) => (
              <option key={event.event_id} value={event.event_id}>
                {event.event_name} ({formatDate(event.start_date)})
              </option>
            ))}
          </select>
          {eventsQuery.isError && (
            <ErrorCard
              title="Failed to fetch events"
              message={errorMessage(eventsQuery.error)}
              onRetry={() => eventsQuery.refetch()}
            />
          )}
        </div>
      </div>

      {eventId === null ? (
        <div className="card bg-base-100 shadow">
          <EmptyState title="Select an event to view success metrics" icon={Sparkles} />
        </div>
      ) : success.isPending ? (
        <Loading label="Loading success metrics..." />
      ) : success.isError ? (
        <ErrorCard
          title="Could not load the success metrics"
          message={errorMessage(success.error)}
          onRetry={() => success.refetch()}
        />
      ) : (
        <SuccessMetrics metrics={success.data} />
      )}
    </div>
  );
}

const LEVEL_TONES = { top: 'success', middle: 'info', low: 'warning' } as const;

function MetricCard({
  label,
  score,
  verdict,
  detail,
  icon: Icon,
}: {
  label: string;
  score: number;
  /** Null when the event has no plays: a score of nothing earns no verdict. */
  verdict: SuccessVerdict | null;
  detail: string;
  icon: LucideIcon;
}) {
  const labelId = useId();
  return (
    <article aria-labelledby={labelId} className="card bg-base-100 shadow">
      <div className="card-body gap-2 p-4">
        <div className="flex items-center justify-between gap-2">
          <h3 id={labelId} className="font-medium text-base-content/70 text-sm">
            {label}
          </h3>
          <Icon className="size-6 text-primary" aria-hidden="true" />
        </div>
        <p className="font-bold text-3xl">{score.toFixed(1)}%</p>
        <div>
          {verdict ? (
            <Badge tone={LEVEL_TONES[verdict.level]}>{verdict.label}</Badge>
          ) : (
            <Badge tone="ghost">No plays yet</Badge>
          )}
        </div>
        <p className="text-base-content/60 text-xs">{detail}</p>
      </div>
    </article>
  );
}

function SuccessMetrics({ metrics }: { metrics: EventSuccess }) {
  const hasPlays = metrics.total_plays > 0;
  const energy = metrics.energy_distribution;
  const genres = metrics.genre_balance;
  const energyBars = sortRanges(energy.histogram).map(([range, count]) => ({
    label: /%$/.test(range) ? range : `${range}%`,
    value: count,
    colour: seriesColour(1),
  }));
  const genreBars = Object.entries(genres.genres)
    .sort(([, a], [, b]) => b - a)
    .map(([genre, count], index) => ({ label: genre, value: count, colour: genreColour(genre, index) }));
  const radar = [
    { label: 'Variety', value: metrics.variety_score },
    { label: 'Energy Balance', value: energy.balance_score },
    { label: 'Genre Balance', value: genres.score },
    { label: 'New Songs', value: metrics.new_song_rate },
  ];
  const energyDetail =
    energy.mean === null
      ? 'No energy values for the songs played'
      : `Mean energy ${energy.mean.toFixed(1)}%${energy.std === null ? '' : ` ± ${energy.std.toFixed(1)}`}`;

  return (
    <div className="space-y-6">
      {!hasPlays && (
        <p className="alert alert-info alert-soft">No plays are recorded for {metrics.event_name} yet.</p>
      )}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <MetricCard
          label="Variety Score"
          score={metrics.variety_score}
          verdict={hasPlays ? varietyVerdict(metrics.variety_score) : null}
          detail={`${metrics.unique_songs} unique songs by ${metrics.unique_artists} artists in ${metrics.total_plays} plays`}
          icon={Shuffle}
        />
        <MetricCard
          label="Energy Balance"
          score={energy.balance_score}
          verdict={hasPlays ? energyBalanceVerdict(energy.balance_score) : null}
          detail={energyDetail}
          icon={Gauge}
        />
        <MetricCard
          label="Genre Balance"
          score={genres.score}
          verdict={hasPlays ? genreBalanceVerdict(genres.score) : null}
          detail={
            genres.dominant_genre
              ? `${genres.genre_count} genres, mostly ${genres.dominant_genre}`
              : `${genres.genre_count} genres`
          }
          icon={Music2}
        />
        <MetricCard
          label="New Song Rate"
          score={metrics.new_song_rate}
          verdict={hasPlays ? newSongRateVerdict(metrics.new_song_rate) : null}
          detail={`${metrics.new_song_count} of ${metrics.unique_songs} songs released in the 6 months before`}
          icon={Sparkles}
        />
      </div>

      <ChartCard
        title="Overall Event Quality"
        description="The four scores from 0 to 100"
        isEmpty={!hasPlays}
        emptyText="No quality data available"
      >
        <ScoreRadarChart data={radar} name={metrics.event_name} />
      </ChartCard>

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <ChartCard
          title="Energy Distribution"
          description="Played songs by energy (percent)"
          isEmpty={energyBars.every((bar) => bar.value === 0)}
          emptyText="No energy data available"
        >
          <CountBarChart data={energyBars} valueName="Songs" />
        </ChartCard>
        <ChartCard
          title="Genre Distribution"
          description="Plays per genre"
          isEmpty={genreBars.every((bar) => bar.value === 0)}
          emptyText="No genre data available"
        >
          <CountBarChart data={genreBars} valueName="Plays" />
        </ChartCard>
      </div>
    </div>
  );
}
