/**
 * Pair hashes of peaks: an anchor and one of the first peaks of its target zone (the next MAX_DT
 * frames, ±MAX_DF log-frequency bins), hashed as the anchor's log-frequency, the log-frequency step
 * and the time step (Wang's landmarks). A pair survives noise when its two peaks do (p², where a
 * triplet needs p³); the verification against the song's peaks (matcher.ts) restores the
 * discrimination that the shorter hash gives up. Log-frequency steps do not change when the pitch
 * moves, and a query's time steps can be rescaled, so one set of query peaks re-hashed under a few
 * warps finds songs played faster or slower. The step is hashed finer where peaks are precise
 * (DF_STEPS, by the anchor's octave): fewer chance hits a lookup, as many true ones.
 */

import {
  BINS_PER_OCTAVE,
  DF_BAND_EDGES,
  DF_STEPS,
  HASH_STEPS,
  MAX_DF,
  MAX_DT,
  MAX_HZ,
  MIN_HZ,
  REFERENCE_TARGETS,
  type Warp,
} from './params.js';
import type { Peaks } from './peaks.js';

export interface Hashes {
  /** The hash: (row of the anchor's frequency + frequency step) × 32 + time step (hashKey). */
  hash: Int32Array;
  /** Frame of the anchor in the analysed signal (not warped). */
  t: Int32Array;
  count: number;
}

/** Anchor frequencies hashed: 1/64-octave units of 200-3600 Hz (and a margin for interpolation). */
export const F_LIMIT = Math.ceil(HASH_STEPS * BINS_PER_OCTAVE * Math.log2(MAX_HZ / MIN_HZ)) + 2;

/**
 * Per anchor frequency unit: the resolution of its frequency steps (DF_STEPS by band) and the
 * first row of its steps. A hash is a row (anchor frequency and frequency step, the step's range
 * as wide as its resolution makes it) times 32 plus the time step: no value is left unused.
 */
const dfSteps = new Int32Array(F_LIMIT);
const rowBase = new Int32Array(F_LIMIT + 1);
for (let f1 = 0; f1 < F_LIMIT; f1++) {
  let band = 0;
  while (band < DF_BAND_EDGES.length && f1 >= DF_BAND_EDGES[band]!) band++;
  dfSteps[f1] = DF_STEPS[band]!;
  rowBase[f1 + 1] = rowBase[f1]! + 2 * MAX_DF * dfSteps[f1]! + 1;
}

/** Every hash is below this (rows × 32): the size of the inverted index's bucket table (2.3 M). */
export const HASH_SPACE = rowBase[F_LIMIT]! * 32;

/**
 * The hash of a pair: anchor frequency unit `f1` (0 ≤ f1 < F_LIMIT), frequency step `df` in peak
 * bins (|df| ≤ MAX_DF), time step `dt` in frames (1 ≤ dt ≤ MAX_DT).
 */
export function hashKey(f1: number, df: number, dt: number): number {
  const steps = dfSteps[f1]!;
  return ((rowBase[f1]! + Math.round(df * steps) + MAX_DF * steps) << 5) | dt;
}

/**
 * Hashes of `peaks` as they would have been in the reference if the query was played with `warp`.
 * `targets` per anchor: REFERENCE_TARGETS for the index, QUERY_TARGETS (a superset) for a query.
 */
export function hashPeaks(
  peaks: Peaks,
  warp: Warp = { a: 1, pitch: false },
  targets: number = REFERENCE_TARGETS,
): Hashes {
  const { t, f, count } = peaks;
  const shift = warp.pitch ? BINS_PER_OCTAVE * Math.log2(warp.a) : 0;
  // Targets are chosen by the unwarped time step, so the choice is the same for every warp.
  const zone = MAX_DT / 1.08;
  const outHash = new Int32Array(count * targets);
  const outT = new Int32Array(outHash.length);
  let n = 0;
  for (let i = 0; i < count; i++) {
    const f1 = Math.floor((f[i]! - shift) * HASH_STEPS);
    if (f1 < 0 || f1 >= F_LIMIT) continue;
    const steps = dfSteps[f1]!;
    const row = rowBase[f1]! + MAX_DF * steps;
    let found = 0;
    for (let j = i + 1; j < count && found < targets; j++) {
      const step = t[j]! - t[i]!;
      if (step > zone) break;
      if (step === 0 || Math.abs(f[j]! - f[i]!) > MAX_DF) continue;
      found++;
      const dt = Math.round(step * warp.a);
      if (dt > MAX_DT) continue;
      // (hashKey, inline)
      outHash[n] = ((row + Math.round((f[j]! - f[i]!) * steps)) << 5) | dt;
      outT[n] = t[i]!;
      n++;
    }
  }
  return { hash: outHash.subarray(0, n), t: outT.subarray(0, n), count: n };
}
