import { ChartCard } from '../../components/charts/chart-card';
import { CountBarChart, SharePieChart } from '../../components/charts/lazy';
import { genreColour } from '../../components/charts/palette';
import { type AnalyticsFilter, useGenreDistribution } from './queries';

/** Plays per genre for the current filter, as a pie (share) and a bar chart (count). */
export function GenreDistribution({ filter }: { filter: AnalyticsFilter }) {
  const query = useGenreDistribution(filter);
  const rows = (query.data?.data ?? [])
    .filter((row) => row.play_count > 0)
    .map((row, index) => ({
      label: row.genre,
      value: row.play_count,
      colour: genreColour(row.genre, index),
    }));
  return (
    <ChartCard
      title="Genre Distribution"
      description="Plays per genre"
      isLoading={query.isPending}
      error={query.error}
      onRetry={() => query.refetch()}
      isEmpty={rows.length === 0}
      // The pie (280 px) over the bars (260 px), side by side from lg.
      bodyClassName="min-h-[556px] lg:min-h-[280px]"
      emptyText="No genre data available"
    >
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <figure aria-label="Share of plays per genre">
          <SharePieChart data={rows} valueName="Plays" />
        </figure>
        <figure aria-label="Play count per genre">
          <CountBarChart data={rows} valueName="Plays" />
        </figure>
      </div>
    </ChartCard>
  );
}
