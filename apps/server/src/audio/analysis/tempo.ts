/**
 * Tempo from the onset strength envelope. The envelope's autocorrelation is scored with a comb of
 * beat multiples (a tempo whose 1, 2, 3, 4 beat lags all repeat the pattern scores high), then a
 * prior for West Coast Swing (most songs 70-135 BPM) settles between metrical levels, and the
 * winner is refined on a fine grid with 8 beat multiples (one-decimal precision).
 */
import { autocorrelation } from './stft.js';

/** Range of tempi considered at all, and the WCS range the prior favours. */
export const TEMPO_MIN_BPM = 50;
export const TEMPO_MAX_BPM = 220;
export const TEMPO_FOLD_LOW = 70;
export const TEMPO_FOLD_HIGH = 135;
/**
 * Below this rhythm regularity there is no pulse to speak of and the tempo is null: white noise
 * measures 0.01, sustained chords changing every 2 s 0.17, the benchmark's songs 0.31-0.89.
 */
export const MIN_RHYTHM_REGULARITY = 0.1;

export interface TempoEstimate {
  bpm: number | null;
  /** 0-1: how far the chosen tempo's salience stands above a typical tempo's. */
  confidence: number;
  /** 0-1: mean normalised autocorrelation at 1..8 beats (how steadily the pattern repeats). */
  regularity: number;
}

/** Linear interpolation of `acf` at a fractional lag (0 past the end). */
function at(acf: Float64Array, lag: number): number {
  const i = Math.floor(lag);
  if (i + 1 >= acf.length) return 0;
  const frac = lag - i;
  return acf[i]! * (1 - frac) + acf[i + 1]! * frac;
}

/** Mean autocorrelation at multiples 1..count of the beat period of `bpm`. */
function comb(acf: Float64Array, fps: number, bpm: number, count: number): number {
  const period = (60 * fps) / bpm;
  let sum = 0;
  for (let k = 1; k <= count; k++) sum += at(acf, k * period);
  return sum / count;
}

/**
 * The WCS tempo prior: flat over 70-135 BPM, falling off (log-Gaussian) outside it, gently below
 * (slow blues at 60-70 exists: 65 BPM keeps 0.78) and steeply above (a 70 BPM song must not turn
 * into 140: 140 keeps 0.81, 150 keeps 0.17), so the octave inside the range wins.
 */
function prior(bpm: number): number {
  if (bpm >= TEMPO_FOLD_LOW && bpm <= TEMPO_FOLD_HIGH) return 1;
  const slow = bpm < TEMPO_FOLD_LOW;
  const octaves = Math.log2(bpm / (slow ? TEMPO_FOLD_LOW : TEMPO_FOLD_HIGH));
  return Math.exp(-0.5 * (octaves / (slow ? 0.15 : 0.08)) ** 2);
}

/** The comb salience peak within ±`span` (a fraction) of `bpm`, scanned in `step` BPM steps. */
function peakNear(acf: Float64Array, fps: number, bpm: number, span: number, step: number, count: number) {
  let found = { bpm, salience: -Infinity };
  for (let candidate = bpm * (1 - span); candidate <= bpm * (1 + span); candidate += step) {
    const salience = comb(acf, fps, candidate, count);
    if (salience > found.salience) found = { bpm: candidate, salience };
  }
  return found;
}

/** The envelope minus its ≈1 s running mean, half-wave rectified, then centred. */
function prepare(onset: Float64Array, fps: number): Float64Array {
  const n = onset.length;
  const half = Math.max(1, Math.round(fps * 0.5));
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + onset[i]!;
  const out = new Float64Array(n);
  let mean = 0;
  for (let i = 0; i < n; i++) {
    const from = Math.max(0, i - half);
    const to = Math.min(n, i + half + 1);
    const local = (prefix[to]! - prefix[from]!) / (to - from);
    out[i] = Math.max(0, onset[i]! - local);
    mean += out[i]!;
  }
  mean /= n;
  for (let i = 0; i < n; i++) out[i] = out[i]! - mean;
  return out;
}

export function estimateTempo(onset: Float64Array, fps: number): TempoEstimate {
  const none: TempoEstimate = { bpm: null, confidence: 0, regularity: 0 };
  // Below 8 beats at the slowest tempo there is nothing to measure.
  if (onset.length < (8 * 60 * fps) / TEMPO_MAX_BPM) return none;
  const envelope = prepare(onset, fps);
  const maxLag = Math.ceil((8 * 60 * fps) / TEMPO_MIN_BPM) + 2;
  const acf = autocorrelation(envelope, maxLag);
  const zero = acf[0]!;
  if (!(zero > 1e-12)) return none;
  for (let i = 0; i < acf.length; i++) acf[i] = acf[i]! / zero;

  // Coarse scan: comb salience of every tempo on a 0.5 BPM grid.
  const grid: { bpm: number; salience: number }[] = [];
  for (let bpm = TEMPO_MIN_BPM; bpm <= TEMPO_MAX_BPM; bpm += 0.5) {
    grid.push({ bpm, salience: comb(acf, fps, bpm, 4) });
  }
  let best = grid[0]!;
  let bestScore = -Infinity;
  for (const point of grid) {
    const score = Math.max(0, point.salience) * prior(point.bpm);
    if (score > bestScore) {
      bestScore = score;
      best = point;
    }
  }
  const chosen = best.bpm;
  // Fine: ±1% around the choice in 0.02 BPM steps, 8 beat multiples for precision.
  const fine = peakNear(acf, fps, chosen, 0.01, 0.02, 8);
  const refined = fine.bpm;
  const refinedSalience = fine.salience;
  const regularity = Math.min(1, Math.max(0, refinedSalience));
  // How far the winner's salience stands above a typical tempo's (the grid's median), on the
  // scale left above that median: 1 for a click track, near 0 for noise.
  const sorted = grid.map((point) => point.salience).sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const confidence = median < 1 ? Math.min(1, Math.max(0, (best.salience - median) / (1 - median))) : 0;
  if (regularity < MIN_RHYTHM_REGULARITY) return { bpm: null, confidence, regularity };
  return { bpm: Math.round(refined * 10) / 10, confidence, regularity };
}
