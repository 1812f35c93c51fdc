import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYSIS_SAMPLE_RATE, ANALYSIS_VERSION, analyzeFile, analyzeSamples, DecodeError } from './index.js';
import { chordProgression, drumPattern, mix, TEST_RATE, wavFile, whiteNoise } from './test-signals.js';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-analysis-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe('analyzeSamples', () => {
  it('gives nulls for silence and for no samples at all, not made-up values', () => {
    for (const samples of [new Float32Array(TEST_RATE * 10), new Float32Array(0)]) {
      const result = analyzeSamples(samples, TEST_RATE);
      expect(result).toMatchObject({
        bpm: null,
        key: null,
        camelot: null,
        energy: null,
        danceability: null,
        valence: null,
      });
      expect(result.features.loudness_db).toBe(-100);
      expect(result.analysis_version).toBe(ANALYSIS_VERSION);
    }
  });

  it('finds neither tempo nor key in white noise, and calls it undanceable', () => {
    const result = analyzeSamples(whiteNoise(30), TEST_RATE);
    expect(result.bpm).toBeNull();
    expect(result.key).toBeNull();
    expect(result.features.tempo_confidence).toBeLessThan(0.1);
    expect(result.danceability).toBeLessThan(100);
    for (const value of Object.values(result.features)) expect(Number.isFinite(value)).toBe(true);
    expect(result.energy).toBeGreaterThan(500);
  });

  it('keeps every score in 0-1000 and every feature finite', () => {
    const song = mix(
      drumPattern({ bpm: 104, seconds: 30, gain: 0.3 }),
      chordProgression(['G', 'C', 'D7', 'G'], 30),
    );
    const result = analyzeSamples(song, TEST_RATE);
    for (const score of [result.energy, result.danceability, result.valence]) {
      expect(score).not.toBeNull();
      expect(Number.isInteger(score)).toBe(true);
      expect(score!).toBeGreaterThanOrEqual(0);
      expect(score!).toBeLessThanOrEqual(1000);
    }
    for (const value of Object.values(result.features)) expect(Number.isFinite(value)).toBe(true);
    expect(result.key).toBe('G major');
    expect(result.camelot).toBe('9B');
  });

  it('gives more energy to a louder and to a denser pattern', () => {
    const energy = (gain: number, feel: 'quarters' | 'straight' | 'sixteenths') =>
      analyzeSamples(drumPattern({ bpm: 100, seconds: 20, gain, feel }), TEST_RATE).energy!;
    expect(energy(0.5, 'straight')).toBeGreaterThan(energy(0.1, 'straight'));
    expect(energy(0.1, 'straight')).toBeGreaterThan(energy(0.02, 'straight'));
    expect(energy(0.3, 'sixteenths')).toBeGreaterThan(energy(0.3, 'straight'));
    expect(energy(0.3, 'straight')).toBeGreaterThan(energy(0.3, 'quarters'));
  });

  it('finds a steady groove more danceable than noise, and a major key happier than its minor', () => {
    const groove = analyzeSamples(drumPattern({ bpm: 100, seconds: 20 }), TEST_RATE).danceability!;
    expect(groove).toBeGreaterThan(600);
    const major = analyzeSamples(chordProgression(['C', 'F', 'G7', 'C'], 24), TEST_RATE);
    const minor = analyzeSamples(chordProgression(['Cm', 'Fm', 'G7', 'Cm'], 24), TEST_RATE);
    expect(major.features.mode).toBe(1);
    expect(minor.features.mode).toBe(0);
    expect(major.valence!).toBeGreaterThan(minor.valence!);
  });

  it('refuses a sample rate it cannot analyse', () => {
    expect(() => analyzeSamples(new Float32Array(100), 0)).toThrow(RangeError);
  });
});

describe('analyzeFile', () => {
  it('decodes a file with ffmpeg at the analysis rate and analyses it', async () => {
    const file = path.join(dir, 'groove.wav');
    // Written at 44.1 kHz: the decoder resamples to ANALYSIS_SAMPLE_RATE.
    const at22k = mix(
      drumPattern({ bpm: 118, seconds: 20, gain: 0.3 }),
      chordProgression(['Am', 'Dm', 'E7', 'Am'], 20),
    );
    const at44k = new Float32Array(at22k.length * 2);
    for (let i = 0; i < at44k.length; i++) at44k[i] = at22k[i >> 1]!;
    await fs.writeFile(file, wavFile(at44k, 44100));
    const result = await analyzeFile(file);
    expect(Math.abs(result.bpm! - 118)).toBeLessThanOrEqual(1.2);
    expect(result.key).toBe('A minor');
    expect(result.features.duration_seconds).toBeCloseTo(20, 1);
    expect(ANALYSIS_SAMPLE_RATE).toBe(22050);
  });

  it('throws DecodeError naming the file when it is not audio', async () => {
    const file = path.join(dir, 'broken.mp3');
    await fs.writeFile(file, 'this is not audio');
    await expect(analyzeFile(file)).rejects.toBeInstanceOf(DecodeError);
    await expect(analyzeFile(file)).rejects.toThrow(/broken\.mp3/);
  });
});

describe('ANALYSIS_VERSION', () => {
  it('names the fft.js version actually installed, the tempo range and the key profile', () => {
    const require = createRequire(import.meta.url);
    const fftVersion = (require('fft.js/package.json') as { version: string }).version;
    expect(ANALYSIS_VERSION).toContain(`fft.js ${fftVersion}`);
    expect(ANALYSIS_VERSION).toMatch(/tempo .*70-140/);
    expect(ANALYSIS_VERSION).toMatch(/key .*krumhansl/);
    expect(ANALYSIS_VERSION).toMatch(/features v\d+/);
  });
});
