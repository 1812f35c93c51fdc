import { describe, expect, it } from 'vitest';
import { analyzeSamples } from './index.js';
import { drumPattern, TEST_RATE } from './test-signals.js';

const tempoOf = (samples: Float32Array) => analyzeSamples(samples, TEST_RATE).bpm;

describe('tempo', () => {
  it.each([70, 77, 84, 91, 96, 103, 110, 117, 122, 128, 135])(
    'finds %d BPM in a straight rock pattern (kick, backbeat snare, eighth hi-hats)',
    (bpm) => {
      const found = tempoOf(drumPattern({ bpm, seconds: 30 }));
      expect(found).not.toBeNull();
      expect(Math.abs(found! - bpm)).toBeLessThanOrEqual(0.01 * bpm);
    },
  );

  it.each([68, 72, 75, 80, 86])('keeps a %d BPM slow blues shuffle at its tempo, not double time', (bpm) => {
    const found = tempoOf(drumPattern({ bpm, seconds: 40, feel: 'shuffle' }));
    expect(found).not.toBeNull();
    expect(Math.abs(found! - bpm)).toBeLessThanOrEqual(0.01 * bpm);
  });

  it('does not halve a busy 132 BPM pattern with sixteenth hi-hats', () => {
    const found = tempoOf(drumPattern({ bpm: 132, seconds: 30, feel: 'sixteenths' }));
    expect(Math.abs(found! - 132)).toBeLessThanOrEqual(1.3);
  });

  it('folds tempi outside 70-135 into it: 150 BPM reads 75, 140 reads 70', () => {
    expect(Math.abs(tempoOf(drumPattern({ bpm: 150, seconds: 30 }))! - 75)).toBeLessThanOrEqual(0.75);
    expect(Math.abs(tempoOf(drumPattern({ bpm: 140, seconds: 30 }))! - 70)).toBeLessThanOrEqual(0.7);
  });

  it('measures to one decimal: 100.0 and 101.5 BPM come out within 0.3', () => {
    for (const bpm of [100, 101.5]) {
      const result = analyzeSamples(drumPattern({ bpm, seconds: 60, feel: 'quarters' }), TEST_RATE);
      expect(Math.abs(result.bpm! - bpm)).toBeLessThanOrEqual(0.3);
      expect(Number.isInteger(result.bpm! * 10)).toBe(true);
      expect(result.features.tempo_confidence).toBeGreaterThan(0.5);
      expect(result.features.rhythm_regularity).toBeGreaterThan(0.5);
    }
  });

  it('reports no tempo for a signal too short to hold a few beats', () => {
    const result = analyzeSamples(drumPattern({ bpm: 100, seconds: 0.5 }), TEST_RATE);
    expect(result.bpm).toBeNull();
    expect(result.features.tempo_confidence).toBe(0);
  });

  it('works at another sample rate (44.1 kHz decoded elsewhere)', () => {
    const at22k = drumPattern({ bpm: 112, seconds: 20 });
    // Upsample by 2 with linear interpolation: the same pattern at 44100 Hz.
    const at44k = new Float32Array(at22k.length * 2);
    for (let i = 0; i < at44k.length; i++) {
      const a = at22k[i >> 1]!;
      const b = at22k[Math.min(at22k.length - 1, (i >> 1) + 1)]!;
      at44k[i] = i % 2 === 0 ? a : (a + b) / 2;
    }
    expect(Math.abs(analyzeSamples(at44k, 44100).bpm! - 112)).toBeLessThanOrEqual(1.2);
  });
});
