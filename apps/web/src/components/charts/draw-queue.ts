/**
 * Charts draw one at a time, each in a task of its own: drawing a Recharts chart blocks the main
 * thread for one long task (its store updates re-render synchronously), and several charts drawn
 * in one task add up to one much longer one. A chart waits for its turn, draws, reports when its
 * first render is committed, and the next one starts in a later task (when the browser is idle).
 */
export interface DrawQueue {
  /**
   * Asks for a turn: `draw` is called when it comes. Returns `release`, called once the chart has
   * drawn (or when it goes away, drawn or not): it frees the turn for the next chart.
   */
  request(draw: () => void): () => void;
}

/** Runs a task later, in a task of its own. */
export type Scheduler = (task: () => void) => void;

export function createDrawQueue(schedule: Scheduler): DrawQueue {
  const waiting: Array<{ draw: () => void }> = [];
  /** The chart drawing now (between its turn and its release); null when none. */
  let current: { draw: () => void } | null = null;
  let isScheduled = false;

  const next = () => {
    if (current !== null || isScheduled || waiting.length === 0) return;
    isScheduled = true;
    schedule(() => {
      isScheduled = false;
      if (current !== null) return;
      const entry = waiting.shift();
      if (!entry) return;
      current = entry;
      entry.draw();
    });
  };

  return {
    request(draw) {
      const entry = { draw };
      waiting.push(entry);
      next();
      let isReleased = false;
      return () => {
        if (isReleased) return;
        isReleased = true;
        const index = waiting.indexOf(entry);
        if (index !== -1) waiting.splice(index, 1);
        if (current === entry) current = null;
        next();
      };
    },
  };
}

/**
 * The browser's idle callback (at the latest after `timeoutMs`, so charts draw on a busy page too),
 * or a plain timer where there is none (Safari).
 */
export function idleScheduler(timeoutMs: number): Scheduler {
  return (task) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => task(), { timeout: timeoutMs });
    else setTimeout(task, 0);
  };
}
