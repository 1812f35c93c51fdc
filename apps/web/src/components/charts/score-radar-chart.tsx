import { PolarAngleAxis, PolarGrid, PolarRadiusAxis, Radar, RadarChart, Tooltip } from 'recharts';
import { CHART_HEIGHTS } from './chart-sizes';
import { seriesColour } from './palette';

export interface RadarScore {
  /** The axis name, e.g. 'Variety'. */
  label: string;
  /** 0-100. */
  value: number;
}

export interface ScoreRadarChartProps {
  data: RadarScore[];
  /** The series name for the tooltip, e.g. the event's name. */
  name: string;
  height?: number;
}

/** Scores from 0 to 100 on a radar, one axis each. */
export function ScoreRadarChart({ data, name, height = CHART_HEIGHTS.radar }: ScoreRadarChartProps) {
  const colour = seriesColour(0);
  return (
    <RadarChart responsive data={data} style={{ width: '100%', height }} outerRadius="70%">
      <PolarGrid />
      <PolarAngleAxis dataKey="label" tick={{ fontSize: 12 }} />
      <PolarRadiusAxis domain={[0, 100]} angle={90} tick={{ fontSize: 10 }} />
      <Tooltip formatter={(value) => (typeof value === 'number' ? value.toFixed(1) : String(value))} />
      <Radar
        name={name}
        dataKey="value"
        stroke={colour}
        fill={colour}
        fillOpacity={0.35}
        isAnimationActive={false}
      />
    </RadarChart>
  );
}
