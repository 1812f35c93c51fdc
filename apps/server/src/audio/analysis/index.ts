/**
 * The audio analyser: BPM, key (with its Camelot code), energy, danceability and valence of a
 * song, and the raw features they come from. Our own TypeScript on fft.js (essentia.js is AGPL).
 * `analyzeSamples` is pure and synchronous so it can run in worker threads; `analyzeFile`
 * decodes with ffmpeg first. ANALYSIS_VERSION names exactly how values are made, so a changed
 * analyser re-analyses only what is outdated: bump it with any change that can move a value.
 */
import { decodeAudio } from '../decode.js';
import { danceabilityOf, energyOf, FEATURES_VERSION, type RawFeatures, valenceOf } from './features.js';
import {
  CHROMA_SETTINGS,
  estimateKey,
  KEY_CONFIDENCE_MIN,
  KEY_MARGIN_FULL,
  KEY_PROFILE,
  KEY_THIRD_FULL,
  KEY_TIS_SHARE,
  KEY_TIS_WEIGHTS,
  toCamelot,
} from './key.js';
import { integratedLoudness, LOUDNESS_FLOOR_DB } from './loudness.js';
import { onsetRate, spectralPass, tonalOnset } from './spectral.js';
import { estimateTempo, STEADY_NOVELTY, TEMPO_RANGE_HIGH, TEMPO_RANGE_LOW, TEMPO_SETTINGS } from './tempo.js';

export { DecodeError } from '../decode.js';
export { KEY_CONFIDENCE_MIN, toCamelot } from './key.js';
export { TEMPO_RANGE_HIGH, TEMPO_RANGE_LOW } from './tempo.js';

export const ANALYSIS_SAMPLE_RATE = 22050;

export const ANALYSIS_VERSION = [
  'wcs-analysis 1.0',
  'fft.js 4.0.4',
  `tempo mel-flux (tonal-flux when no pulse, none under novelty p99 ${STEADY_NOVELTY}) acf octave-family ${TEMPO_SETTINGS.halfWeight}/${TEMPO_SETTINGS.doubleWeight} 3:2 bass ${TEMPO_SETTINGS.rivalFloor}/${TEMPO_SETTINGS.threeTwoMargin}/${TEMPO_SETTINGS.bassFloor} in ${TEMPO_RANGE_LOW}-${TEMPO_RANGE_HIGH}`,
  `key hpcp h${CHROMA_SETTINGS.harmonics} sum fifth ${CHROMA_SETTINGS.fifthCorrection} ${KEY_PROFILE} tis ${KEY_TIS_WEIGHTS.join('/')} share ${KEY_TIS_SHARE} margin ${KEY_MARGIN_FULL} third ${KEY_THIRD_FULL}`,
  FEATURES_VERSION,
].join('; ');

/** Below this integrated loudness (LUFS) a file is treated as silence: every value is null. */
const SILENCE_LUFS = -65;

export interface SongAnalysis {
  /** Always within TEMPO_RANGE_LOW..TEMPO_RANGE_HIGH (null: no pulse). */
  bpm: number | null;
  /** The other octave of bpm (× 2 or ÷ 2), outside the range. */
  bpm_alt: number | null;
  /** The best-fitting key, even when uncertain. */
  key: string | null;
  /** 0-1: how clearly the key stands above the runner-up (null: no key). */
  key_confidence: number | null;
  /** True when key_confidence is under KEY_CONFIDENCE_MIN: the key is shown as uncertain. */
  key_uncertain: boolean;
  camelot: string | null;
  energy: number | null;
  danceability: number | null;
  valence: number | null;
  features: {
    loudness_db: number;
    onset_rate: number;
    spectral_centroid_hz: number;
    rhythm_regularity: number;
    key_strength: number;
    tempo_confidence: number;
    [name: string]: number;
  };
  analysis_version: string;
}

const round = (value: number, digits: number) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

export function analyzeSamples(samples: Float32Array, sampleRate: number): SongAnalysis {
  if (!(sampleRate >= 4000)) throw new RangeError(`sample rate ${sampleRate} Hz is too low to analyse`);
  const loudness = samples.length > 0 ? integratedLoudness(samples, sampleRate) : LOUDNESS_FLOOR_DB;
  const durationSeconds = samples.length / sampleRate;
  if (loudness < SILENCE_LUFS) {
    return {
      bpm: null,
      bpm_alt: null,
      key: null,
      key_confidence: null,
      key_uncertain: false,
      camelot: null,
      energy: null,
      danceability: null,
      valence: null,
      features: {
        loudness_db: round(loudness, 2),
        onset_rate: 0,
        spectral_centroid_hz: 0,
        spectral_flatness: 0,
        rhythm_regularity: 0,
        key_strength: 0,
        key_confidence: 0,
        tempo_confidence: 0,
        mode: 0.5,
        tuning_cents: 0,
        duration_seconds: round(durationSeconds, 3),
      },
      analysis_version: ANALYSIS_VERSION,
    };
  }
  const spectral = spectralPass(samples, sampleRate);
  let tempo = estimateTempo(spectral.onset, spectral.fps, spectral.bassOnset);
  if (spectral.novelty < STEADY_NOVELTY) {
    // A steady tone (a held chord, a drone) has no pulse: what its envelopes repeat is the beating
    // of its partials (STEADY_NOVELTY in tempo.ts).
    tempo = { ...tempo, bpm: null, bpmAlt: null };
  } else if (tempo.bpm === null) {
    // No pulse in the mel envelope (built for drums): pitched music without drums may still have
    // one in the bin-by-bin envelope of its notes (spectral.ts, tonalOnset). Noise has neither.
    const tonal = estimateTempo(tonalOnset(samples, sampleRate), spectral.fps, spectral.bassOnset);
    if (tonal.bpm !== null) tempo = tonal;
  }
  const key = estimateKey(samples, sampleRate);
  const raw: RawFeatures = {
    loudness_db: loudness,
    onset_rate: onsetRate(spectral.onset, spectral.fps),
    spectral_centroid_hz: spectral.centroidHz,
    spectral_flatness: spectral.flatness,
    rhythm_regularity: tempo.regularity,
    tempo_confidence: tempo.confidence,
    key_strength: key.strength,
    mode: key.mode,
  };
  const keyConfidence = key.key ? round(key.confidence, 3) : null;
  return {
    bpm: tempo.bpm,
    bpm_alt: tempo.bpmAlt,
    key: key.key,
    key_confidence: keyConfidence,
    key_uncertain: keyConfidence !== null && keyConfidence < KEY_CONFIDENCE_MIN,
    camelot: key.key ? toCamelot(key.key) : null,
    energy: energyOf(raw),
    danceability: danceabilityOf(raw, tempo.bpm),
    valence: valenceOf(raw, tempo.bpm),
    features: {
      loudness_db: round(raw.loudness_db, 2),
      onset_rate: round(raw.onset_rate, 3),
      spectral_centroid_hz: round(raw.spectral_centroid_hz, 1),
      spectral_flatness: round(raw.spectral_flatness, 4),
      rhythm_regularity: round(raw.rhythm_regularity, 4),
      key_strength: round(raw.key_strength, 4),
      key_confidence: round(key.confidence, 4),
      tempo_confidence: round(raw.tempo_confidence, 4),
      mode: raw.mode,
      tuning_cents: round(key.tuningCents, 1),
      duration_seconds: round(durationSeconds, 3),
    },
    analysis_version: ANALYSIS_VERSION,
  };
}

/** True when an analysis found silence (every value null): see analyzeFile. */
export function isSilentAnalysis(analysis: SongAnalysis): boolean {
  return analysis.features.loudness_db < SILENCE_LUFS;
}

/**
 * Decodes `file` with ffmpeg (DecodeError when it cannot) and analyses it. A file that sounds
 * silent once its channels are averaged is decoded again from its first channel alone: a mix with
 * one channel phase-inverted cancels to nothing in mono (found on a tracker module whose
 * "surround" inverts a channel; the benchmark's rough_journey.it) yet is music.
 */
export async function analyzeFile(
  file: string,
  options: { ffmpegPath?: string } = {},
): Promise<SongAnalysis> {
  const decode = (channels: 'mix' | 'first') =>
    decodeAudio(file, { sampleRate: ANALYSIS_SAMPLE_RATE, ffmpegPath: options.ffmpegPath, channels });
  const mixed = analyzeSamples(await decode('mix'), ANALYSIS_SAMPLE_RATE);
  if (!isSilentAnalysis(mixed)) return mixed;
  const first = analyzeSamples(await decode('first'), ANALYSIS_SAMPLE_RATE);
  return isSilentAnalysis(first) ? mixed : first;
}
