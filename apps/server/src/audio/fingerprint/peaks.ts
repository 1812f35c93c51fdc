/**
 * Spectral peaks ("landmarks") of a mono signal: the STFT's log magnitude, whitened by its mean
 * level at each frequency (so equalisation and gain do not move peaks; see Whitening), local
 * maxima of a time-frequency neighbourhood, kept when few stronger ones lie near them in time (a
 * sliding rank: the density does not depend on loudness or noise, and the choice does not depend
 * on where the signal starts). Each peak has an integer frame and a fractional log-frequency
 * (parabolic interpolation), which is what lets the matcher warp queries for speed changes.
 */
import FFT from 'fft.js';
import {
  BINS_PER_OCTAVE,
  FFT_SIZE,
  HOP,
  MAX_HZ,
  MIN_HZ,
  PEAK_FREQ_RADIUS,
  PEAK_TIME_RADIUS,
  RANK_RADIUS,
  REFERENCE_PEAKS,
  SAMPLE_RATE,
  WHITEN_SPAN,
} from './params.js';

export interface Peaks {
  /** Frame of each peak, ascending. */
  t: Int32Array;
  /** Log-frequency of each peak: BINS_PER_OCTAVE × log2(hz / MIN_HZ). */
  f: Float32Array;
  count: number;
  /** Frames in the analysed signal. */
  frames: number;
  /** Stronger peaks within ±RANK_RADIUS frames of each (its rank; kept when under the density). */
  rank: Uint8Array;
}

/** The peaks of a denser set that a smaller density keeps (the same as extracting at it). */
export function keepDensity(peaks: Peaks, density: number): Peaks {
  const t: number[] = [];
  const f: number[] = [];
  const rank: number[] = [];
  for (let i = 0; i < peaks.count; i++) {
    if (peaks.rank[i]! >= density) continue;
    t.push(peaks.t[i]!);
    f.push(peaks.f[i]!);
    rank.push(peaks.rank[i]!);
  }
  return {
    t: Int32Array.from(t),
    f: Float32Array.from(f),
    count: t.length,
    frames: peaks.frames,
    rank: Uint8Array.from(rank),
  };
}

const BIN_HZ = SAMPLE_RATE / FFT_SIZE;
const K_LO = Math.ceil(MIN_HZ / BIN_HZ);
const K_HI = Math.floor(MAX_HZ / BIN_HZ);
const BINS = K_HI - K_LO + 1;

/** The bins [lo, hi] each bin's whitening level is averaged over: ±WHITEN_SPAN of its frequency. */
const SPAN_LO = new Int32Array(BINS);
const SPAN_HI = new Int32Array(BINS);
for (let b = 0; b < BINS; b++) {
  const r = Math.max(2, Math.round(WHITEN_SPAN * (K_LO + b)));
  SPAN_LO[b] = Math.max(0, b - r);
  SPAN_HI[b] = Math.min(BINS - 1, b + r);
}

interface Spectrogram {
  data: Float32Array;
  frames: number;
  /** Sum over the frames of each bin, and over the bins of each frame. */
  binSum: Float64Array;
  frameSum: Float64Array;
}

let fft: FFT | undefined;
let window: Float64Array | undefined;

/**
 * Whether no value of the neighbourhood of (frame, bin), ±PEAK_TIME_RADIUS frames and
 * ±PEAK_FREQ_RADIUS bins clipped to the spectrogram, is above `value`. Rows are read from the
 * frame outwards and most cells meet a larger neighbour within a few reads.
 */
function isLocalMax(score: Float32Array, frames: number, frame: number, bin: number, value: number): boolean {
  const b0 = Math.max(0, bin - PEAK_FREQ_RADIUS);
  const b1 = Math.min(BINS - 1, bin + PEAK_FREQ_RADIUS);
  for (let d = 0; d <= 2 * PEAK_TIME_RADIUS; d++) {
    // frame, +1, -1, +2, -2, ...
    const x = frame + (d & 1 ? (d + 1) >> 1 : -(d >> 1));
    if (x < 0 || x >= frames) continue;
    const row = x * BINS;
    for (let k = b0; k <= b1; k++) if (score[row + k]! > value) return false;
  }
  return true;
}

/**
 * Log-magnitude spectrogram (frames × BINS, row-major) of the band MIN_HZ..MAX_HZ, with the sums
 * of its columns (bins) and rows (frames) that whitening needs.
 */
export function spectrogram(samples: Float32Array): Spectrogram {
  fft ??= new FFT(FFT_SIZE);
  if (!window) {
    window = new Float64Array(FFT_SIZE);
    for (let i = 0; i < FFT_SIZE; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FFT_SIZE);
  }
  const frames = samples.length < FFT_SIZE ? 0 : Math.floor((samples.length - FFT_SIZE) / HOP) + 1;
  const data = new Float32Array(frames * BINS);
  const binSum = new Float64Array(BINS);
  const frameSum = new Float64Array(frames);
  const input = new Float64Array(FFT_SIZE);
  const out = new Float64Array(FFT_SIZE * 2);
  // A floor 70 dB under the signal's mean power per bin, relative so that a gain changes nothing:
  // near-silent bins (between a pure tone's harmonics, digital silence) are flat, not noise.
  let energy = 0;
  for (let i = 0; i < samples.length; i++) energy += samples[i]! * samples[i]!;
  const floor = Math.max(1e-30, (energy / Math.max(1, samples.length)) * FFT_SIZE * 1e-7);
  for (let frame = 0; frame < frames; frame++) {
    const start = frame * HOP;
    for (let i = 0; i < FFT_SIZE; i++) input[i] = samples[start + i]! * window[i]!;
    fft.realTransform(out, input);
    const row = frame * BINS;
    let sum = 0;
    for (let k = K_LO; k <= K_HI; k++) {
      const re = out[2 * k]!;
      const im = out[2 * k + 1]!;
      const value = Math.fround(0.5 * Math.log(re * re + im * im + floor));
      data[row + k - K_LO] = value;
      binSum[k - K_LO]! += value;
      sum += value;
    }
    frameSum[frame] = sum;
  }
  return { data, frames, binSum, frameSum };
}

/**
 * How a spectrogram is whitened before its peaks are picked: each bin's mean log magnitude over the
 * signal is subtracted, either its own ('bin') or averaged over ±WHITEN_SPAN of its frequency
 * ('band'). Both take out a gain and an equaliser. 'bin' also flattens a narrow sustained tone (a
 * drone, a pad, a held chord) into the noise around it; 'band' keeps it as peaks. The hashes use
 * 'bin' peaks: sustained tones make common pairs, which would fill the index's buckets and slow
 * every lookup. Verification uses 'band' peaks: a held tone that survives the crowd is evidence.
 */
export type Whitening = 'bin' | 'band';

/**
 * The peaks of a signal at SAMPLE_RATE: local maxima with fewer than `density` stronger ones within
 * ±RANK_RADIUS frames (REFERENCE_PEAKS for the index, QUERY_PEAKS for a query). Memory: the
 * spectrogram (whitened in place) and the local maxima, about 8 MB per minute of signal.
 */
export function extractPeaks(
  samples: Float32Array,
  density: number = REFERENCE_PEAKS,
  whitening: Whitening = 'bin',
): Peaks {
  const spec = spectrogram(samples);
  return peaksOf(spec, spec.data, density, whitening);
}

/**
 * The peaks the engine hashes ('bin' whitening, at `hashDensity`) and those it verifies ('band'
 * whitening, at `verifyDensity`), from one spectrogram.
 */
export function extractPeakSets(
  samples: Float32Array,
  hashDensity: number,
  verifyDensity: number,
): { hashed: Peaks; verified: Peaks } {
  const spec = spectrogram(samples);
  // 'band' first, into an array of its own: 'bin' then whitens the spectrogram in place.
  const verified = peaksOf(spec, new Float32Array(spec.data.length), verifyDensity, 'band');
  return { hashed: peaksOf(spec, spec.data, hashDensity, 'bin'), verified };
}

/** The peaks of a spectrogram, whitened into `white` (its own data, or an array of its size). */
function peaksOf(spec: Spectrogram, white: Float32Array, density: number, whitening: Whitening): Peaks {
  const { data, frames, binSum, frameSum } = spec;
  if (frames === 0)
    return { t: new Int32Array(0), f: new Float32Array(0), count: 0, frames, rank: new Uint8Array(0) };
  // Whitening: each bin's mean over the signal, then (for 'band') its average over the bins
  // within ±WHITEN_SPAN of its frequency.
  const mean = new Float64Array(BINS);
  if (whitening === 'bin') for (let b = 0; b < BINS; b++) mean[b] = binSum[b]! / frames;
  else {
    const cumulative = new Float64Array(BINS + 1);
    for (let b = 0; b < BINS; b++) cumulative[b + 1] = cumulative[b]! + binSum[b]! / frames;
    for (let b = 0; b < BINS; b++)
      mean[b] = (cumulative[SPAN_HI[b]! + 1]! - cumulative[SPAN_LO[b]!]!) / (SPAN_HI[b]! - SPAN_LO[b]! + 1);
  }
  let meanSum = 0;
  for (let b = 0; b < BINS; b++) meanSum += mean[b]!;
  // Then each frame's mean: a gain that varies in time (a compressor, a phone's automatic gain,
  // a DJ's fader) becomes a no-op too; peaks are what stands out of its own moment's spectrum.
  for (let frame = 0; frame < frames; frame++) {
    const row = frame * BINS;
    const m = (frameSum[frame]! - meanSum) / BINS;
    for (let b = 0; b < BINS; b++) white[row + b] = data[row + b]! - (mean[b]! + m);
  }
  const score = white;
  // Local maxima in time order: frame, bin and whitened value. Edge bins cannot be interpolated;
  // a peak there is the band limit, not the music.
  const candFrame: number[] = [];
  const candBin: number[] = [];
  const candValue: number[] = [];
  for (let frame = 0; frame < frames; frame++) {
    const row = frame * BINS;
    for (let b = 1; b < BINS - 1; b++) {
      const value = score[row + b]!;
      // (the nearest cells first, inline: most cells are rejected by one of them)
      if (
        value > 0 &&
        value > score[row + b - 1]! &&
        !(score[row + b + 1]! > value) &&
        !(frame > 0 && score[row - BINS + b]! > value) &&
        !(frame + 1 < frames && score[row + BINS + b]! > value) &&
        isLocalMax(score, frames, frame, b, value)
      ) {
        candFrame.push(frame);
        candBin.push(b);
        candValue.push(value);
      }
    }
  }
  // Sliding rank: kept when fewer than `density` maxima within ±RANK_RADIUS frames are stronger
  // (ties broken by time then bin, so equal values cannot both be dropped or both kept by chance).
  const outT: number[] = [];
  const outF: number[] = [];
  const outRank: number[] = [];
  let from = 0;
  let to = 0;
  const total = candFrame.length;
  for (let i = 0; i < total; i++) {
    const frame = candFrame[i]!;
    const value = candValue[i]!;
    while (candFrame[from]! < frame - RANK_RADIUS) from++;
    while (to < total && candFrame[to]! <= frame + RANK_RADIUS) to++;
    let stronger = 0;
    for (let j = from; j < to && stronger < density; j++) {
      const other = candValue[j]!;
      if (other > value || (other === value && j < i)) stronger++;
    }
    if (stronger >= density) continue;
    const bin = candBin[i]!;
    const row = frame * BINS + bin;
    // Parabolic interpolation of the raw log magnitude (whitened + the bin's mean).
    const l = white[row - 1]! + mean[bin - 1]!;
    const c = white[row]! + mean[bin]!;
    const r = white[row + 1]! + mean[bin + 1]!;
    // (the frame's mean is common to the three and cancels out of the vertex)
    const denom = l - 2 * c + r;
    const delta = denom < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (l - r)) / denom)) : 0;
    const hz = (K_LO + bin + delta) * BIN_HZ;
    outT.push(frame);
    outF.push(BINS_PER_OCTAVE * Math.log2(hz / MIN_HZ));
    outRank.push(stronger);
  }
  return {
    t: Int32Array.from(outT),
    f: Float32Array.from(outF),
    count: outT.length,
    frames,
    rank: Uint8Array.from(outRank),
  };
}
