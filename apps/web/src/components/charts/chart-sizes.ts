/** Default heights of the charts in px; the lazy wrappers (lazy.tsx) hold exactly this much room. */
export const CHART_HEIGHTS = { line: 260, bar: 260, pie: 280, radar: 300 } as const;
