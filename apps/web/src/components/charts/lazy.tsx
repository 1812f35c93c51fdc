import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { CHART_HEIGHTS } from './chart-sizes';
import type { CountBarChartProps } from './count-bar-chart';
import type { LineSeriesChartProps } from './line-series-chart';
import type { ScoreRadarChartProps } from './score-radar-chart';
import type { SharePieChartProps } from './share-pie-chart';

/**
 * The charts as screens use them: Recharts (about 85 KB compressed, and the heaviest rendering of
 * the app) is fetched only when a chart is about to be seen, and each chart draws only once its
 * place comes near the viewport. Until then a placeholder of the chart's exact height holds its
 * place, so nothing moves when it appears. The numbers and tables of a screen paint first.
 */
const LazyLineSeriesChart = lazy(() =>
  import('./line-series-chart').then((module) => ({ default: module.LineSeriesChart })),
);
const LazyCountBarChart = lazy(() =>
  import('./count-bar-chart').then((module) => ({ default: module.CountBarChart })),
);
const LazySharePieChart = lazy(() =>
  import('./share-pie-chart').then((module) => ({ default: module.SharePieChart })),
);
const LazyScoreRadarChart = lazy(() =>
  import('./score-radar-chart').then((module) => ({ default: module.ScoreRadarChart })),
);

/** How far below (or above) the viewport a chart starts drawing: half a screen ahead. */
const DRAW_AHEAD_MARGIN = '50% 0px';

/** True once the element has come within DRAW_AHEAD_MARGIN of the viewport (and stays true). */
function useHasComeNear(ref: React.RefObject<HTMLElement | null>): boolean {
  const [hasComeNear, setHasComeNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (hasComeNear || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setHasComeNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: DRAW_AHEAD_MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasComeNear, ref]);
  return hasComeNear;
}

function DeferredChart({ height, children }: { height: number; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const hasComeNear = useHasComeNear(ref);
  const placeholder = <div className="skeleton h-full w-full opacity-40" />;
  return (
    <div ref={ref} style={{ minHeight: height }} className="flex flex-col">
      {hasComeNear ? (
        <Suspense fallback={<div style={{ height }}>{placeholder}</div>}>{children}</Suspense>
      ) : (
        <div style={{ height }}>{placeholder}</div>
      )}
    </div>
  );
}

export function LineSeriesChart(props: LineSeriesChartProps) {
  return (
    <DeferredChart height={props.height ?? CHART_HEIGHTS.line}>
      <LazyLineSeriesChart {...props} />
    </DeferredChart>
  );
}

export function CountBarChart(props: CountBarChartProps) {
  return (
    <DeferredChart height={props.height ?? CHART_HEIGHTS.bar}>
      <LazyCountBarChart {...props} />
    </DeferredChart>
  );
}

export function SharePieChart(props: SharePieChartProps) {
  return (
    <DeferredChart height={props.height ?? CHART_HEIGHTS.pie}>
      <LazySharePieChart {...props} />
    </DeferredChart>
  );
}

export function ScoreRadarChart(props: ScoreRadarChartProps) {
  return (
    <DeferredChart height={props.height ?? CHART_HEIGHTS.radar}>
      <LazyScoreRadarChart {...props} />
    </DeferredChart>
  );
}
