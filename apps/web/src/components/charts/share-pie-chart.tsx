import { Legend, Pie, PieChart, Tooltip } from 'recharts';
import { CHART_HEIGHTS } from './chart-sizes';
import { seriesColour } from './palette';

export interface PieSlice {
  label: string;
  value: number;
  colour?: string;
}

export interface SharePieChartProps {
  data: PieSlice[];
  /** What a slice counts, for the tooltip, e.g. 'Plays'. */
  valueName: string;
  height?: number;
}

/** A pie of counts per label with percentages on the slices and a legend. */
export function SharePieChart({ data, valueName, height = CHART_HEIGHTS.pie }: SharePieChartProps) {
  const slices = data
    .filter((slice) => slice.value > 0)
    .map((slice, index) => ({
      name: slice.label,
      value: slice.value,
      fill: slice.colour ?? seriesColour(index),
    }));
  return (
    <PieChart responsive style={{ width: '100%', height }}>
      <Pie
        data={slices}
        dataKey="value"
        nameKey="name"
        outerRadius="70%"
        label={({ percent }) => `${Math.round((percent ?? 0) * 100)}%`}
        isAnimationActive={false}
      />
      <Tooltip formatter={(value) => [String(value), valueName]} />
      <Legend />
    </PieChart>
  );
}
