/**
 * Integrated loudness of the mono signal, after ITU-R BS.1770 / EBU R128: K-weighting (the
 * standard's two biquads, their coefficients derived for any sample rate as libebur128 does),
 * mean square over 400 ms blocks every 100 ms, an absolute gate at −70 and a relative gate 10 LU
 * under the ungated level. In LUFS of the mono downmix (a stereo file with identical channels
 * reads about 3 LU lower than a meter summing both channels would).
 */

/** What silence reports instead of −∞ (JSON has no infinity). */
export const LOUDNESS_FLOOR_DB = -100;

/** Mean square of the K-weighted signal per consecutive `step` samples (no copy of the signal). */
function kWeightedStepMeans(samples: Float32Array, sampleRate: number, step: number): Float64Array {
  // Stage 1: high shelf (+4 dB above ≈1.7 kHz).
  let f0 = 1681.974450955533;
  const gain = 3.999843853973347;
  let q = 0.7071752369554196;
  let k = Math.tan((Math.PI * f0) / sampleRate);
  const vh = 10 ** (gain / 20);
  const vb = vh ** 0.4996667741545416;
  let a0 = 1 + k / q + k * k;
  const b0 = (vh + (vb * k) / q + k * k) / a0;
  const b1 = (2 * (k * k - vh)) / a0;
  const b2 = (vh - (vb * k) / q + k * k) / a0;
  const a1 = (2 * (k * k - 1)) / a0;
  const a2 = (1 - k / q + k * k) / a0;
  // Stage 2: high pass (RLB, ≈38 Hz).
  f0 = 38.13547087602444;
  q = 0.5003270373238773;
  k = Math.tan((Math.PI * f0) / sampleRate);
  a0 = 1 + k / q + k * k;
  const c1 = (2 * (k * k - 1)) / a0;
  const c2 = (1 - k / q + k * k) / a0;
  const means = new Float64Array(Math.ceil(samples.length / step));
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  let z1 = 0;
  let z2 = 0;
  for (let s = 0; s < means.length; s++) {
    const start = s * step;
    const end = Math.min(samples.length, start + step);
    let sum = 0;
    for (let i = start; i < end; i++) {
      const x = samples[i]!;
      const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      const z = y - 2 * y1 + y2 - c1 * z1 - c2 * z2;
      y2 = y1;
      y1 = y;
      z2 = z1;
      z1 = z;
      sum += z * z;
    }
    means[s] = sum / (end - start);
  }
  return means;
}

/** Integrated loudness in LUFS, or LOUDNESS_FLOOR_DB when every block is under the −70 gate. */
export function integratedLoudness(samples: Float32Array, sampleRate: number): number {
  // Mean square per 100 ms step; a 400 ms block (75 % overlap) is four consecutive steps.
  const steps = kWeightedStepMeans(samples, sampleRate, Math.max(1, Math.round(sampleRate * 0.1)));
  const blocks: number[] = [];
  if (steps.length < 4) {
    if (steps.length > 0) blocks.push(steps.reduce((s, v) => s + v, 0) / steps.length);
  } else {
    for (let i = 0; i + 4 <= steps.length; i++) {
      blocks.push((steps[i]! + steps[i + 1]! + steps[i + 2]! + steps[i + 3]!) / 4);
    }
  }
  const lufs = (meanSquare: number) => -0.691 + 10 * Math.log10(meanSquare);
  const absolute = blocks.filter((ms) => ms > 0 && lufs(ms) > -70);
  if (absolute.length === 0) return LOUDNESS_FLOOR_DB;
  const ungated = absolute.reduce((s, v) => s + v, 0) / absolute.length;
  const relative = absolute.filter((ms) => lufs(ms) > lufs(ungated) - 10);
  const gated = relative.reduce((s, v) => s + v, 0) / relative.length;
  return Math.max(LOUDNESS_FLOOR_DB, lufs(gated));
}
