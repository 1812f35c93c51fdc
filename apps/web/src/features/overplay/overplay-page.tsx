import { AGE_CATEGORIES, type AgeCategory, GENRES, OVERPLAY, type OverplayWarning } from '@wcs/contract';
import { Flame, Leaf, Sprout, TrendingUp } from 'lucide-react';
import { useId, useState } from 'react';
import { Badge } from '../../components/badge';
import { ChartCard } from '../../components/charts/chart-card';
import { LineSeriesChart } from '../../components/charts/lazy';
import { formatMonth } from '../../components/charts/palette';
import { EmptyState } from '../../components/empty-state';
import { ErrorCard } from '../../components/error-card';
import { ExportMenu } from '../../components/export-menu';
import { Loading } from '../../components/loading';
import { StatTile } from '../../components/stat-tile';
import { errorMessage, listItems } from '../../lib/api';
import { clampThreshold, LABEL_TONES, overplayLabel } from './lib/severity';
import { type FreshPoolFilter, useFreshSongsPool, useOverplayTrend, useOverplayWarnings } from './queries';

function ageText(age: AgeCategory | null): string {
  return age ? age.toUpperCase() : 'Unknown';
}

export function OverplayPage() {
  const [threshold, setThreshold] = useState<number>(OVERPLAY.defaultThreshold);
  const [selected, setSelected] = useState<OverplayWarning | null>(null);

  return (
    <div className="space-y-6">
      <div>
        <h2 className="font-bold text-2xl">Overplay Detection Dashboard</h2>
        <p className="text-base-content/70">Songs played too often lately, and fresh songs to play instead</p>
      </div>
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <OverplayWarnings
          threshold={threshold}
          onThresholdChange={(value) => setThreshold(clampThreshold(value))}
          selectedId={selected?.song_id ?? null}
          onSelect={setSelected}
        />
        <PlayTrend song={selected} />
      </div>
      <FreshSongsPool />
    </div>
  );
}

function OverplayWarnings({
  threshold,
  onThresholdChange,
  selectedId,
  onSelect,
}: {
  threshold: number;
  onThresholdChange: (value: number) => void;
  selectedId: number | null;
  onSelect: (song: OverplayWarning) => void;
}) {
  const titleId = useId();
  const sliderId = useId();
  const warnings = useOverplayWarnings(threshold);
  const songs = listItems(warnings.data);

  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-4 p-4 sm:p-6">
        <h3 id={titleId} className="card-title text-base">
          <Flame className="size-5 text-error" aria-hidden="true" />
          Overplay Warnings
        </h3>
        <div className="flex flex-col gap-2">
          <div className="flex items-center justify-between">
            <label htmlFor={sliderId} className="font-medium text-sm">
              Overplay Threshold
            </label>
            <output htmlFor={sliderId} className="badge badge-primary">
              {threshold}%
            </output>
          </div>
          <input
            id={sliderId}
            type="range"
            className="range range-primary range-sm"
            min={OVERPLAY.sliderMin}
            max={OVERPLAY.sliderMax}
            step={OVERPLAY.sliderStep}
            value={threshold}
            aria-valuetext={`${threshold}%`}
            onChange={(event) => onThresholdChange(Number(event.target.value))}
          />
          <div className="flex justify-between text-base-content/60 text-xs" aria-hidden="true">
            <span>{OVERPLAY.sliderMin}%</span>
            <span>{OVERPLAY.sliderMax}%</span>
          </div>
        </div>

        {warnings.isPending ? (
          // The room of a full list (50 songs fill it), so the Play Trend below does not jump.
          <div className="flex min-h-[36rem] items-start justify-center">
            <Loading label="Loading overplay warnings..." />
          </div>
        ) : warnings.isError ? (
          <ErrorCard
            title="Could not load the overplay warnings"
            message={errorMessage(warnings.error)}
            onRetry={() => warnings.refetch()}
          />
        ) : songs.length === 0 ? (
          <EmptyState title={`No songs exceeding threshold of ${threshold}%`} icon={Leaf} />
        ) : (
          <ul
            aria-label="Overplayed songs"
            className="max-h-[36rem] divide-y divide-base-300 overflow-y-auto"
          >
            {songs.map((song) => {
              const label = overplayLabel(song.overplay_score);
              return (
                <li key={song.song_id}>
                  <button
                    type="button"
                    aria-pressed={song.song_id === selectedId}
                    className={`flex w-full flex-wrap items-center gap-3 rounded px-2 py-2 text-left hover:bg-base-200 ${
                      song.song_id === selectedId ? 'bg-base-200' : ''
                    }`}
                    onClick={() => onSelect(song)}
                  >
                    <span className="min-w-0 flex-1">
                      <span className="block font-medium">{song.title}</span>
                      <span className="block text-base-content/70 text-sm">{song.artist}</span>
                    </span>
                    <span className="flex flex-wrap items-center gap-2 text-sm">
                      <Badge size="sm" isOutline>
                        {song.genre ?? 'No genre'}
                      </Badge>
                      <Badge size="sm" isOutline>
                        {ageText(song.age_category)}
                      </Badge>
                      <span className="font-semibold">{Math.round(song.overplay_score)}%</span>
                      <Badge size="sm" tone={LABEL_TONES[label]}>
                        {label}
                      </Badge>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}

/** Beside the long warning list on wide screens, the trend stays in view. */
const STICKY = 'xl:sticky xl:top-20 xl:self-start';

function PlayTrend({ song }: { song: OverplayWarning | null }) {
  const trend = useOverplayTrend(song?.song_id ?? null);
  const points = (trend.data?.trend ?? []).map((point) => ({
    label: formatMonth(point.month),
    plays: point.plays,
  }));
  if (!song) {
    return (
      <ChartCard
        title="Play Trend"
        isEmpty
        emptyText="Select a song to see its monthly plays"
        className={STICKY}
      >
        {null}
      </ChartCard>
    );
  }
  return (
    <ChartCard
      title="Play Trend"
      className={STICKY}
      description={`${song.title} by ${song.artist}: plays per month`}
      isLoading={trend.isPending}
      error={trend.error}
      onRetry={() => trend.refetch()}
    >
      <div className="grid grid-cols-2 gap-3">
        <StatTile
          label="Current Overplay Score"
          value={`${Math.round(trend.data?.current_overplay_score ?? 0)}%`}
          icon={Flame}
          tone="error"
        />
        <StatTile label="Total Plays" value={trend.data?.total_plays} icon={TrendingUp} />
      </div>
      {points.length === 0 ? (
        <EmptyState title="No play data available" />
      ) : (
        <LineSeriesChart data={points} series={[{ dataKey: 'plays', name: 'Plays' }]} height={240} />
      )}
    </ChartCard>
  );
}

function FreshSongsPool() {
  const titleId = useId();
  const ageId = useId();
  const genreId = useId();
  const [filter, setFilter] = useState<FreshPoolFilter>({});
  const pool = useFreshSongsPool(filter);
  const songs = listItems(pool.data);
  const counts = pool.data?.by_age_category;

  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-4 p-4 sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <h3 id={titleId} className="card-title text-base">
              <Sprout className="size-5 text-success" aria-hidden="true" />
              Fresh Songs Pool
            </h3>
            <p className="text-base-content/60 text-sm">
              Songs with an overplay score under {OVERPLAY.freshBelow}%: safe to play
            </p>
          </div>
          {/* The whole pool (not only the songs listed here), with the age and genre chosen. */}
          <ExportMenu
            subject="the fresh songs pool"
            selection={{ fresh_pool: 'true', ...filter }}
            align="end"
          />
        </div>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={ageId} className="font-medium text-sm">
              Age Category
            </label>
            <select
              id={ageId}
              className="select select-sm w-full"
              value={filter.age_category ?? ''}
              onChange={(e) =>
                setFilter((current) => ({
                  ...current,
                  age_category: AGE_CATEGORIES.find((age) => age === e.target.value),
                }))
              }
            >
              <option value="">All ages</option>
              {AGE_CATEGORIES.map((age) => (
                <option key={age} value={age}>
                  {age.toUpperCase()}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={genreId} className="font-medium text-sm">
              Genre
            </label>
            <select
              id={genreId}
              className="select select-sm w-full"
              value={filter.genre ?? ''}
              onChange={(e) =>
                setFilter((current) => ({
                  ...current,
                  genre: GENRES.find((genre) => genre === e.target.value),
                }))
              }
            >
              <option value="">All genres</option>
              {GENRES.map((genre) => (
                <option key={genre} value={genre}>
                  {genre}
                </option>
              ))}
            </select>
          </div>
        </div>

        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <StatTile
            label="Total Fresh Songs"
            value={pool.data?.total}
            isLoading={pool.isPending}
            tone="success"
          />
          <StatTile label="New" value={counts?.new} isLoading={pool.isPending} />
          <StatTile label="Mid" value={counts?.mid} isLoading={pool.isPending} />
          <StatTile label="Old" value={counts?.old} isLoading={pool.isPending} />
        </div>

        {pool.isPending ? (
          <Loading label="Loading fresh songs..." />
        ) : pool.isError ? (
          <ErrorCard
            title="Could not load the fresh songs pool"
            message={errorMessage(pool.error)}
            onRetry={() => pool.refetch()}
          />
        ) : songs.length === 0 ? (
          <EmptyState title="No fresh songs available with current filters" />
        ) : (
          <ul
            aria-label="Fresh songs"
            // Its entries are text, nothing to tab to: the list itself takes focus so the keyboard
            // can scroll it (axe: scrollable-region-focusable).
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
            tabIndex={0}
            className="grid max-h-[40rem] grid-cols-1 gap-2 overflow-y-auto md:grid-cols-2"
          >
            {songs.map((song) => (
              <li
                key={song.song_id}
                className="flex items-center gap-3 rounded-box border border-base-300 px-3 py-2"
              >
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium">{song.title}</span>
                  <span className="block truncate text-base-content/70 text-sm">{song.artist}</span>
                </span>
                <span className="flex flex-wrap items-center justify-end gap-1">
                  {song.genre && (
                    <Badge size="sm" isOutline>
                      {song.genre}
                    </Badge>
                  )}
                  <Badge size="sm" isOutline>
                    {ageText(song.age_category)}
                  </Badge>
                  <Badge size="sm" tone="success">
                    Fresh
                  </Badge>
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
