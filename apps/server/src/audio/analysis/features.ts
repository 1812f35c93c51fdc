/**
 * Energy, danceability and valence on 0-1000, from the raw features the analyser measures.
 * These are OUR estimates with documented formulas (docs/metrics.md, "Audio analysis"), not
 * Spotify's values: each is a weighted sum of features mapped to 0-1 by fixed, named ranges, so
 * a value can be explained from the features stored beside it. FEATURES_VERSION changes whenever
 * a formula or range here changes (it is part of ANALYSIS_VERSION).
 */

export const FEATURES_VERSION = 'features v1';

export interface RawFeatures {
  loudness_db: number;
  onset_rate: number;
  spectral_centroid_hz: number;
  spectral_flatness: number;
  rhythm_regularity: number;
  tempo_confidence: number;
  key_strength: number;
  /** 1 major, 0 minor, 0.5 unknown. */
  mode: number;
}

const clamp01 = (value: number) => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0);

/** −40 LUFS (very quiet) → 0, −6 LUFS (loud modern master) → 1. */
export const loudnessScore = (lufs: number) => clamp01((lufs + 40) / 34);
/** 0 onsets per second → 0, 8 or more (busy sixteenths) → 1. */
export const onsetScore = (rate: number) => clamp01(rate / 8);
/** Brightness on a log scale: 400 Hz (dull) → 0, 4000 Hz (bright, cymbals) → 1. */
export const brightnessScore = (hz: number) => (hz > 0 ? clamp01(Math.log2(hz / 400) / Math.log2(10)) : 0);
/** Noisiness: flatness 0 (pure tones) → 0, 0.3 or more (distortion, noise, cymbals) → 1. */
export const noisinessScore = (flatness: number) => clamp01(flatness / 0.3);
/** How well a tempo suits West Coast Swing: 1 over 80-120 BPM, 0 at half or double that. */
export function wcsTempoScore(bpm: number | null): number {
  if (bpm === null) return 0;
  const octaves = bpm < 80 ? Math.log2(80 / bpm) : bpm > 120 ? Math.log2(bpm / 120) : 0;
  return clamp01(1 - octaves);
}
/** Tempo as liveliness: 60 BPM → 0, 140 BPM → 1. */
export const tempoScore = (bpm: number | null) => (bpm === null ? 0 : clamp01((bpm - 60) / 80));
/** Major and clearly tonal → 1, minor and clearly tonal → 0, unclear → 0.5. */
export const modeScore = (mode: number, keyStrength: number) =>
  clamp01(0.5 + (mode - 0.5) * clamp01(keyStrength / 0.8));

const round = (value: number) => Math.round(1000 * clamp01(value));

/** energy = 1000 × (0.45 loudness + 0.25 onsets + 0.20 brightness + 0.10 noisiness) */
export function energyOf(f: RawFeatures): number {
  return round(
    0.45 * loudnessScore(f.loudness_db) +
      0.25 * onsetScore(f.onset_rate) +
      0.2 * brightnessScore(f.spectral_centroid_hz) +
      0.1 * noisinessScore(f.spectral_flatness),
  );
}

/** danceability = 1000 × (0.45 regularity + 0.25 tempo confidence + 0.30 WCS tempo fit) */
export function danceabilityOf(f: RawFeatures, bpm: number | null): number {
  return round(
    0.45 * clamp01(f.rhythm_regularity) + 0.25 * clamp01(f.tempo_confidence) + 0.3 * wcsTempoScore(bpm),
  );
}

/** valence = 1000 × (0.40 mode + 0.25 tempo + 0.20 brightness + 0.15 loudness) */
export function valenceOf(f: RawFeatures, bpm: number | null): number {
  return round(
    0.4 * modeScore(f.mode, f.key_strength) +
      0.25 * tempoScore(bpm) +
      0.2 * brightnessScore(f.spectral_centroid_hz) +
      0.15 * loudnessScore(f.loudness_db),
  );
}
