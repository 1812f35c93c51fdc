/**
 * The audio analyser: BPM, key (with its Camelot code), energy, danceability and valence of a
 * song, and the raw features they come from. Our own TypeScript on fft.js (essentia.js is AGPL).
 * `analyzeSamples` is pure and synchronous so it can run in worker threads; `analyzeFile`
 * decodes with ffmpeg first. ANALYSIS_VERSION names exactly how values are made, so a changed
 * analyser re-analyses only what is outdated: bump it with any change that can move a value.
 */
import { decodeAudio } from '../decode.js';
import { danceabilityOf, energyOf, FEATURES_VERSION, type RawFeatures, valenceOf } from './features.js';
import { estimateKey, KEY_PROFILE, toCamelot } from './key.js';
import { integratedLoudness, LOUDNESS_FLOOR_DB } from './loudness.js';
import { onsetRate, spectralPass } from './spectral.js';
import { estimateTempo, TEMPO_FOLD_HIGH, TEMPO_FOLD_LOW } from './tempo.js';

export { DecodeError } from '../decode.js';
export { toCamelot } from './key.js';

export const ANALYSIS_SAMPLE_RATE = 22050;

export const ANALYSIS_VERSION = [
  'wcs-analysis 1.0',
  'fft.js 4.0.4',
  `tempo mel-flux acf comb+prior ${TEMPO_FOLD_LOW}-${TEMPO_FOLD_HIGH}`,
  `key hpcp ${KEY_PROFILE}`,
  FEATURES_VERSION,
].join('; ');

/** Below this integrated loudness (LUFS) a file is treated as silence: every value is null. */
const SILENCE_LUFS = -65;

export interface SongAnalysis {
  bpm: number | null;
  key: string | null;
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
      key: null,
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
        tempo_confidence: 0,
        mode: 0.5,
        tuning_cents: 0,
        duration_seconds: round(durationSeconds, 3),
      },
      analysis_version: ANALYSIS_VERSION,
    };
  }
  const spectral = spectralPass(samples, sampleRate);
  const tempo = estimateTempo(spectral.onset, spectral.fps);
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
  return {
    bpm: tempo.bpm,
    key: key.key,
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
      tempo_confidence: round(raw.tempo_confidence, 4),
      mode: raw.mode,
      tuning_cents: round(key.tuningCents, 1),
      duration_seconds: round(durationSeconds, 3),
    },
    analysis_version: ANALYSIS_VERSION,
  };
}

/** Decodes `file` with ffmpeg (DecodeError when it cannot) and analyses it. */
export async function analyzeFile(
  file: string,
  options: { ffmpegPath?: string } = {},
): Promise<SongAnalysis> {
  const samples = await decodeAudio(file, {
    sampleRate: ANALYSIS_SAMPLE_RATE,
    ffmpegPath: options.ffmpegPath,
  });
  return analyzeSamples(samples, ANALYSIS_SAMPLE_RATE);
}
