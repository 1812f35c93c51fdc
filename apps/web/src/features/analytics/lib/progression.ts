import { type ComparisonEntity, type ProgressionRow, TIME_WINDOWS, type TimeWindow } from '@wcs/contract';

/**
 * Chart and table values of the analytics screen. BPM is shown as is; energy, valence and
 * danceability arrive on 0-1000 and are shown as percent (value / 10).
 */

export type ProgressionMetric = 'bpm' | 'energy' | 'valence' | 'danceability';

export const METRIC_FIELD = {
  bpm: 'avg_bpm',
  energy: 'avg_energy',
  valence: 'avg_valence',
  danceability: 'avg_danceability',
} as const;

/** The shown value: BPM as is, the 0-1000 features as percent; one decimal. */
export function displayValue(metric: ProgressionMetric, value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const shown = metric === 'bpm' ? value : value / 10;
  return Math.round(shown * 10) / 10;
}

function windowOrder(window: string): number {
  const index = TIME_WINDOWS.indexOf(window as TimeWindow);
  return index === -1 ? TIME_WINDOWS.length : index;
}

/** Rows in the night's order 20-22, 22-00, ... */
export function byTimeWindow<T extends { time_window: string }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => windowOrder(a.time_window) - windowOrder(b.time_window));
}

/** One point per time window that has a value, in the night's order. */
export function progressionPoints(rows: readonly ProgressionRow[], metric: ProgressionMetric) {
  return byTimeWindow(rows)
    .map((row) => ({
      label: row.time_window as string,
      value: displayValue(metric, row[METRIC_FIELD[metric]]),
    }))
    .filter((point): point is { label: string; value: number } => point.value !== null);
}

/** The series key of an entity in a comparison chart. */
export function entityKey(id: number): string {
  return `entity_${id}`;
}

/**
 * Points of a comparison chart: every time window any entity has, in the night's order, with each
 * entity's value under its own key (null where that entity has none).
 */
export function comparisonPoints(entities: readonly ComparisonEntity[], metric: ProgressionMetric) {
  const field = `${metric}_progression` as const;
  const windows = new Set<string>();
  for (const entity of entities) {
    for (const [window, value] of Object.entries(entity[field])) if (value !== null) windows.add(window);
  }
  return byTimeWindow([...windows].map((time_window) => ({ time_window }))).map(({ time_window }) => {
    const point: { label: string } & Record<string, string | number | null> = { label: time_window };
    for (const entity of entities)
      point[entityKey(entity.id)] = displayValue(metric, entity[field][time_window]);
    return point;
  });
}

/** Table cell text: '-' when missing; percent metrics with a % sign. */
export function formatMetric(metric: ProgressionMetric, value: number | null | undefined): string {
  const shown = displayValue(metric, value);
  if (shown === null) return '-';
  return metric === 'bpm' ? shown.toFixed(1) : `${shown.toFixed(1)}%`;
}
