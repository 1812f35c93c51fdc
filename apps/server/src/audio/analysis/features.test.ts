import { describe, expect, it } from 'vitest';
import { danceabilityOf, energyOf, type RawFeatures, valenceOf, wcsTempoScore } from './features.js';

// The worked example of docs/metrics.md, "Audio analysis".
const popSong: RawFeatures = {
  loudness_db: -9.5,
  onset_rate: 3.2,
  spectral_centroid_hz: 1800,
  spectral_flatness: 0.06,
  rhythm_regularity: 0.62,
  tempo_confidence: 0.58,
  key_strength: 0.82,
  mode: 1,
};

describe('energy, danceability and valence formulas', () => {
  it('compute the documented worked example', () => {
    expect(energyOf(popSong)).toBe(654);
    expect(danceabilityOf(popSong, 102)).toBe(724);
    expect(valenceOf(popSong, 102)).toBe(796);
  });

  it('make the same song in a minor key sadder, and slower and quieter less energetic', () => {
    const minor = { ...popSong, mode: 0 };
    expect(valenceOf(minor, 102)).toBe(396);
    const ballad = { ...popSong, loudness_db: -16, onset_rate: 1.5, spectral_centroid_hz: 900 };
    expect(energyOf(ballad)).toBeLessThan(energyOf(popSong));
    expect(valenceOf(ballad, 74)).toBeLessThan(valenceOf(popSong, 102));
  });

  it('fit the WCS tempo range: full between 80 and 120 BPM, none at half or double', () => {
    expect(wcsTempoScore(100)).toBe(1);
    expect(wcsTempoScore(80)).toBe(1);
    expect(wcsTempoScore(40)).toBe(0);
    expect(wcsTempoScore(240)).toBe(0);
    expect(wcsTempoScore(null)).toBe(0);
    expect(wcsTempoScore(70)).toBeCloseTo(1 - Math.log2(80 / 70), 6);
  });

  it('stay within 0-1000 for extreme or missing inputs', () => {
    const extreme: RawFeatures = {
      loudness_db: 10,
      onset_rate: 100,
      spectral_centroid_hz: 20000,
      spectral_flatness: 1,
      rhythm_regularity: 5,
      tempo_confidence: 5,
      key_strength: 1,
      mode: 1,
    };
    expect(energyOf(extreme)).toBe(1000);
    expect(danceabilityOf(extreme, 100)).toBe(1000);
    const nothing: RawFeatures = {
      ...extreme,
      loudness_db: -100,
      onset_rate: 0,
      spectral_centroid_hz: 0,
      spectral_flatness: 0,
    };
    expect(energyOf(nothing)).toBe(0);
    expect(valenceOf({ ...nothing, mode: 0, key_strength: 1 }, null)).toBe(0);
  });
});
