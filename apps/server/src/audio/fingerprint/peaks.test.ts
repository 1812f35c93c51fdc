// Peaks: the landmarks must not move when the level changes (gain, a quieter microphone), must
// keep a fixed density, and silence must give none.
import { describe, expect, it } from 'vitest';
import {
  BINS_PER_OCTAVE,
  FRAME_SECONDS,
  HOP,
  MIN_HZ,
  QUERY_PEAKS,
  RANK_RADIUS,
  REFERENCE_PEAKS,
  SAMPLE_RATE,
} from './params.js';
import { extractPeakSets, extractPeaks, keepDensity } from './peaks.js';
import { addNoise, scale, synthSong } from './synth.js';

describe('extractPeaks', () => {
  const song = synthSong(11, 20, SAMPLE_RATE);

  it('finds the same peaks after a gain change of -20 dB and +6 dB', () => {
    // Identical up to float32 rounding, which can only swap near-equal peaks of one neighbourhood.
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

  it("keeps a sustained tone under noise as peaks with 'band' whitening (not with 'bin')", () => {
    // A held 1 kHz tone in white noise at 0 dB: the tone stands 20 dB over the noise in its own
    // bins. Whitening each bin by its own mean would level it with the noise around it.
    const tone = new Float32Array(10 * SAMPLE_RATE).map(
      (_, i) => 0.3 * Math.sin((2 * Math.PI * 1000 * i) / SAMPLE_RATE),
    );
    const noisy = addNoise(tone, 0, 5);
    const peaks = extractPeaks(noisy, QUERY_PEAKS, 'band');
    const at = BINS_PER_OCTAVE * Math.log2(1000 / MIN_HZ);
    const frames = new Set<number>();
    for (let i = 0; i < peaks.count; i++) if (Math.abs(peaks.f[i]! - at) < 0.5) frames.add(peaks.t[i]!);
    // A local maximum spans ±3 frames, so a held tone gives at most one peak every 4 frames (78
    // in 10 s). 43 here.
    expect(frames.size).toBeGreaterThan(10 / FRAME_SECONDS / 10);
    const flat = extractPeaks(noisy, QUERY_PEAKS, 'bin');
    expect(Array.from(flat.f).filter((f) => Math.abs(f - at) < 0.5).length).toBeLessThan(5);
  });

  it('keeps a fixed density: fewer than REFERENCE_PEAKS stronger ones around each, close to it on music', () => {
    const peaks = extractPeaks(song);
    const span = 2 * RANK_RADIUS + 1;
    // No window of `span` frames holds more than 2 × REFERENCE_PEAKS (each peak outranks the rest).
    for (let i = 0; i < peaks.count; i++) {
      let inWindow = 0;
      for (let j = i; j < peaks.count && peaks.t[j]! < peaks.t[i]! + span; j++) inWindow++;
      expect(inWindow).toBeLessThanOrEqual(2 * REFERENCE_PEAKS);
    }
    const perSecond = peaks.count / (peaks.frames * FRAME_SECONDS);
    const nominal = REFERENCE_PEAKS / (span * FRAME_SECONDS);
    expect(perSecond).toBeGreaterThan(nominal * 0.7);
    expect(perSecond).toBeLessThan(nominal * 1.6);
    // A query keeps more: a superset of the reference's peaks.
    const query = extractPeaks(song, QUERY_PEAKS);
    expect(query.count).toBeGreaterThan(peaks.count * 1.4);
    const queryKeys = new Set(Array.from({ length: query.count }, (_, i) => `${query.t[i]}:${query.f[i]}`));
    let kept = 0;
    for (let i = 0; i < peaks.count; i++) if (queryKeys.has(`${peaks.t[i]}:${peaks.f[i]}`)) kept++;
    expect(kept).toBe(peaks.count);
  });

  it('keeps, from a denser extraction, exactly the peaks a sparser one finds', () => {
    const dense = extractPeaks(song, 14);
    const sparse = extractPeaks(song, REFERENCE_PEAKS);
    const kept = keepDensity(dense, REFERENCE_PEAKS);
    expect(dense.count).toBeGreaterThan(sparse.count * 1.8);
    expect(Array.from(kept.t)).toEqual(Array.from(sparse.t));
    expect(Array.from(kept.f)).toEqual(Array.from(sparse.f));
  });

  it('picks both sets from one spectrogram exactly as two extractions do', () => {
    const noisy = addNoise(song, 5, 3);
    const { hashed, verified } = extractPeakSets(noisy, QUERY_PEAKS, 18);
    const bin = extractPeaks(noisy, QUERY_PEAKS, 'bin');
    const band = extractPeaks(noisy, 18, 'band');
    expect(verified.count).toBeGreaterThan(hashed.count);
    expect([Array.from(hashed.t), Array.from(hashed.f)]).toEqual([Array.from(bin.t), Array.from(bin.f)]);
    expect([Array.from(verified.t), Array.from(verified.f)]).toEqual([
      Array.from(band.t),
      Array.from(band.f),
    ]);
  });

  it('chooses the same peaks wherever the signal is cut (no block grid)', () => {
    const whole = extractPeaks(song);
    const key = (t: number, f: number) => `${t}:${f.toFixed(1)}`;
    const wholeKeys = new Set(Array.from({ length: whole.count }, (_, i) => key(whole.t[i]!, whole.f[i]!)));
    for (const cut of [3, 8, 11]) {
      const part = extractPeaks(song.subarray(cut * HOP));
      let same = 0;
      let inner = 0;
      for (let i = 0; i < part.count; i++) {
        // Away from the edges, where the neighbourhoods and the whitening are whole.
        if (part.t[i]! < 2 * RANK_RADIUS || part.t[i]! > part.frames - 2 * RANK_RADIUS) continue;
        inner++;
        if (wholeKeys.has(key(part.t[i]! + cut, part.f[i]!))) same++;
      }
      expect(same / inner).toBeGreaterThan(0.9);
    }
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
