/**
 * A summary folded in the background of every process, every `intervalMs`: `needed` says whether
 * there is anything to fold, `fold` folds it. One tick at a time per process; a failed fold is
 * logged and retried at the next tick (the summaries it serves stay exact without it:
 * analytics/play-summary.ts, song-counts.ts). Returns the function that stops it and waits for
 * the fold under way.
 */
export function startPeriodicFold(options: {
  /** Named in the log line of a failed fold ("Play summary"). */
  name: string;
  intervalMs: number;
  log: (message: string) => void;
  needed: () => Promise<boolean>;
  fold: () => Promise<unknown>;
}): () => Promise<void> {
  const { name, intervalMs, log, needed, fold } = options;
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = (async () => {
      try {
        if (await needed()) await fold();
      } catch (error) {
        if (!stopped) log(`${name} fold failed (retried in ${intervalMs} ms): ${(error as Error).message}`);
      } finally {
        running = undefined;
      }
    })();
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
