import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Surface } from 'recharts';
import { TICK_FONT_SIZE } from './axis-tick';
import { CHART_HEIGHTS } from './chart-sizes';
import { seriesColour } from './palette';
import { type PointValue, pointLineLayout } from './point-line-layout';

export interface PointLineChartProps {
  /** One value per category, in the order drawn (e.g. the time windows of a night). */
  data: readonly PointValue[];
  /** What the values are, for the accessible name, e.g. 'BPM'. */
  name: string;
  /** Appended to values on the chart and on the axis, e.g. '%'. */
  unit?: string;
  /** Fixed y range, e.g. [0, 100] for percentages; default fits the data. */
  yDomain?: [number, number];
  height?: number;
  /** What a category is, e.g. 'Time window'. */
  xLabel?: string;
  colour?: string;
}

function formatValue(value: number, unit: string): string {
  return `${Number.isInteger(value) ? value : value.toFixed(1)}${unit}`;
}

/** The element's content width, from a ResizeObserver (no layout forced); 0 until known. */
function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * A line through a few values (the five time windows of a night), each point labelled with its
 * value, drawn as plain SVG on Recharts' `Surface`: a Recharts chart costs about 25 ms of main
 * thread to draw (57 ms the first; its store, selectors and re-renders), four times that on
 * Lighthouse's phone, this one about a millisecond. Every value is written on the chart, so nothing
 * hides in a tooltip; the accessible name lists them all.
 */
export function PointLineChart({
  data,
  name,
  unit = '',
  yDomain,
  height = CHART_HEIGHTS.line,
  xLabel,
  colour = seriesColour(0),
}: PointLineChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref);
  const layout = useMemo(
    () => (width > 0 && data.length > 0 ? pointLineLayout(data, width, height, yDomain) : null),
    [data, width, height, yDomain],
  );
  const summary = `${name} by ${(xLabel ?? 'category').toLowerCase()}: ${data
    .map((point) => `${point.label} ${formatValue(point.value, unit)}`)
    .join(', ')}`;

  return (
    <div ref={ref} style={{ height }} className="w-full text-base-content">
      {layout && (
        <Surface width={width} height={height} role="img" aria-label={summary}>
          <g className="opacity-70" fontSize={TICK_FONT_SIZE} fill="currentColor">
            {layout.yTicks.map((tick) => (
              <g key={tick.value}>
                <line
                  x1={layout.plot.left}
                  x2={layout.plot.right}
                  y1={tick.y}
                  y2={tick.y}
                  stroke="currentColor"
                  strokeOpacity={0.3}
                  strokeDasharray="3 3"
                />
                <text x={layout.plot.left - 8} y={tick.y} dy="0.355em" textAnchor="end">
                  {formatValue(tick.value, unit)}
                </text>
              </g>
            ))}
            <line
              x1={layout.plot.left}
              x2={layout.plot.right}
              y1={layout.plot.bottom}
              y2={layout.plot.bottom}
              stroke="currentColor"
            />
            {layout.points.map((point) => (
              <text key={point.label} x={point.x} y={layout.plot.bottom + 8} dy="0.71em" textAnchor="middle">
                {point.label}
              </text>
            ))}
          </g>
          <path d={layout.path} fill="none" stroke={colour} strokeWidth={2} strokeLinejoin="round" />
          {layout.points.map((point) => (
            <g key={point.label}>
              <title>{`${xLabel ? `${xLabel} ` : ''}${point.label}: ${formatValue(point.value, unit)}`}</title>
              <circle
                cx={point.x}
                cy={point.y}
                r={3.5}
                fill="var(--color-base-100)"
                stroke={colour}
                strokeWidth={2}
              />
              <text
                x={point.x}
                y={point.y - 10}
                textAnchor="middle"
                fontSize={TICK_FONT_SIZE}
                fontWeight={600}
                fill="currentColor"
                // A halo in the card's colour keeps the value readable where the line crosses it.
                stroke="var(--color-base-100)"
                strokeWidth={3}
                paintOrder="stroke"
              >
                {formatValue(point.value, unit)}
              </text>
            </g>
          ))}
        </Surface>
      )}
    </div>
  );
}
