/** A y axis: the range it spans and the values of its ticks, lowest first. */
export interface ValueScale {
  min: number;
  max: number;
  ticks: number[];
}

/** 1, 2, 2.5 or 5 times a power of ten: the smallest at least `rough`. */
function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

/** A nice step between whole ticks (BPM, percent): at least 1, never 2.5. */
function wholeStep(rough: number): number {
  if (!(rough > 1)) return 1;
  const step = niceStep(rough);
  return Number.isInteger(step) ? step : niceStep(step * (1 + 1e-9));
}

/**
 * Whole-number ticks for values from `low` to `high`, about `count` of them, on an axis that starts
 * and ends on a tick: 94.3 to 104.8 gives 90, 95, 100, 105. With `fixed` (e.g. [0, 100] for
 * percent) the axis spans exactly that range: 0, 25, 50, 75, 100.
 */
export function valueScale(low: number, high: number, fixed?: [number, number], count = 5): ValueScale {
  const intervals = Math.max(1, count - 1);
  if (fixed) {
    const [min, max] = fixed;
    const step = wholeStep((max - min) / intervals);
    return { min, max, ticks: stepsFrom(Math.ceil(min / step) * step, max, step) };
  }
  const step = wholeStep((high - low) / intervals);
  let min = Math.floor(low / step) * step;
  let max = Math.ceil(high / step) * step;
  if (min === max) {
    min -= step;
    max += step;
  }
  return { min, max, ticks: stepsFrom(min, max, step) };
}

/** from, from + step, ... up to `to`: counted in steps, so no rounding error adds up. */
function stepsFrom(from: number, to: number, step: number): number[] {
  const ticks: number[] = [];
  for (let index = 0; from + index * step <= to; index++) ticks.push(from + index * step);
  return ticks;
}
