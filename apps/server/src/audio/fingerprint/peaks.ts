/**
 * Spectral peaks ("landmarks") of a mono signal: the STFT's log magnitude, whitened per frequency
 * bin (so equalisation and gain do not move peaks), local maxima of a time-frequency neighbourhood,
 * and a fixed number of the strongest per block of frames (so density does not depend on loudness
 * or noise). Each peak has an integer frame and a fractional log-frequency (parabolic interpolation),
 * which is what lets the matcher warp queries for speed changes.
 */
import FFT from 'fft.js';
import {
  BINS_PER_OCTAVE,
  FFT_SIZE,
  HOP,
  MAX_HZ,
  MIN_HZ,
  PEAK_BLOCK_FRAMES,
  PEAK_FREQ_RADIUS,
  PEAK_TIME_RADIUS,
  PEAKS_PER_BLOCK,
  SAMPLE_RATE,
} from './params.js';

export interface Peaks {
  /** Frame of each peak, ascending. */
  t: Int32Array;
  /** Log-frequency of each peak: BINS_PER_OCTAVE × log2(hz / MIN_HZ). */
  f: Float32Array;
  count: number;
  /** Frames in the analysed signal. */
  frames: number;
}

const BIN_HZ = SAMPLE_RATE / FFT_SIZE;
const K_LO = Math.ceil(MIN_HZ / BIN_HZ);
const K_HI = Math.floor(MAX_HZ / BIN_HZ);
const BINS = K_HI - K_LO + 1;

let fft: FFT | undefined;
let window: Float64Array | undefined;

/** Sliding maximum of radius r over n values read with a stride (monotonic deque, O(n)). */
function slidingMax(
  src: Float32Array,
  base: number,
  stride: number,
  n: number,
  r: number,
  dst: Float32Array,
  deque: Int32Array,
): void {
  let head = 0;
  let tail = 0;
  let next = 0;
  for (let i = 0; i < n; i++) {
    const hi = Math.min(n - 1, i + r);
    while (next <= hi) {
      const v = src[base + next * stride]!;
      while (tail > head && src[base + deque[tail - 1]! * stride]! <= v) tail--;
      deque[tail++] = next++;
    }
    while (deque[head]! < i - r) head++;
    dst[base + i * stride] = src[base + deque[head]! * stride]!;
  }
}

/** Log-magnitude spectrogram (frames × BINS, row-major) of the band MIN_HZ..MAX_HZ. */
export function spectrogram(samples: Float32Array): { data: Float32Array; frames: number } {
  fft ??= new FFT(FFT_SIZE);
  if (!window) {
    window = new Float64Array(FFT_SIZE);
    for (let i = 0; i < FFT_SIZE; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FFT_SIZE);
  }
  const frames = samples.length < FFT_SIZE ? 0 : Math.floor((samples.length - FFT_SIZE) / HOP) + 1;
  const data = new Float32Array(frames * BINS);
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
    for (let k = K_LO; k <= K_HI; k++) {
      const re = out[2 * k]!;
      const im = out[2 * k + 1]!;
      data[row + k - K_LO] = 0.5 * Math.log(re * re + im * im + floor);
    }
  }
  return { data, frames };
}

/**
 * The peaks of a signal at SAMPLE_RATE. Memory: the spectrogram (whitened in place) plus buffers
 * of one block, about 7 MB per minute of signal.
 */
export function extractPeaks(samples: Float32Array): Peaks {
  const { data: white, frames } = spectrogram(samples);
  if (frames === 0) return { t: new Int32Array(0), f: new Float32Array(0), count: 0, frames };
  // Whitening: subtract each bin's mean over the signal (a fixed EQ or gain becomes a no-op).
  const mean = new Float64Array(BINS);
  for (let frame = 0; frame < frames; frame++) {
    const row = frame * BINS;
    for (let b = 0; b < BINS; b++) mean[b]! += white[row + b]!;
  }
  for (let b = 0; b < BINS; b++) mean[b]! /= frames;
  // Then each frame's mean: a gain that varies in time (a compressor, a phone's automatic gain,
  // a DJ's fader) becomes a no-op too; peaks are what stands out of its own moment's spectrum.
  for (let frame = 0; frame < frames; frame++) {
    const row = frame * BINS;
    let sum = 0;
    for (let b = 0; b < BINS; b++) sum += white[row + b]! - mean[b]!;
    const m = sum / BINS;
    for (let b = 0; b < BINS; b++) white[row + b]! -= mean[b]! + m;
  }
  const score = white;
  // Per block: the neighbourhood maximum (along frequency, then along time) of the block's frames
  // and PEAK_TIME_RADIUS frames either side, in buffers reused from block to block.
  const span = PEAK_BLOCK_FRAMES + 2 * PEAK_TIME_RADIUS;
  const maxF = new Float32Array(span * BINS);
  const maxTF = new Float32Array(span * BINS);
  const deque = new Int32Array(Math.max(span, BINS));
  const outT: number[] = [];
  const outF: number[] = [];
  const candidates: Array<{ frame: number; bin: number; value: number }> = [];
  for (let block = 0; block < frames; block += PEAK_BLOCK_FRAMES) {
    const lo = Math.max(0, block - PEAK_TIME_RADIUS);
    const hi = Math.min(frames, block + PEAK_BLOCK_FRAMES + PEAK_TIME_RADIUS);
    const n = hi - lo;
    const view = score.subarray(lo * BINS, hi * BINS);
    for (let i = 0; i < n; i++) slidingMax(view, i * BINS, 1, BINS, PEAK_FREQ_RADIUS, maxF, deque);
    for (let b = 0; b < BINS; b++) slidingMax(maxF, b, BINS, n, PEAK_TIME_RADIUS, maxTF, deque);
    candidates.length = 0;
    const end = Math.min(frames, block + PEAK_BLOCK_FRAMES);
    for (let frame = block; frame < end; frame++) {
      const row = frame * BINS;
      const local = (frame - lo) * BINS;
      // Edge bins cannot be interpolated; a peak there is the band limit, not the music.
      for (let b = 1; b < BINS - 1; b++) {
        const value = score[row + b]!;
        if (value === maxTF[local + b]! && value > score[row + b - 1]! && value > 0) {
          candidates.push({ frame, bin: b, value });
        }
      }
    }
    candidates.sort((x, y) => y.value - x.value || x.frame - y.frame || x.bin - y.bin);
    const kept = candidates.slice(0, PEAKS_PER_BLOCK);
    kept.sort((x, y) => x.frame - y.frame || x.bin - y.bin);
    for (const peak of kept) {
      const row = peak.frame * BINS + peak.bin;
      // Parabolic interpolation of the raw log magnitude (whitened + the bin's mean).
      const l = white[row - 1]! + mean[peak.bin - 1]!;
      const c = white[row]! + mean[peak.bin]!;
      const r = white[row + 1]! + mean[peak.bin + 1]!;
      // (the frame's mean is common to the three and cancels out of the vertex)
      const denom = l - 2 * c + r;
      const delta = denom < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (l - r)) / denom)) : 0;
      const hz = (K_LO + peak.bin + delta) * BIN_HZ;
      outT.push(peak.frame);
      outF.push(BINS_PER_OCTAVE * Math.log2(hz / MIN_HZ));
    }
  }
  return { t: Int32Array.from(outT), f: Float32Array.from(outF), count: outT.length, frames };
}
