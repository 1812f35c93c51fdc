import { useMemo } from 'react';
import { ChartCard } from '../../components/charts/chart-card';
import { PointLineChart } from '../../components/charts/point-line-chart';
import { type ProgressionMetric, progressionPoints } from './lib/progression';
import { type AnalyticsFilter, type ProgressionEndpoint, useProgression } from './queries';

interface ProgressionChartDefinition {
  endpoint: ProgressionEndpoint;
  metric: ProgressionMetric;
  title: string;
  emptyText: string;
  description: string;
  unit: string;
  yDomain?: [number, number];
}

export const PROGRESSION_CHARTS: readonly ProgressionChartDefinition[] = [
  {
    endpoint: 'bpmProgression',
    metric: 'bpm',
    title: 'BPM Progression',
    emptyText: 'No BPM data available',
    description: 'Average BPM by time window',
    unit: '',
  },
  {
    endpoint: 'energyProgression',
    metric: 'energy',
    title: 'Energy Progression',
    emptyText: 'No energy data available',
    description: 'Average energy by time window (percent)',
    unit: '%',
    yDomain: [0, 100],
  },
  {
    endpoint: 'valenceProgression',
    metric: 'valence',
    title: 'Valence Progression',
    emptyText: 'No valence data available',
    description: 'Average valence (mood) by time window (percent)',
    unit: '%',
    yDomain: [0, 100],
  },
  {
    endpoint: 'danceabilityProgression',
    metric: 'danceability',
    title: 'Danceability Progression',
    emptyText: 'No danceability data available',
    description: 'Average danceability by time window (percent)',
    unit: '%',
    yDomain: [0, 100],
  },
];

function ProgressionChart({
  definition,
  filter,
}: {
  definition: ProgressionChartDefinition;
  filter: AnalyticsFilter;
}) {
  const query = useProgression(definition.endpoint, filter);
  const rows = query.data?.data;
  const points = useMemo(() => progressionPoints(rows ?? [], definition.metric), [rows, definition.metric]);
  return (
    <ChartCard
      title={definition.title}
      description={definition.description}
      isLoading={query.isPending}
      error={query.error}
      onRetry={() => query.refetch()}
      isEmpty={points.length === 0}
      bodyClassName="min-h-[260px]"
      emptyText={definition.emptyText}
    >
      {/* Five points: drawn by hand, not with a Recharts chart, so the screen's first view costs
          no chart rendering (PointLineChart). */}
      <PointLineChart
        data={points}
        name={definition.title.replace(' Progression', '')}
        unit={definition.unit}
        yDomain={definition.yDomain}
        xLabel="Time window"
      />
    </ChartCard>
  );
}

/** The four progressions by time window for the current filter. */
export function ProgressionCharts({ filter }: { filter: AnalyticsFilter }) {
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      {PROGRESSION_CHARTS.map((definition) => (
        <ProgressionChart key={definition.endpoint} definition={definition} filter={filter} />
      ))}
    </div>
  );
}
