/**
 * The short-frame pass over a song: from one STFT (≈46 ms frames, ≈11.6 ms hop) it derives the
 * onset strength envelope that tempo and onset rate are read from, and the timbre figures
 * (spectral centroid, spectral flatness) that energy and valence use.
 *
 * Onset strength is spectral flux on a log-magnitude mel spectrogram: for each frame, the mean
 * over 40 mel bands of the half-wave rectified rise in dB since the previous frame. Working in dB
 * makes a quiet hi-hat and a loud kick count alike, which is what a dancer hears as "a beat".
 */
import { forEachPowerSpectrum, nearestPowerOfTwo } from './stft.js';

const MEL_BANDS = 40;
const MEL_MIN_HZ = 30;
const MEL_MAX_HZ = 8000;
/**
 * Mel band levels below this many dB under the loudest band of the song are clipped to it, so a
 * hi-hat rising from near silence in the bass bands does not weigh like a kick. Measured: 80 dB
 * halved a straight 117 BPM test pattern (eighth hi-hats as strong as the beat) and doubled a
 * 70 BPM one; 40 dB lost 8Beat songs of the benchmark; 60 dB got all of both right.
 */
const DYNAMIC_RANGE_DB = 60;
/** The bass envelope's bands: those centred under this frequency. */
const BASS_MAX_HZ = 200;

export interface SpectralPass {
  /** Onset strength per frame (≥ 0), `fps` frames per second. */
  onset: Float64Array;
  /** The same from the mel bands under BASS_MAX_HZ only: kick drum, bass notes, a snare's body. */
  bassOnset: Float64Array;
  fps: number;
  /** Power-weighted mean spectral centroid in Hz over the song (0 for silence). */
  centroidHz: number;
  /** Power-weighted mean spectral flatness (0 tonal ... 1 white noise). */
  flatness: number;
  /**
   * How much of the spectrum is new from frame to frame: per frame, the magnitudes' rise since the
   * previous frame (bin by bin, half-wave rectified, up to MEL_MAX_HZ) over their sum; the song's
   * 99th percentile (a click a beat renews 3-4 % of the frames, which the 95th missed). A steady
   * tone's partials only beat (0.04-0.05); onsets of notes or drums renew the spectrum (see STEADY_NOVELTY in tempo.ts).
   */
  novelty: number;
}

const hzToMel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const melToHz = (mel: number) => 700 * (10 ** (mel / 2595) - 1);

/** Triangular mel filters as sparse rows: first bin and weights per band. */
function melFilters(frameSize: number, sampleRate: number) {
  const bins = frameSize / 2 + 1;
  const maxHz = Math.min(MEL_MAX_HZ, sampleRate / 2);
  const edges: number[] = [];
  const lo = hzToMel(MEL_MIN_HZ);
  const hi = hzToMel(maxHz);
  for (let i = 0; i < MEL_BANDS + 2; i++) {
    edges.push((melToHz(lo + ((hi - lo) * i) / (MEL_BANDS + 1)) * frameSize) / sampleRate);
  }
  const filters: { first: number; weights: Float64Array; centreHz: number }[] = [];
  for (let b = 0; b < MEL_BANDS; b++) {
    const left = edges[b]!;
    const centre = edges[b + 1]!;
    const right = edges[b + 2]!;
    const first = Math.max(0, Math.floor(left));
    const last = Math.min(bins - 1, Math.ceil(right));
    const weights = new Float64Array(last - first + 1);
    for (let k = first; k <= last; k++) {
      let w = 0;
      if (k > left && k <= centre) w = (k - left) / Math.max(1e-9, centre - left);
      else if (k > centre && k < right) w = (right - k) / Math.max(1e-9, right - centre);
      weights[k - first] = w;
    }
    // A band narrower than one bin still gets its nearest bin.
    if (weights.every((w) => w === 0)) weights[Math.min(weights.length - 1, Math.round(centre) - first)] = 1;
    filters.push({ first, weights, centreHz: (centre * sampleRate) / frameSize });
  }
  return filters;
}

export function spectralPass(samples: Float32Array, sampleRate: number): SpectralPass {
  const frameSize = nearestPowerOfTwo(sampleRate * 0.046);
  const hop = frameSize / 4;
  const fps = sampleRate / hop;
  const filters = melFilters(frameSize, sampleRate);
  const binHz = sampleRate / frameSize;
  const frames = Math.max(1, Math.ceil(samples.length / hop));
  const mel = new Float32Array(frames * MEL_BANDS);
  let centroidSum = 0;
  let flatnessSum = 0;
  let powerSum = 0;
  const noveltyTop = Math.min(frameSize / 2, Math.floor((MEL_MAX_HZ * frameSize) / sampleRate));
  let magnitudes = new Float64Array(noveltyTop + 1);
  let previousMagnitudes = new Float64Array(noveltyTop + 1);
  const novelties = new Float64Array(frames);
  let noveltyFrames = 0;
  forEachPowerSpectrum(samples, frameSize, hop, (f, power) => {
    let rise = 0;
    let sum = 0;
    for (let k = 1; k <= noveltyTop; k++) {
      const magnitude = Math.sqrt(power[k]!);
      magnitudes[k] = magnitude;
      const step = magnitude - previousMagnitudes[k]!;
      if (step > 0) rise += step;
      sum += magnitude;
    }
    if (f > 0 && sum > 1e-9) novelties[noveltyFrames++] = rise / sum;
    [previousMagnitudes, magnitudes] = [magnitudes, previousMagnitudes];
    for (let b = 0; b < MEL_BANDS; b++) {
      const { first, weights } = filters[b]!;
      let sum = 0;
      for (let i = 0; i < weights.length; i++) sum += weights[i]! * power[first + i]!;
      mel[f * MEL_BANDS + b] = 10 * Math.log10(sum + 1e-12);
    }
    // Timbre from 1 bin up (no DC), power-weighted so quiet frames count little.
    let total = 0;
    let weighted = 0;
    let logSum = 0;
    const bins = power.length - 1;
    // The log of the geometric mean, one logarithm per 8 bins (a product of 8 values of at least
    // 1e-12 stays far from underflow).
    let product = 1;
    for (let k = 1; k <= bins; k++) {
      const p = power[k]!;
      total += p;
      weighted += p * k * binHz;
      product *= p + 1e-12;
      if (k % 8 === 0) {
        logSum += Math.log(product);
        product = 1;
      }
    }
    logSum += Math.log(product);
    if (total > 1e-9) {
      centroidSum += weighted;
      const flatness = Math.exp(logSum / bins) / (total / bins);
      flatnessSum += flatness * total;
      powerSum += total;
    }
  });
  let maxDb = -Infinity;
  for (let i = 0; i < mel.length; i++) if (mel[i]! > maxDb) maxDb = mel[i]!;
  const floor = maxDb - DYNAMIC_RANGE_DB;
  const onset = new Float64Array(frames);
  const bassOnset = new Float64Array(frames);
  const bassBands = filters.filter((filter) => filter.centreHz < BASS_MAX_HZ).length;
  for (let f = 1; f < frames; f++) {
    let flux = 0;
    let bass = 0;
    for (let b = 0; b < MEL_BANDS; b++) {
      const now = Math.max(floor, mel[f * MEL_BANDS + b]!);
      const before = Math.max(floor, mel[(f - 1) * MEL_BANDS + b]!);
      if (now > before) {
        flux += now - before;
        if (b < bassBands) bass += now - before;
      }
    }
    onset[f] = flux / MEL_BANDS;
    bassOnset[f] = bassBands > 0 ? bass / bassBands : 0;
  }
  const sortedNovelties = novelties.subarray(0, noveltyFrames).sort();
  return {
    onset,
    bassOnset,
    fps,
    centroidHz: powerSum > 0 ? centroidSum / powerSum : 0,
    flatness: powerSum > 0 ? flatnessSum / powerSum : 0,
    novelty: noveltyFrames > 0 ? sortedNovelties[Math.floor(0.99 * (noveltyFrames - 1))]! : 0,
  };
}

/** The linear-frequency onset envelope's top: the mel envelope's (MEL_MAX_HZ). */
const TONAL_MAX_HZ = MEL_MAX_HZ;

/**
 * A second onset envelope, for pitched music without drums: spectral flux on log-compressed
 * magnitudes, log(1 + 1000·|X|), bin by bin (≈21.5 Hz apart at 22,050 Hz) up to TONAL_MAX_HZ,
 * the frames of spectralPass. A new note's partials rise in their own bins, where a mel band's
 * level, the sum of several partials that beat against each other, hardly moves: on MuseScore's
 * brass band `Brassed_Up` and organ `Fugue_1` (docs/performance.md) the mel envelope repeats at
 * the beat with 0.07 and 0.07 (under MIN_RHYTHM_REGULARITY, tempo.ts), this one with 0.21 and
 * 0.27; white noise 0.01 and 0.02. tempo.ts reads it only when the mel envelope finds no pulse,
 * so it costs a second STFT pass on those songs alone.
 */
export function tonalOnset(samples: Float32Array, sampleRate: number): Float64Array {
  const frameSize = nearestPowerOfTwo(sampleRate * 0.046);
  const hop = frameSize / 4;
  const top = Math.min(frameSize / 2, Math.floor((TONAL_MAX_HZ * frameSize) / sampleRate));
  const frames = Math.max(1, Math.ceil(samples.length / hop));
  const onset = new Float64Array(frames);
  let previous = new Float64Array(top + 1);
  let current = new Float64Array(top + 1);
  forEachPowerSpectrum(samples, frameSize, hop, (f, power) => {
    let flux = 0;
    for (let k = 1; k <= top; k++) {
      const level = Math.log1p(1000 * Math.sqrt(power[k]!));
      current[k] = level;
      const rise = level - previous[k]!;
      if (f > 0 && rise > 0) flux += rise;
    }
    onset[f] = flux / top;
    [previous, current] = [current, previous];
  });
  return onset;
}

/**
 * Onsets per second: local maxima of the onset envelope that rise above its local mean (≈0.5 s
 * around) by a margin of the song's typical flux, at least 50 ms apart.
 */
export function onsetRate(onset: Float64Array, fps: number): number {
  const n = onset.length;
  if (n < 3) return 0;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += onset[i]!;
  mean /= n;
  let variance = 0;
  for (let i = 0; i < n; i++) variance += (onset[i]! - mean) ** 2;
  const std = Math.sqrt(variance / n);
  if (std < 1e-6) return 0;
  const half = Math.round(fps * 0.25);
  const gap = Math.max(1, Math.round(fps * 0.05));
  // Running sums for the local mean.
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + onset[i]!;
  let count = 0;
  let last = -gap;
  for (let i = 1; i < n - 1; i++) {
    const value = onset[i]!;
    if (value < onset[i - 1]! || value < onset[i + 1]!) continue;
    const from = Math.max(0, i - half);
    const to = Math.min(n, i + half + 1);
    const local = (prefix[to]! - prefix[from]!) / (to - from);
    if (value > local + 0.5 * std && i - last >= gap) {
      count++;
      last = i;
    }
  }
  return count / (n / fps);
}
