import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { AxisTick } from './axis-tick';
import { CHART_HEIGHTS } from './chart-sizes';
import { seriesColour } from './palette';

export interface LineSeries {
  /** The field of each data row that holds this line's values. */
  dataKey: string;
  /** Shown in the legend and the tooltip. */
  name: string;
  colour?: string;
}

/** One point on the x axis with a value per series (null: no value there). */
export type LinePoint = { label: string } & Record<string, string | number | null>;

export interface LineSeriesChartProps {
  data: LinePoint[];
  series: LineSeries[];
  /** Fixed y range, e.g. [0, 100] for percentages; default fits the data. */
  yDomain?: [number, number];
  /** Appended to values in the tooltip and on the axis, e.g. '%'. */
  unit?: string;
  height?: number;
  /** The x axis label of the tooltip, e.g. 'Time window'. */
  xLabel?: string;
}

/** Up to this many categories every x label fits (time windows: 5). */
const FEW_TICKS = 8;

function formatValue(value: unknown, unit: string): string {
  if (typeof value !== 'number') return '-';
  return `${Number.isInteger(value) ? value : value.toFixed(1)}${unit}`;
}

/** Lines over categories (time windows, months); gaps where a series has no value. */
export function LineSeriesChart({
  data,
  series,
  yDomain,
  unit = '',
  height = CHART_HEIGHTS.line,
  xLabel,
}: LineSeriesChartProps) {
  const hasLegend = series.length > 1;
  return (
    <LineChart
      responsive
      data={data}
      style={{ width: '100%', height }}
      margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
    >
      <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
      {/* Every tick of a short axis is drawn as is: Recharts measures each label in the DOM to thin
          out crowded ticks, which costs more than drawing the chart (interval 0 skips that), and
          AxisTick draws a label without measuring its words. */}
      <XAxis dataKey="label" tick={AxisTick} interval={data.length <= FEW_TICKS ? 0 : 'preserveEnd'} />
      <YAxis
        domain={yDomain ?? ['auto', 'auto']}
        tick={AxisTick}
        interval={0}
        width={56}
        allowDecimals={false}
        tickFormatter={(value: number) => `${value}${unit}`}
      />
      <Tooltip
        formatter={(value) => formatValue(value, unit)}
        labelFormatter={(label) => (xLabel ? `${xLabel}: ${String(label)}` : String(label))}
      />
      {hasLegend && <Legend />}
      {series.map((line, index) => (
        <Line
          key={line.dataKey}
          type="monotone"
          dataKey={line.dataKey}
          name={line.name}
          stroke={line.colour ?? seriesColour(index)}
          strokeWidth={2}
          dot={{ r: 3 }}
          connectNulls
          isAnimationActive={false}
        />
      ))}
    </LineChart>
  );
}
