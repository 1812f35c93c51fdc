import type { BaseTickContentProps } from 'recharts';

/** The font size of axis labels, in px. */
export const TICK_FONT_SIZE = 12;

/** Recharts' own offsets of a label from its anchor (its `Text` cap height of 0.71em). */
const DY = { start: '0.71em', middle: '0.355em', end: '0' } as const;

/**
 * One axis label as a plain SVG text. Recharts draws a label with its `Text`, which measures every
 * word in the DOM to wrap it: each measure forces a layout of the whole page, the costliest part of
 * drawing a small chart (axis labels here are a word or a number and never wrap).
 */
export function AxisTick({
  x,
  y,
  textAnchor,
  verticalAnchor,
  fill,
  className,
  payload,
  index,
  tickFormatter,
}: BaseTickContentProps) {
  const value = tickFormatter ? tickFormatter(payload.value, index) : payload.value;
  return (
    <text
      x={x}
      y={y}
      dy={DY[verticalAnchor] ?? DY.middle}
      textAnchor={textAnchor}
      fill={fill}
      fontSize={TICK_FONT_SIZE}
      className={className}
    >
      {String(value)}
    </text>
  );
}
