import { valueScale } from './value-scale';

export interface PointValue {
  label: string;
  value: number;
}

/** Room around the plot, in px: the value above the highest point, x labels below, y labels left. */
export const POINT_LINE_MARGIN = { top: 24, right: 8, bottom: 24, left: 48 } as const;

export interface PointLineLayout {
  /** The plot area, in px from the chart's top left corner. */
  plot: { left: number; right: number; top: number; bottom: number };
  /** One per value, each in the middle of its category's band (so the first and last labels fit). */
  points: Array<PointValue & { x: number; y: number }>;
  yTicks: Array<{ value: number; y: number }>;
  /** The SVG path of the line through the points. */
  path: string;
}

/** Where the points, ticks and line of a chart of `width` x `height` px go. */
export function pointLineLayout(
  data: readonly PointValue[],
  width: number,
  height: number,
  yDomain?: [number, number],
): PointLineLayout {
  const plot = {
    left: POINT_LINE_MARGIN.left,
    right: Math.max(POINT_LINE_MARGIN.left, width - POINT_LINE_MARGIN.right),
    top: POINT_LINE_MARGIN.top,
    bottom: Math.max(POINT_LINE_MARGIN.top, height - POINT_LINE_MARGIN.bottom),
  };
  const values = data.map((point) => point.value);
  const scale = valueScale(Math.min(...values), Math.max(...values), yDomain);
  const yOf = (value: number) =>
    round(plot.bottom - ((value - scale.min) / (scale.max - scale.min)) * (plot.bottom - plot.top));
  const band = (plot.right - plot.left) / Math.max(1, data.length);
  const points = data.map((point, index) => ({
    ...point,
    x: round(plot.left + band * (index + 0.5)),
    y: yOf(point.value),
  }));
  return {
    plot,
    points,
    yTicks: scale.ticks.map((value) => ({ value, y: yOf(value) })),
    path: points.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x},${point.y}`).join(''),
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
