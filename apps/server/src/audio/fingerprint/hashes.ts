/**
 * Pair hashes of peaks: an anchor and one of the first peaks of its target zone (the next MAX_DT
 * frames, ±MAX_DF log-frequency bins), hashed as the anchor's log-frequency, the log-frequency step
 * and the time step (Wang's landmarks). A pair survives noise when its two peaks do (p², where a
 * triplet needs p³); the verification against the song's peaks (matcher.ts) restores the
 * discrimination that the shorter hash gives up. Log-frequency steps do not change when the pitch
 * moves, and a query's time steps can be rescaled, so one set of query peaks re-hashed under a few
 * warps finds songs played faster or slower.
 */

import { BINS_PER_OCTAVE, HASH_STEPS, MAX_DF, MAX_DT, REFERENCE_TARGETS, type Warp } from './params.js';
import type { Peaks } from './peaks.js';

export interface Hashes {
  /** The hash: 9 bits anchor log-frequency, 7 bits frequency step, 5 bits time step. */
  hash: Int32Array;
  /** Frame of the anchor in the analysed signal (not warped). */
  t: Int32Array;
  count: number;
}

const DF_BIAS = MAX_DF * HASH_STEPS + 1;
const F_LIMIT = 512;
/** Every hash is below this (9 + 7 + 5 bits): the size of the inverted index's bucket table. */
export const HASH_SPACE = F_LIMIT << 12;

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
    let found = 0;
    for (let j = i + 1; j < count && found < targets; j++) {
      const step = t[j]! - t[i]!;
      if (step > zone) break;
      if (step === 0 || Math.abs(f[j]! - f[i]!) > MAX_DF) continue;
      found++;
      const dt = Math.round(step * warp.a);
      if (dt > MAX_DT) continue;
      const df = Math.round((f[j]! - f[i]!) * HASH_STEPS) + DF_BIAS;
      outHash[n] = (((f1 << 7) | df) << 5) | dt;
      outT[n] = t[i]!;
      n++;
    }
  }
  return { hash: outHash.subarray(0, n), t: outT.subarray(0, n), count: n };
}

/**
 * The hashes a reference pair could have where the query's pairs (hashPeaks at no warp, `targets`
 * per anchor) were moved a little by a room: each pair's own hash, and those with the time step a
 * frame shorter and longer, the anchor's log-frequency in the nearer other hash step, and the
 * frequency step rounded the other way (2 × 2 × 3 = 12 a pair), in
 * anchor order as hashPeaks'. A peak that survives reverberation and babble lands within a frame
 * and a bin of its place, but a hash asks the exact frame and half-bin of both peaks: looked up
 * this way, a room's surviving pairs find their reference again (matcher.ts, probeDetections).
 */
export function probeHashes(peaks: Peaks, targets: number): Hashes {
  const { t, f, count } = peaks;
  const zone = MAX_DT / 1.08;
  const outHash = new Int32Array(count * targets * PROBES);
  const outT = new Int32Array(outHash.length);
  let n = 0;
  for (let i = 0; i < count; i++) {
    const x = f[i]! * HASH_STEPS;
    const f1 = Math.floor(x);
    if (f1 < 0 || f1 >= F_LIMIT) continue;
    const f2 = x - f1 >= 0.5 ? f1 + 1 : f1 - 1;
    let found = 0;
    for (let j = i + 1; j < count && found < targets; j++) {
      const step = t[j]! - t[i]!;
      if (step > zone) break;
      if (step === 0 || Math.abs(f[j]! - f[i]!) > MAX_DF) continue;
      found++;
      if (step > MAX_DT) continue;
      const y = (f[j]! - f[i]!) * HASH_STEPS;
      const d1 = Math.round(y);
      const d2 = y - d1 >= 0 ? d1 + 1 : d1 - 1;
      for (const a of [f1, f2]) {
        if (a < 0 || a >= F_LIMIT) continue;
        for (const d of [d1, d2]) {
          if (Math.abs(d) > MAX_DF * HASH_STEPS) continue;
          for (let dt = step - 1; dt <= step + 1; dt++) {
            if (dt < 1 || dt > MAX_DT) continue;
            // (one pair's probes may be another's: votes count an anchor once a key all the same)
            outHash[n] = (((a << 7) | (d + DF_BIAS)) << 5) | dt;
            outT[n] = t[i]!;
            n++;
          }
        }
      }
    }
  }
  return { hash: outHash.subarray(0, n), t: outT.subarray(0, n), count: n };
}

/** Hashes probeHashes looks up a pair by, at most. */
const PROBES = 12;
