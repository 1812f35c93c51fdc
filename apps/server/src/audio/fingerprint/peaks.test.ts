// Peaks: the landmarks must not move when the level changes (gain, a quieter microphone), must
// keep a fixed density, and silence must give none.
import { describe, expect, it } from 'vitest';
import { FRAME_SECONDS, PEAK_BLOCK_FRAMES, PEAKS_PER_BLOCK, SAMPLE_RATE } from './params.js';
import { extractPeaks } from './peaks.js';
import { scale, synthSong } from './synth.js';

describe('extractPeaks', () => {
  const song = synthSong(11, 20, SAMPLE_RATE);

  it('finds the same peaks after a gain change of -20 dB and +6 dB', () => {
    // Identical up to float32 rounding, which can only swap near-equal peaks at a block's cut.
    const reference = extractPeaks(song);
    const key = (p: ReturnType<typeof extractPeaks>, i: number) => `${p.t[i]}:${p.f[i]!.toFixed(2)}`;
    const referenceKeys = new Set(Array.from({ length: reference.count }, (_, i) => key(reference, i)));
    for (const gain of [0.1, 2]) {
      const peaks = extractPeaks(scale(song, gain));
      expect(Math.abs(peaks.count - reference.count)).toBeLessThanOrEqual(reference.count * 0.01);
      let same = 0;
      for (let i = 0; i < peaks.count; i++) if (referenceKeys.has(key(peaks, i))) same++;
      expect(same / reference.count).toBeGreaterThan(0.98);
    }
  });

  it('keeps a fixed density: at most PEAKS_PER_BLOCK per block, close to it on music', () => {
    const peaks = extractPeaks(song);
    const blocks = Math.ceil(peaks.frames / PEAK_BLOCK_FRAMES);
    expect(peaks.count).toBeLessThanOrEqual(blocks * PEAKS_PER_BLOCK);
    expect(peaks.count).toBeGreaterThan(blocks * PEAKS_PER_BLOCK * 0.8);
    const perSecond = peaks.count / (peaks.frames * FRAME_SECONDS);
    expect(perSecond).toBeGreaterThan(10);
  });

  it('returns frames in ascending order and frequencies inside the band', () => {
    const peaks = extractPeaks(song);
    for (let i = 1; i < peaks.count; i++) expect(peaks.t[i]!).toBeGreaterThanOrEqual(peaks.t[i - 1]!);
    for (const f of peaks.f) {
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThan(140);
    }
  });

  it('finds nothing in silence or in a signal shorter than one window', () => {
    expect(extractPeaks(new Float32Array(SAMPLE_RATE * 5)).count).toBe(0);
    expect(extractPeaks(song.subarray(0, 500)).count).toBe(0);
  });
});
