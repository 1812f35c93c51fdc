/**
 * Tempo from the onset strength envelope. The envelope's autocorrelation is scored with a comb of
 * beat multiples (a tempo whose 1, 2, 3, 4 beat lags all repeat the pattern scores high). The
 * reported tempo always lies in the declared range TEMPO_RANGE_LOW-TEMPO_RANGE_HIGH, which is one
 * octave wide: what is chosen is the tempo's octave family (F/2, F, 2F for F in the range), by the
 * music's pulse, not by a prior: a family scores by the comb salience of its three metrical levels
 * together (a beat whose half-beats and two-beat bars also repeat, as kick, snare and hi-hats
 * place them, outscores a reading at 2/3 or 3/2 of it, whose levels fall between the notes). The
 * two best families are then compared directly when they stand 3:2 apart (the classic 2:3 error),
 * on the half-beat and beat lags only. The winner is refined on a fine grid with 8 beat multiples
 * (one decimal), and the other octave (double or half, whichever the pulse supports more) is
 * given as `bpmAlt`, for a DJ who counts the song the other way.
 */
import { autocorrelation } from './stft.js';

/**
 * The declared range: the reported BPM always lies in it. It is one octave wide, so every tempo
 * has exactly one reading inside it (a 150 BPM song reads 75, a 65 BPM blues 130); the other
 * octave is `bpmAlt`. 70-140 holds West Coast Swing's usual 80-130 BPM with room either side.
 */
export const TEMPO_RANGE_LOW = 70;
export const TEMPO_RANGE_HIGH = 140;
/** Metrical levels looked at: half of the slowest and double of the fastest tempo in the range. */
const LEVEL_MIN_BPM = TEMPO_RANGE_LOW / 2;
const LEVEL_MAX_BPM = TEMPO_RANGE_HIGH * 2;
/**
 * Below this rhythm regularity there is no pulse to speak of and the tempo is null: white noise
 * measures 0.01, sustained chords changing every 2 s 0.17 (their partials' beating: since
 * 2026-11-27 they read no pulse by STEADY_NOVELTY), the benchmark's songs 0.31-0.89.
 */
export const MIN_RHYTHM_REGULARITY = 0.1;
/**
 * Under this spectral novelty (SpectralPass.novelty: the 99th percentile over frames of the share
 * of the spectrum's magnitude that rose since the frame before) the sound is a steady tone and has
 * no pulse, whatever its envelopes repeat. A held chord's partials beat at steady rates (a C major
 * chord's fifth and the bass's sixth harmonic 0.4 Hz apart), and both onset envelopes repeat with
 * them: it read 88.9 BPM (regularity 0.23) before 2026-11-27. Measured at the 99th percentile:
 * held chords 0.040-0.047, one click a beat over a held chord 0.51 at 70 BPM and 0.55 at 88 to 100
 * (at the 95th percentile, first chosen, 0.025-0.083: they read no pulse); at the 95th percentile:
 * held chords 0.033-0.039,
 * soft detuned chords on the beat 0.19, a drum pattern 1.0 (at a fifth of a held chord's level
 * 0.13), white noise 0.25, the 218 songs of both benchmarks 0.15 and up (docs/performance.md), so
 * at least as much at the 99th. Organ chords changing every 2 s measure 0.039 at the 95th and 0.27
 * at the 99th percentile: their changes are onsets, and they keep the tempo they read before.
 */
export const STEADY_NOVELTY = 0.08;

export interface TempoEstimate {
  /** In TEMPO_RANGE_LOW..TEMPO_RANGE_HIGH, one decimal; null when there is no pulse. */
  bpm: number | null;
  /** The other octave (bpm × 2 or ÷ 2): how a DJ who counts the song the other way would read it. */
  bpmAlt: number | null;
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

/** How the octave family is chosen (exported so the benchmark can compare settings). */
export interface TempoSettings {
  /** Weight of the half-tempo and double-tempo levels beside the tempo's own in a family's score. */
  halfWeight: number;
  doubleWeight: number;
  /** A 3:2-related runner-up family scoring at least this fraction of the leader's is a rival... */
  rivalFloor: number;
  /** ...and wins when its beats' salience in the bass envelope exceeds the leader's by this factor... */
  threeTwoMargin: number;
  /**
   * ...and reaches at least this salience itself: a bass envelope that hardly repeats (a held bass,
   * a soft or sparse bass line) has no beat to tell, and its faint preference is noise. Over the
   * 187 songs of both benchmarks the check replaced the leader twice: pingus-4.it, bass 0.43
   * (right), and the_hobo_redfarn, bass 0.12 (wrong: its drums repeat every half note); any floor
   * from 0.13 to 0.43 keeps the first and undoes the second and moves no other song
   * (docs/performance.md). One song on each side: thin evidence, chosen 2026-11-26.
   */
  bassFloor: number;
}
export const TEMPO_SETTINGS: TempoSettings = {
  halfWeight: 0.5,
  doubleWeight: 0.5,
  rivalFloor: 0.7,
  threeTwoMargin: 1,
  bassFloor: 0.2,
};

/** `bpm` halved or doubled into the declared range. */
export function foldIntoRange(bpm: number): number {
  let value = bpm;
  while (value > TEMPO_RANGE_HIGH) value /= 2;
  while (value < TEMPO_RANGE_LOW) value *= 2;
  return value;
}

/** True when `a` and `b` (in the range) stand 3:2 apart, within 3 %, in either direction and octave. */
function threeTwoApart(a: number, b: number): boolean {
  const ratio = Math.log2(Math.max(a, b) / Math.min(a, b));
  // 3:2 is 0.585 octave, 4:3 (= 2:3 an octave up) 0.415.
  return [Math.log2(1.5), Math.log2(4 / 3)].some((target) => Math.abs(ratio - target) < 0.043);
}

/** The autocorrelation of `envelope` up to `maxLag`, scaled to 1 at lag 0 (null for silence). */
function normalisedAcf(envelope: Float64Array, maxLag: number): Float64Array | null {
  const acf = autocorrelation(envelope, maxLag);
  const zero = acf[0]!;
  if (!(zero > 1e-12)) return null;
  for (let i = 0; i < acf.length; i++) acf[i] = acf[i]! / zero;
  return acf;
}

/**
 * `onset` is the full onset envelope, `bassOnset` (optional) the bass bands' alone, both at `fps`
 * frames per second (spectral.ts).
 */
export function estimateTempo(
  onset: Float64Array,
  fps: number,
  bassOnset?: Float64Array,
  settings: TempoSettings = TEMPO_SETTINGS,
): TempoEstimate {
  const none: TempoEstimate = { bpm: null, bpmAlt: null, confidence: 0, regularity: 0 };
  // Below 8 beats at the fastest level there is nothing to measure.
  if (onset.length < (8 * 60 * fps) / LEVEL_MAX_BPM) return none;
  const envelope = prepare(onset, fps);
  const maxLag = Math.ceil(Math.max((8 * 60 * fps) / TEMPO_RANGE_LOW, (4 * 60 * fps) / LEVEL_MIN_BPM)) + 2;
  const acf = normalisedAcf(envelope, maxLag);
  if (!acf) return none;

  const salience = (bpm: number) => Math.max(0, comb(acf, fps, bpm, 4));
  // Every octave family, by its tempo F in the range on a 0.5 BPM grid: the comb salience of F,
  // F/2 and 2F together.
  const families: { bpm: number; own: number; half: number; double: number; score: number }[] = [];
  for (let bpm = TEMPO_RANGE_LOW; bpm < TEMPO_RANGE_HIGH; bpm += 0.5) {
    const own = salience(bpm);
    const half = salience(bpm / 2);
    const double = salience(bpm * 2);
    families.push({
      bpm,
      own,
      half,
      double,
      score: own + settings.halfWeight * half + settings.doubleWeight * double,
    });
  }
  const ranked = [...families].sort((x, y) => y.score - x.score);
  let best = ranked[0]!;
  // The best family standing 3:2 from the leader is compared with it on where the bass falls:
  // kick, bass notes and a snare's body land on beats, not on dotted beats or triplet pairs (the
  // hi-hats of a shuffle make a 3:2 reading as salient as the beat in the full envelope).
  const rival = ranked.find((family) => threeTwoApart(family.bpm, best.bpm));
  if (rival && bassOnset && rival.score > settings.rivalFloor * best.score) {
    const bass = normalisedAcf(prepare(bassOnset, fps), maxLag);
    if (bass) {
      const beat = (family: { bpm: number }) => Math.max(0, comb(bass, fps, family.bpm, 4));
      const rivalBeat = beat(rival);
      if (rivalBeat >= settings.bassFloor && rivalBeat > settings.threeTwoMargin * beat(best)) best = rival;
    }
  }

  // Fine: ±1% around the choice in 0.02 BPM steps, 8 beat multiples for precision.
  const fine = peakNear(acf, fps, best.bpm, 0.01, 0.02, 8);
  const bpm = Math.round(foldIntoRange(fine.bpm) * 10) / 10;
  const regularity = Math.min(1, Math.max(0, fine.salience));
  // The other octave a DJ may count: double or half, whichever level the pulse supports more.
  const bpmAlt = Math.round((best.double >= best.half ? bpm * 2 : bpm / 2) * 10) / 10;
  // How far the winner's own salience stands above a typical family's (the median), on the scale
  // left above that median: 1 for a click track, near 0 for noise.
  const sorted = families.map((family) => family.own).sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const confidence = median < 1 ? Math.min(1, Math.max(0, (best.own - median) / (1 - median))) : 0;
  if (regularity < MIN_RHYTHM_REGULARITY) return { bpm: null, bpmAlt: null, confidence, regularity };
  return { bpm, bpmAlt, confidence, regularity };
}
