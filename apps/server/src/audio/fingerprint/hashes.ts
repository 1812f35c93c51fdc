/**
 * Triplet hashes of peaks: an anchor and two of its next targets in time (within ±MAX_DF
 * log-frequency bins), hashed as the anchor's log-frequency, the two log-frequency steps and the
 * two time steps. Log-frequency steps do not change when the pitch moves, and a query's time
 * steps can be rescaled, so one set of query peaks re-hashed under a few warps finds songs played
 * faster or slower. Triplets (Olaf, Panako) carry 32 bits: a lookup returns few random hits even
 * with a large index.
 */

import { BINS_PER_OCTAVE, FANOUT, MAX_DF, MAX_DT, type Warp } from './params.js';
import type { Peaks } from './peaks.js';

export interface Hashes {
  /** The 32-bit hash, as a signed int (PostgreSQL integer). */
  hash: Int32Array;
  /** Frame of the anchor in the analysed signal (not warped). */
  t: Int32Array;
  count: number;
}

/** Targets are chosen by the unwarped time step, so the choice is the same for every warp. */
const TARGET_ZONE = Math.floor(MAX_DT / 1.1);

/** Hashes of `peaks` as they would have been in the reference if the query was played with `warp`. */
export function hashPeaks(peaks: Peaks, warp: Warp = { a: 1, pitch: false }): Hashes {
  const { t, f, count } = peaks;
  const shift = warp.pitch ? BINS_PER_OCTAVE * Math.log2(warp.a) : 0;
  const outHash = new Int32Array(count * ((FANOUT * (FANOUT - 1)) / 2));
  const outT = new Int32Array(outHash.length);
  const targets = new Int32Array(FANOUT);
  let n = 0;
  for (let i = 0; i < count; i++) {
    const f1 = Math.floor(f[i]! - shift);
    if (f1 < 0 || f1 > 255) continue;
    let found = 0;
    for (let j = i + 1; j < count && found < FANOUT; j++) {
      if (t[j]! - t[i]! > TARGET_ZONE) break;
      if (Math.abs(f[j]! - f[i]!) <= MAX_DF) targets[found++] = j;
    }
    for (let x = 0; x < found; x++) {
      const j = targets[x]!;
      const dt12 = Math.round((t[j]! - t[i]!) * warp.a);
      const df12 = Math.round(f[j]! - f[i]!) + 32;
      for (let y = x + 1; y < found; y++) {
        const k = targets[y]!;
        const dt13 = Math.round((t[k]! - t[i]!) * warp.a);
        if (dt13 > MAX_DT) continue;
        const df13 = Math.round(f[k]! - f[i]!) + 32;
        outHash[n] = (f1 << 24) | (df12 << 18) | (df13 << 12) | (dt12 << 6) | dt13;
        outT[n] = t[i]!;
        n++;
      }
    }
  }
  return { hash: outHash.subarray(0, n), t: outT.subarray(0, n), count: n };
}
