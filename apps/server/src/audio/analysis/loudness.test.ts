import { describe, expect, it } from 'vitest';
import { integratedLoudness, LOUDNESS_FLOOR_DB } from './loudness.js';

const sine = (hz: number, amplitude: number, seconds: number, rate: number) => {
  const out = new Float32Array(Math.round(seconds * rate));
  for (let i = 0; i < out.length; i++) out[i] = amplitude * Math.sin((2 * Math.PI * hz * i) / rate);
  return out;
};

describe('integratedLoudness (ITU-R BS.1770)', () => {
  it('reads a full-scale 997 Hz sine at −3.0 LUFS and one at −20 dBFS at −23.0, at any sample rate', () => {
    for (const rate of [22050, 44100, 48000]) {
      expect(integratedLoudness(sine(997, 1, 10, rate), rate)).toBeCloseTo(-3.01, 1);
      expect(integratedLoudness(sine(997, 0.1, 10, rate), rate)).toBeCloseTo(-23.01, 1);
    }
  });

  it('gates out silence: a tone with long silent gaps reads as the tone', () => {
    const rate = 22050;
    const gapped = new Float32Array(rate * 20);
    gapped.set(sine(997, 0.1, 5, rate), 0);
    gapped.set(sine(997, 0.1, 5, rate), rate * 15);
    expect(integratedLoudness(gapped, rate)).toBeCloseTo(-23.01, 0);
  });

  it('weights the lowest bass down (K-weighting): 30 Hz reads quieter than 1 kHz at the same level', () => {
    expect(integratedLoudness(sine(30, 0.1, 5, 22050), 22050)).toBeLessThan(-25);
  });

  it('returns the floor for silence and for nothing', () => {
    expect(integratedLoudness(new Float32Array(22050 * 5), 22050)).toBe(LOUDNESS_FLOOR_DB);
    expect(integratedLoudness(new Float32Array(0), 22050)).toBe(LOUDNESS_FLOOR_DB);
  });
});
