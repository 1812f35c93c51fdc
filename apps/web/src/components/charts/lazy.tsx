import {
  type ComponentType,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';
import { CHART_HEIGHTS } from './chart-sizes';
import type { CountBarChartProps } from './count-bar-chart';
import { createDrawQueue, idleScheduler } from './draw-queue';
import type { LineSeriesChartProps } from './line-series-chart';
import type { ScoreRadarChartProps } from './score-radar-chart';
import type { SharePieChartProps } from './share-pie-chart';

/**
 * The charts as screens use them: Recharts (about 85 KB compressed, and the heaviest rendering of
 * the app) is fetched only when a chart is about to be seen, and each chart draws only once its
 * place comes near the viewport, one chart per task in idle time (draw-queue.ts). Until then a
 * still placeholder of the chart's exact height holds its place, so nothing moves when it appears.
 * The numbers and tables of a screen paint first.
 */
function lazyChart<Props>(load: () => Promise<ComponentType<Props>>) {
  let loading: Promise<ComponentType<Props>> | null = null;
  const preload = () => {
    loading ??= load();
    return loading;
  };
  return { preload, Chart: lazy(() => preload().then((Chart) => ({ default: Chart }))) };
}

const lineSeries = lazyChart(() => import('./line-series-chart').then((module) => module.LineSeriesChart));
const countBar = lazyChart(() => import('./count-bar-chart').then((module) => module.CountBarChart));
const sharePie = lazyChart(() => import('./share-pie-chart').then((module) => module.SharePieChart));
const scoreRadar = lazyChart(() => import('./score-radar-chart').then((module) => module.ScoreRadarChart));

/** How far below (or above) the viewport a chart starts drawing: half a screen ahead. */
const DRAW_AHEAD_MARGIN = '50% 0px';
/** A chart waits for an idle moment at most this long once it is its turn. */
const IDLE_TIMEOUT_MS = 1000;

const drawQueue = createDrawQueue(idleScheduler(IDLE_TIMEOUT_MS));

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

/**
 * Once `isWanted`, waits for the chart's turn in the draw queue; true from then on. `release` frees
 * the turn (called when the chart has drawn, and when the component goes away).
 */
function useTurnToDraw(isWanted: boolean): { isTurn: boolean; release: () => void } {
  const [isTurn, setIsTurn] = useState(false);
  const releaseRef = useRef<() => void>(() => {});
  useEffect(() => {
    if (!isWanted) return;
    const release = drawQueue.request(() => setIsTurn(true));
    releaseRef.current = release;
    return release;
  }, [isWanted]);
  const release = useCallback(() => releaseRef.current(), []);
  return { isTurn, release };
}

/** Mounted with the drawn chart (inside its Suspense boundary): tells the queue it has drawn. */
function DrawnSignal({ onDrawn }: { onDrawn: () => void }) {
  useEffect(() => onDrawn(), [onDrawn]);
  return null;
}

function DeferredChart({
  height,
  preload,
  children,
}: {
  height: number;
  preload: () => Promise<unknown>;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const hasComeNear = useHasComeNear(ref);
  const { isTurn, release } = useTurnToDraw(hasComeNear);
  useEffect(() => {
    // The code downloads while the chart waits for its turn.
    if (hasComeNear) preload().catch(() => {});
  }, [hasComeNear, preload]);
  // Still, not daisyUI's animated skeleton: its shimmer repaints every frame while charts wait.
  const placeholder = (
    <div style={{ height }}>
      <div className="h-full w-full rounded-box bg-base-300 opacity-40" />
    </div>
  );
  // w-full: in a flex box (daisyUI makes a card's <figure> one) the chart would shrink to 100 px.
  return (
    <div ref={ref} style={{ minHeight: height }} className="flex w-full flex-col">
      {isTurn ? (
        <Suspense fallback={placeholder}>
          {children}
          <DrawnSignal onDrawn={release} />
        </Suspense>
      ) : (
        placeholder
      )}
    </div>
  );
}

export function LineSeriesChart(props: LineSeriesChartProps) {
  return (
    <DeferredChart height={props.height ?? CHART_HEIGHTS.line} preload={lineSeries.preload}>
      <lineSeries.Chart {...props} />
    </DeferredChart>
  );
}

export function CountBarChart(props: CountBarChartProps) {
  return (
    <DeferredChart height={props.height ?? CHART_HEIGHTS.bar} preload={countBar.preload}>
      <countBar.Chart {...props} />
    </DeferredChart>
  );
}

export function SharePieChart(props: SharePieChartProps) {
  return (
    <DeferredChart height={props.height ?? CHART_HEIGHTS.pie} preload={sharePie.preload}>
      <sharePie.Chart {...props} />
    </DeferredChart>
  );
}

export function ScoreRadarChart(props: ScoreRadarChartProps) {
  return (
    <DeferredChart height={props.height ?? CHART_HEIGHTS.radar} preload={scoreRadar.preload}>
      <scoreRadar.Chart {...props} />
    </DeferredChart>
  );
}
