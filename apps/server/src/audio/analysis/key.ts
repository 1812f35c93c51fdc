/**
 * Key from a tuning-corrected chromagram (harmonic pitch class profile) correlated with key
 * profiles. Long frames (≈370 ms) resolve semitones down to the bass; only spectral peaks count,
 * each folded to its pitch class (and, with falling weight, to the pitch classes of the notes it
 * may be the 2nd-6th harmonic of). Every frame's chroma is scaled to a sum of 1 before the
 * song average, so loud passages do not outvote the rest; then each pitch class gives up a tenth
 * of the one a fifth under it, whose third harmonic sounds on it (a song's own notes otherwise
 * lean its chroma toward the dominant key, the analyser's most common miss). Each key is scored by
 * the mean of two similarities of the chroma with its Krumhansl-Kessler profile: Pearson's
 * correlation, and the cosine of the two in the Tonal Interval Space (their 12-point DFT, each
 * interval class weighted: tonalIntervalCosine).
 *
 * Keys are written in standard notation with sharps: 'C major', 'F# minor', 'A# major' (never
 * flats), and shown with their Camelot code (toCamelot).
 */
import { forEachPowerSpectrum, nearestPowerOfTwo } from './stft.js';

export const PITCH_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;

/** Krumhansl-Kessler probe-tone profiles (C major, C minor). */
const KRUMHANSL = {
  major: [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88],
  minor: [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17],
};
/** Temperley's (Kostka-Payne corpus) profiles. */
const TEMPERLEY = {
  major: [5.0, 2.0, 3.5, 2.0, 4.5, 4.0, 2.0, 4.5, 2.0, 3.5, 1.5, 4.0],
  minor: [5.0, 2.0, 3.5, 4.5, 2.0, 4.0, 2.0, 4.5, 3.5, 2.0, 1.5, 4.0],
};
export const KEY_PROFILES = { krumhansl: KRUMHANSL, temperley: TEMPERLEY } as const;
export type KeyProfileName = keyof typeof KEY_PROFILES;
export const KEY_PROFILE: KeyProfileName = 'krumhansl';

/** How the chromagram is made (exported so the benchmark can compare settings). */
export interface ChromaSettings {
  minHz: number;
  maxHz: number;
  /** Harmonics a peak may be of a lower note, and the weight kept per step down. */
  harmonics: number;
  harmonicDecay: number;
  /** Each pitch class of the song's chroma minus this share of the one a fifth under it. */
  fifthCorrection: number;
}
// Chosen by measurement on the benchmark (tuned on songs 0-47, checked on 48-95): MIREX 0.858 /
// 0.850 with 4 harmonics at 0.6, 0.931 / 0.904 with 8 at 0.8; Temperley's profiles scored 0.6-0.7.
// A 60 Hz floor instead of 40 lost 0.08: the bass line matters; yet adding a separate bass chroma
// (fundamentals under 250 Hz) at weights 0.3-2 lost 0.02-0.1 on the held-out half. Since
// 2026-11-26 frames are scaled to their sum, 6 harmonics, and the fifth correction 0.1: 0.958 /
// 0.942 (0.910 / 0.894 before), and on 31 real songs held out 0.694 (0.613): docs/performance.md.
export const CHROMA_SETTINGS: ChromaSettings = {
  minHz: 40,
  maxHz: 3500,
  harmonics: 6,
  harmonicDecay: 0.8,
  fifthCorrection: 0.1,
};
/**
 * Weights of the DFT coefficients 1-6 of a pitch-class vector in the Tonal Interval Space
 * (Bernardes et al., "A multi-level tonal interval space for modelling pitch relatedness and
 * musical consonance", J. New Music Research 45, 2016): semitones (k = 1) count least, fifths
 * (k = 5), minor and major thirds (k = 3, 4) most. Published values, not tuned here. A key's
 * score is the mean of Pearson's correlation and this cosine (KEY_TIS_SHARE of it the cosine):
 * since 2026-11-27, chosen on half A of the real songs with a key over the cosine alone (which
 * took the rendered set under 0.95) and over shares 1/3 and 2/3; on half B 0.855 → 0.872 MIREX,
 * the rendered set 0.950 → 0.955 (docs/performance.md, "Key in the Tonal Interval Space").
 */
export const KEY_TIS_WEIGHTS = [2, 11, 17, 16, 19, 7] as const;
export const KEY_TIS_SHARE = 0.5;
/** Peaks more than this many dB under the frame's loudest are ignored. */
const PEAK_RANGE_DB = 60;
/**
 * Below this strength of the best key there is no key to report: drums alone and white noise
 * correlate 0.3-0.45 with some key by chance, tonal music 0.7-0.97 (unit tests, benchmark).
 */
export const MIN_KEY_STRENGTH = 0.5;
/** A margin of this much correlation between the best and the runner-up key is full confidence. */
export const KEY_MARGIN_FULL = 0.1;
/**
 * A difference of this much (on the chroma scaled to a maximum of 1) between the tonic's major
 * and minor third is full confidence in the mode. Under a fifth of it (0.05: both thirds about
 * equal, or both absent, as in power chords over a drone) the audio does not say major or minor,
 * and the confidence falls under KEY_CONFIDENCE_MIN. On the real-music set a confident "D# major"
 * whose notes are D# minor had thirds 0.20 and 0.19 (docs/performance.md); 0.1 instead of 0.05
 * would show a third of the real set uncertain (21 of 60) where 0.05 shows 7.
 */
export const KEY_THIRD_FULL = 0.25;
/** Under this confidence the key is shown as uncertain (chosen on the benchmarks, docs/performance.md). */
export const KEY_CONFIDENCE_MIN = 0.2;

export interface KeyEstimate {
  key: string | null;
  /** The winning key's strength (-1..1): mean of its profile's correlation and Tonal Interval Space cosine with the chroma. */
  strength: number;
  /** 0-1, see keyConfidenceOf; 0 when there is no key. */
  confidence: number;
  /** 1 for major, 0 for minor (0.5 when there is no key). */
  mode: number;
  /** Tuning offset from A440 in cents (-50..50). */
  tuningCents: number;
  chroma: number[];
}

/** Spectral peaks in growable typed arrays (a song has hundreds of thousands). */
class Peaks {
  length = 0;
  frame = new Int32Array(4096);
  /** Semitones from A440 (12·log2(hz / 440)). */
  semitones = new Float64Array(4096);
  amplitude = new Float64Array(4096);
  push(frame: number, hz: number, amplitude: number) {
    if (this.length === this.frame.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T) => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.frame = grow(this.frame, (n) => new Int32Array(n));
      this.semitones = grow(this.semitones, (n) => new Float64Array(n));
      this.amplitude = grow(this.amplitude, (n) => new Float64Array(n));
    }
    this.frame[this.length] = frame;
    this.semitones[this.length] = 12 * Math.log2(hz / 440);
    this.amplitude[this.length] = amplitude;
    this.length++;
  }
}

/** Spectral peaks of every frame, frequency and amplitude refined by parabolic interpolation. */
function collectPeaks(
  samples: Float32Array,
  sampleRate: number,
  settings: ChromaSettings,
): { peaks: Peaks; frames: number } {
  const frameSize = nearestPowerOfTwo(sampleRate * 0.37);
  const hop = frameSize / 2;
  const binHz = sampleRate / frameSize;
  const lo = Math.max(2, Math.floor(settings.minHz / binHz));
  const hi = Math.min(frameSize / 2 - 1, Math.ceil(settings.maxHz / binHz));
  const peaks = new Peaks();
  let frames = 0;
  // Peaks are found on the power spectrum (a bin above both neighbours and within PEAK_RANGE_DB
  // of the frame's loudest): the same bins as on the dB scale, with a logarithm only per peak.
  const rangePower = 10 ** (-PEAK_RANGE_DB / 10);
  const toDb = (p: number) => 10 * Math.log10(p + 1e-14);
  forEachPowerSpectrum(samples, frameSize, hop, (f, power) => {
    frames = f + 1;
    let max = 0;
    for (let k = lo - 1; k <= hi + 1; k++) if (power[k]! > max) max = power[k]!;
    // Silence: no peaks (−100 dBFS per bin is below any audible note).
    if (toDb(max) < -100) return;
    const threshold = (max + 1e-14) * rangePower - 1e-14;
    for (let k = lo; k <= hi; k++) {
      const p = power[k]!;
      if (p < threshold || p <= power[k - 1]! || p < power[k + 1]!) continue;
      const y = toDb(p);
      const a = toDb(power[k - 1]!);
      const c = toDb(power[k + 1]!);
      const denominator = a - 2 * y + c;
      const shift = denominator < 0 ? (0.5 * (a - c)) / denominator : 0;
      const peakDb = y - 0.25 * (a - c) * shift;
      peaks.push(f, (k + shift) * binHz, 10 ** (peakDb / 20));
    }
  });
  return { peaks, frames };
}

/** Weighted circular mean of the peaks' deviation from the A440 semitone grid, in cents. */
function estimateTuning(peaks: Peaks): number {
  let sin = 0;
  let cos = 0;
  for (let i = 0; i < peaks.length; i++) {
    const semitones = peaks.semitones[i]!;
    const amplitude = peaks.amplitude[i]!;
    const angle = 2 * Math.PI * (semitones - Math.round(semitones));
    sin += amplitude * Math.sin(angle);
    cos += amplitude * Math.cos(angle);
  }
  if (sin === 0 && cos === 0) return 0;
  return (Math.atan2(sin, cos) / (2 * Math.PI)) * 100;
}

/**
 * The song's chroma: mean over frames of each frame's sum-normalised pitch class profile, scaled
 * to a maximum of 1, less `fifthCorrection` of the pitch class a fifth under each.
 */
export function chromagram(
  samples: Float32Array,
  sampleRate: number,
  settings: ChromaSettings = CHROMA_SETTINGS,
): { chroma: number[]; tuningCents: number } {
  const { peaks, frames } = collectPeaks(samples, sampleRate, settings);
  const tuningCents = estimateTuning(peaks);
  const perFrame = new Float64Array(frames * 12);
  // Per harmonic h: its pitch offset (−12·log2 h semitones) and weight, computed once.
  const offsets = Array.from({ length: settings.harmonics }, (_, i) => 12 * Math.log2(i + 1));
  const decays = Array.from({ length: settings.harmonics }, (_, i) => settings.harmonicDecay ** i);
  // MIDI pitch relative to the estimated tuning: 69 is A at 440 Hz × 2^(tuningCents / 1200).
  const toPitch = 69 - tuningCents / 100;
  const lowestPitch = 12 * Math.log2(settings.minHz / 440) + toPitch;
  for (let i = 0; i < peaks.length; i++) {
    const fundamental = peaks.semitones[i]! + toPitch;
    const row = peaks.frame[i]! * 12;
    const amplitude = peaks.amplitude[i]!;
    for (let h = 0; h < settings.harmonics; h++) {
      const pitch = fundamental - offsets[h]!;
      if (pitch < lowestPitch) break;
      const nearest = Math.round(pitch);
      // A cos² window 4/3 semitone wide shares a mistuned peak between its two neighbours.
      const weight = amplitude * decays[h]!;
      for (let note = nearest - 1; note <= nearest + 1; note++) {
        const d = pitch - note;
        if (Math.abs(d) >= 2 / 3) continue;
        const w = Math.cos((Math.PI * d) / (4 / 3)) ** 2;
        const index = row + (((note % 12) + 12) % 12);
        perFrame[index] = perFrame[index]! + weight * w;
      }
    }
  }
  const summed = new Array<number>(12).fill(0);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let pc = 0; pc < 12; pc++) sum += perFrame[f * 12 + pc]!;
    if (sum <= 0) continue;
    for (let pc = 0; pc < 12; pc++) summed[pc] = summed[pc]! + perFrame[f * 12 + pc]! / sum;
  }
  const max = Math.max(...summed);
  if (!(max > 0)) return { chroma: summed, tuningCents };
  const chroma = summed.map((value, pc) => (value - settings.fifthCorrection * summed[(pc + 5) % 12]!) / max);
  return { chroma, tuningCents };
}

function pearson(a: readonly number[], b: readonly number[], rotation: number): number {
  let meanA = 0;
  let meanB = 0;
  for (let i = 0; i < 12; i++) {
    meanA += a[i]!;
    meanB += b[i]!;
  }
  meanA /= 12;
  meanB /= 12;
  let num = 0;
  let varA = 0;
  let varB = 0;
  for (let i = 0; i < 12; i++) {
    const x = a[(i + rotation) % 12]! - meanA;
    const y = b[i]! - meanB;
    num += x * y;
    varA += x * x;
    varB += y * y;
  }
  return varA > 0 && varB > 0 ? num / Math.sqrt(varA * varB) : 0;
}

/**
 * A pitch-class vector's point in the Tonal Interval Space: the real and imaginary parts of its
 * DFT coefficients k = 1-6, each times KEY_TIS_WEIGHTS[k - 1] (index 0 = C; negative values, left
 * by the fifth correction, count as 0).
 */
function tonalIntervalVector(values: readonly number[]): Float64Array {
  const out = new Float64Array(12);
  for (let k = 1; k <= 6; k++) {
    let re = 0;
    let im = 0;
    for (let pc = 0; pc < 12; pc++) {
      const v = Math.max(0, values[pc]!);
      re += v * Math.cos((2 * Math.PI * k * pc) / 12);
      im -= v * Math.sin((2 * Math.PI * k * pc) / 12);
    }
    out[2 * k - 2] = KEY_TIS_WEIGHTS[k - 1]! * re;
    out[2 * k - 1] = KEY_TIS_WEIGHTS[k - 1]! * im;
  }
  return out;
}

/** The 24 keys' profiles in the Tonal Interval Space, by profile name, then [tonic][major, minor]. */
const PROFILE_TIVS = new Map<KeyProfileName, Float64Array[][]>();
function profileTivs(profile: KeyProfileName): Float64Array[][] {
  let tivs = PROFILE_TIVS.get(profile);
  if (!tivs) {
    const profiles = KEY_PROFILES[profile];
    tivs = Array.from({ length: 12 }, (_, tonic) =>
      (['major', 'minor'] as const).map((mode) =>
        tonalIntervalVector(Array.from({ length: 12 }, (_, pc) => profiles[mode][(pc - tonic + 12) % 12]!)),
      ),
    );
    PROFILE_TIVS.set(profile, tivs);
  }
  return tivs;
}

/** Cosine of two points of the Tonal Interval Space (0 when either is the origin). */
function tonalIntervalCosine(a: Float64Array, b: Float64Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < 12; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return normA > 0 && normB > 0 ? dot / Math.sqrt(normA * normB) : 0;
}

/**
 * The 24 keys for a chroma vector (index 0 = C), best first, each with its strength: the mean of
 * its profile's Pearson correlation with the chroma and their cosine in the Tonal Interval Space
 * (KEY_TIS_SHARE; 0 gives the correlation alone, as until 2026-11-27).
 */
export function rankKeys(
  chroma: readonly number[],
  profile: KeyProfileName = KEY_PROFILE,
  tisShare: number = KEY_TIS_SHARE,
): { key: string; strength: number; mode: number }[] {
  const profiles = KEY_PROFILES[profile];
  const tivs = profileTivs(profile);
  const point = tonalIntervalVector(chroma);
  const ranked: { key: string; strength: number; mode: number }[] = [];
  for (let tonic = 0; tonic < 12; tonic++) {
    for (const [m, mode] of (['major', 'minor'] as const).entries()) {
      const correlation = pearson(chroma, profiles[mode], tonic);
      const cosine = tisShare > 0 ? tonalIntervalCosine(point, tivs[tonic]![m]!) : 0;
      ranked.push({
        key: `${PITCH_NAMES[tonic]} ${mode}`,
        strength: (1 - tisShare) * correlation + tisShare * cosine,
        mode: mode === 'major' ? 1 : 0,
      });
    }
  }
  return ranked.sort((a, b) => b.strength - a.strength);
}

/** The best of the 24 keys for a chroma vector (index 0 = C), with its correlation. */
export function keyFromChroma(
  chroma: readonly number[],
  profile: KeyProfileName = KEY_PROFILE,
  tisShare: number = KEY_TIS_SHARE,
): { key: string; strength: number; mode: number } | null {
  return rankKeys(chroma, profile, tisShare)[0] ?? null;
}

/**
 * 0-1: how clearly the best key stands above the runner-up, (r1 - r2) / KEY_MARGIN_FULL, and, when
 * `chroma` is given, how clearly the audio tells its mode: |c(major third) - c(minor third)| /
 * max(c) / KEY_THIRD_FULL; the smaller of the two, clamped. A profile that fits two keys about as
 * well (a fifth apart, or relative major and minor), or a song whose thirds are equal or absent,
 * is ambiguous: the analyser may name either key or either mode.
 */
export function keyConfidenceOf(
  ranked: readonly { key: string; strength: number }[],
  chroma?: readonly number[],
): number {
  if (ranked.length < 2) return 0;
  const margin = ranked[0]!.strength - ranked[1]!.strength;
  let confidence = margin / KEY_MARGIN_FULL;
  const max = chroma ? Math.max(...chroma) : 0;
  if (chroma && max > 0) {
    const tonic = PITCH_NAMES.indexOf(ranked[0]!.key.split(' ')[0] as (typeof PITCH_NAMES)[number]);
    const contrast = Math.abs(chroma[(tonic + 4) % 12]! - chroma[(tonic + 3) % 12]!) / max;
    confidence = Math.min(confidence, contrast / KEY_THIRD_FULL);
  }
  return Math.min(1, Math.max(0, confidence));
}

export function estimateKey(samples: Float32Array, sampleRate: number): KeyEstimate {
  const { chroma, tuningCents } = chromagram(samples, sampleRate);
  const total = chroma.reduce((sum, value) => sum + value, 0);
  const ranked = total > 0 ? rankKeys(chroma) : [];
  const found = ranked[0];
  if (!found || found.strength < MIN_KEY_STRENGTH) {
    return { key: null, strength: found?.strength ?? 0, confidence: 0, mode: 0.5, tuningCents, chroma };
  }
  return {
    key: found.key,
    strength: found.strength,
    confidence: keyConfidenceOf(ranked, chroma),
    mode: found.mode,
    tuningCents,
    chroma,
  };
}

/** Camelot wheel code of a key: 'A minor' → '8A', 'C major' → '8B'. Flats are accepted too. */
export function toCamelot(key: string): string | null {
  const match = /^\s*([A-Ga-g])\s*([#♯b♭]?)\s+(major|minor)\s*$/i.exec(key);
  if (!match) return null;
  const letter = match[1]!.toUpperCase();
  const base = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 }[letter as 'C']!;
  const accidental = match[2] === '#' || match[2] === '♯' ? 1 : match[2] ? -1 : 0;
  const pc = (base + accidental + 12) % 12;
  const minor = match[3]!.toLowerCase() === 'minor';
  // Camelot numbers step a fifth clockwise; C major is 8B and A minor (its relative) 8A.
  const steps = minor ? ((((pc - 9) * 7) % 12) + 12) % 12 : (((pc * 7) % 12) + 12) % 12;
  return `${((steps + 7) % 12) + 1}${minor ? 'A' : 'B'}`;
}
