import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { AxisTick } from './axis-tick';
import { CHART_HEIGHTS } from './chart-sizes';
import { seriesColour } from './palette';

export interface CountBar {
  label: string;
  value: number;
  /** Colour of this bar; default the first series colour. */
  colour?: string;
}

export interface CountBarChartProps {
  data: CountBar[];
  /** What a bar counts, for the tooltip, e.g. 'Plays'. */
  valueName: string;
  height?: number;
}

/** One bar per label: plays per genre, songs per energy range. */
export function CountBarChart({ data, valueName, height = CHART_HEIGHTS.bar }: CountBarChartProps) {
  const bars = data.map((bar) => ({ ...bar, fill: bar.colour ?? seriesColour(0) }));
  return (
    <BarChart
      responsive
      data={bars}
      style={{ width: '100%', height }}
      margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
    >
      <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
      {/* interval 0 and AxisTick: labels are drawn as they are, none measured in the DOM. */}
      <XAxis dataKey="label" tick={AxisTick} interval={0} />
      <YAxis tick={AxisTick} width={56} allowDecimals={false} interval={0} />
      <Tooltip cursor={{ fillOpacity: 0.1 }} />
      <Bar dataKey="value" name={valueName} isAnimationActive={false} />
    </BarChart>
  );
}
