import { COMPARISON, type Event, type Social } from '@wcs/contract';
import { useId, useMemo, useState } from 'react';
import { ChartCard } from '../../components/charts/chart-card';
import { LineSeriesChart, SharePieChart } from '../../components/charts/lazy';
import { genreColour, seriesColour } from '../../components/charts/palette';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { errorMessage } from '../../lib/api';
import { eventOptionLabel, socialOptionLabel } from './filter-card';
import {
  activeIds,
  type ComparisonSelection,
  type ComparisonType,
  canCompare,
  compareButtonLabel,
  EMPTY_SELECTION,
  isOptionDisabled,
  switchType,
  toggleInSelection,
} from './lib/comparison-selection';
import { comparisonPoints, entityKey, type ProgressionMetric } from './lib/progression';
import { useComparison } from './queries';

export interface ComparisonToolProps {
  events: readonly Event[];
  /** The event chosen in 'Filter Analytics'; socials are compared within it. */
  eventId: number | null;
  socials: readonly Social[];
  isLoadingSocials: boolean;
}

interface Option {
  id: number;
  label: string;
}

/** Compare 2 to 5 events, or 2 to 5 socials of the chosen event. */
export function ComparisonTool({ events, eventId, socials, isLoadingSocials }: ComparisonToolProps) {
  const titleId = useId();
  const radioName = useId();
  const [selection, setSelection] = useState<ComparisonSelection>(EMPTY_SELECTION);
  /** What Compare was last pressed with; results show only for it. */
  const [compared, setCompared] = useState<ComparisonSelection | null>(null);

  const ids = activeIds(selection, eventId);
  const type = selection.type;
  const options: Option[] = useMemo(
    () =>
      type === 'event'
        ? events.map((event) => ({ id: event.event_id, label: eventOptionLabel(event) }))
        : socials.map((social) => ({ id: social.social_id, label: socialOptionLabel(social) })),
    [type, events, socials],
  );
  // Results of socials of another event than the one chosen now are not shown.
  const visibleCompared =
    compared && activeIds(compared, eventId).length > 0 && compared.type === type ? compared : null;

  const chooseType = (next: ComparisonType) => {
    setSelection((current) => switchType(current, next, eventId));
    setCompared(null);
  };

  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-4 p-4 sm:p-6">
        <div>
          <h3 id={titleId} className="card-title text-base">
            Event/Social Comparison Tool
          </h3>
          <p className="text-base-content/60 text-sm">
            Select {COMPARISON.min} to {COMPARISON.max} events or socials to compare their nights.
          </p>
        </div>

        <fieldset className="flex flex-wrap gap-6">
          <legend className="mb-2 font-medium text-sm">Compare</legend>
          {(
            [
              ['event', 'Events'],
              ['social', 'Socials'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex cursor-pointer items-center gap-2">
              <input
                type="radio"
                className="radio radio-sm"
                name={radioName}
                value={value}
                checked={type === value}
                onChange={() => chooseType(value)}
              />
              {label}
            </label>
          ))}
        </fieldset>

        {type === 'social' && eventId === null ? (
          <p className="text-base-content/70 text-sm">Select an event above first to see available socials</p>
        ) : type === 'social' && isLoadingSocials ? (
          <Loading label="Loading socials..." />
        ) : options.length === 0 ? (
          <p className="text-base-content/70 text-sm">
            {type === 'event' ? 'No events available' : 'No socials available for this event'}
          </p>
        ) : (
          <fieldset>
            <legend className="sr-only">
              {type === 'event' ? 'Events to compare' : 'Socials to compare'}
            </legend>
            {/* Out of sight (below the fold as the screen opens), the list skips style, layout and
                paint: with hundreds of events, most of the screen's rendering cost. It stays in the
                page, for search and screen readers. */}
            <ul className="grid max-h-72 grid-cols-1 gap-1 overflow-y-auto rounded-box border border-base-300 p-2 [contain-intrinsic-size:auto_288px] [content-visibility:auto] md:grid-cols-2">
              {options.map((option) => {
                const isDisabled = isOptionDisabled(ids, option.id);
                return (
                  <li key={option.id}>
                    <label
                      className={`flex items-center gap-2 rounded px-2 py-1 ${isDisabled ? 'opacity-50' : 'cursor-pointer hover:bg-base-200'}`}
                    >
                      <input
                        type="checkbox"
                        className="checkbox checkbox-sm"
                        checked={ids.includes(option.id)}
                        disabled={isDisabled}
                        onChange={() =>
                          setSelection((current) => toggleInSelection(current, option.id, eventId))
                        }
                      />
                      <span className="text-sm">{option.label}</span>
                    </label>
                  </li>
                );
              })}
            </ul>
          </fieldset>
        )}

        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            className="btn btn-primary"
            disabled={!canCompare(ids)}
            onClick={() => setCompared({ ...selection, ids: [...ids] })}
          >
            {compareButtonLabel(ids.length, type)}
          </button>
          <span className="text-base-content/60 text-sm">
            {ids.length} of {COMPARISON.max} selected
          </span>
        </div>

        {visibleCompared && <ComparisonResults request={visibleCompared} />}
      </div>
    </section>
  );
}

const COMPARISON_CHARTS: readonly { metric: ProgressionMetric; title: string; unit: string }[] = [
  { metric: 'bpm', title: 'BPM Progression Comparison', unit: '' },
  { metric: 'energy', title: 'Energy Progression Comparison', unit: '%' },
  { metric: 'valence', title: 'Valence Progression Comparison', unit: '%' },
  { metric: 'danceability', title: 'Danceability Progression Comparison', unit: '%' },
];

function ComparisonResults({ request }: { request: ComparisonSelection }) {
  const titleId = useId();
  const comparison = useComparison({ type: request.type, ids: request.ids });
  const entities = comparison.data?.entities ?? [];
  const series = entities.map((entity, index) => ({
    dataKey: entityKey(entity.id),
    name: entity.name,
    colour: seriesColour(index),
  }));

  return (
    <section aria-labelledby={titleId} className="space-y-4 border-base-300 border-t pt-4">
      <h4 id={titleId} className="font-semibold">
        Comparison Results
      </h4>
      {comparison.isPending ? (
        <Loading label="Comparing..." />
      ) : comparison.isError ? (
        <ErrorCard
          title="The comparison failed"
          message={errorMessage(comparison.error)}
          onRetry={() => comparison.refetch()}
        />
      ) : (
        <>
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
            {COMPARISON_CHARTS.map((chart) => {
              const points = comparisonPoints(entities, chart.metric);
              return (
                <ChartCard
                  key={chart.metric}
                  title={chart.title}
                  isEmpty={points.length === 0}
                  emptyText={`No ${chart.metric === 'bpm' ? 'BPM' : chart.metric} data available`}
                  className="bg-base-200/50 shadow-none"
                >
                  <LineSeriesChart
                    data={points}
                    series={series}
                    unit={chart.unit}
                    yDomain={chart.unit === '%' ? [0, 100] : undefined}
                    xLabel="Time window"
                  />
                </ChartCard>
              );
            })}
          </div>
          <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
            {entities.map((entity) => {
              const slices = Object.entries(entity.genre_distribution)
                .filter(([, count]) => count > 0)
                .map(([genre, count], index) => ({
                  label: genre,
                  value: count,
                  colour: genreColour(genre, index),
                }));
              return (
                <ChartCard
                  key={entity.id}
                  title={`Genre Distribution: ${entity.name}`}
                  isEmpty={slices.length === 0}
                  emptyText="No genre data available"
                  className="bg-base-200/50 shadow-none"
                >
                  <SharePieChart data={slices} valueName="Plays" height={240} />
                </ChartCard>
              );
            })}
          </div>
        </>
      )}
    </section>
  );
}
