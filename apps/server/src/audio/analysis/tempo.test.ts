import { describe, expect, it } from 'vitest';
import { analyzeSamples } from './index.js';
import { estimateTempo, foldIntoRange, TEMPO_RANGE_HIGH, TEMPO_RANGE_LOW } from './tempo.js';
import { chordProgression, drumPattern, mix, softChords, TEST_RATE, whiteNoise } from './test-signals.js';

const tempoOf = (samples: Float32Array) => analyzeSamples(samples, TEST_RATE).bpm;

describe('tempo', () => {
  it.each([77, 84, 91, 96, 103, 110, 117, 122, 128, 135])(
    'finds %d BPM in a straight rock pattern (kick, backbeat snare, eighth hi-hats)',
    (bpm) => {
      const found = tempoOf(drumPattern({ bpm, seconds: 30 }));
      expect(found).not.toBeNull();
      expect(Math.abs(found! - bpm)).toBeLessThanOrEqual(0.01 * bpm);
    },
  );

  it.each([72, 75, 80, 86])('keeps a %d BPM slow blues shuffle at its tempo, not double time', (bpm) => {
    const found = tempoOf(drumPattern({ bpm, seconds: 40, feel: 'shuffle' }));
    expect(found).not.toBeNull();
    expect(Math.abs(found! - bpm)).toBeLessThanOrEqual(0.01 * bpm);
  });

  it('does not halve a busy 132 BPM pattern with sixteenth hi-hats', () => {
    const found = tempoOf(drumPattern({ bpm: 132, seconds: 30, feel: 'sixteenths' }));
    expect(Math.abs(found! - 132)).toBeLessThanOrEqual(1.3);
  });

  it('folds tempi outside 70-140 into it and offers the other octave: 150 reads 75 (or 150), 68 reads 136 (or 68)', () => {
    const fast = analyzeSamples(drumPattern({ bpm: 150, seconds: 30 }), TEST_RATE);
    expect(Math.abs(fast.bpm! - 75)).toBeLessThanOrEqual(0.75);
    expect(Math.abs(fast.bpm_alt! - 150)).toBeLessThanOrEqual(1.5);
    const slow = analyzeSamples(drumPattern({ bpm: 68, seconds: 40, feel: 'shuffle' }), TEST_RATE);
    expect(Math.abs(slow.bpm! - 136)).toBeLessThanOrEqual(1.4);
    expect(Math.abs(slow.bpm_alt! - 68)).toBeLessThanOrEqual(0.7);
  });

  // The declared range holds for every input: tempi from 40 to 220 BPM (130-200 closely), in
  // every feel, read inside 70-140 in the right octave, with bpm_alt the octave next to it.
  const everyTempo = [
    ...[40, 47, 55, 62, 69, 70, 100, 139, 140, 141, 210, 220],
    ...Array.from({ length: 15 }, (_, i) => 130 + 5 * i),
  ];
  it.each(
    everyTempo.flatMap((bpm) =>
      (['straight', 'shuffle', 'quarters'] as const).map((feel) => [bpm, feel] as const),
    ),
  )('reads %d BPM (%s) inside 70-140, in its octave, with the other octave as bpm_alt', (bpm, feel) => {
    const result = analyzeSamples(drumPattern({ bpm, seconds: 30, feel }), TEST_RATE);
    expect(result.bpm).not.toBeNull();
    expect(result.bpm!).toBeGreaterThanOrEqual(TEMPO_RANGE_LOW);
    expect(result.bpm!).toBeLessThanOrEqual(TEMPO_RANGE_HIGH);
    const octaves = Math.log2(result.bpm! / bpm);
    expect(Math.abs(octaves - Math.round(octaves))).toBeLessThan(Math.log2(1.02));
    expect([result.bpm! * 2, result.bpm! / 2].some((alt) => Math.abs(alt - result.bpm_alt!) < 0.11)).toBe(
      true,
    );
  });

  // Onset envelopes at 50 frames per second: beats at 120 BPM with a 3:2 rival at 80 BPM almost as
  // salient, and a bass envelope of noise with pulses at 80 BPM, faint or clear.
  function threeTwoCase(bassPulse: number) {
    const fps = 50;
    const n = fps * 60;
    const pulses = (bpm: number, amplitude: number, out: Float64Array) => {
      for (let t = 0; t < n; t += (60 * fps) / bpm) out[Math.round(t)]! += amplitude;
    };
    const onset = new Float64Array(n);
    pulses(120, 1, onset);
    pulses(80, 0.8, onset);
    let seed = 7;
    const bass = new Float64Array(n).map(() => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    });
    pulses(80, bassPulse, bass);
    return estimateTempo(onset, fps, bass).bpm;
  }

  it('lets the bass overturn a 3:2 leader only when the bass repeats clearly', () => {
    // Bass salience at 80 BPM 0.07 (noise-level): the full envelope's 120 stands.
    expect(threeTwoCase(0.45)).toBe(120);
    // Bass salience 0.69: the bass's beat wins.
    expect(threeTwoCase(3)).toBe(80);
  });

  // No drums: soft-attack chords on every beat, whose partials beat inside each mel band (the mel
  // envelope's rhythm regularity 0.04-0.05, under the floor: "no pulse" before 2026-11-27).
  it.each([96, 108])('finds %d BPM in pitched music without drums (soft chords on the beat)', (bpm) => {
    const result = analyzeSamples(softChords({ bpm, seconds: 30 }), TEST_RATE);
    expect(result.bpm).not.toBeNull();
    expect(Math.abs(result.bpm! - bpm)).toBeLessThanOrEqual(0.01 * bpm);
    expect(result.features.rhythm_regularity).toBeGreaterThan(0.1);
  });

  // A held chord's partials beat at steady rates (C major: 0.4 Hz between the fifth and the bass's
  // sixth harmonic), which both onset envelopes repeat: 88.9 BPM before 2026-11-27.
  it.each([
    ['C', 30],
    ['G', 60],
    ['Am7', 30],
  ] as const)('finds no pulse in a held %s chord (%d s), with no beat in it', (chord, seconds) => {
    const result = analyzeSamples(
      chordProgression([chord], seconds, { secondsPerChord: seconds }),
      TEST_RATE,
    );
    expect(result.bpm).toBeNull();
    expect(result.bpm_alt).toBeNull();
  });

  // One short click a beat over a held chord: its onsets are 3-4 % of the frames, which the 95th
  // percentile of novelty missed (0.025 at 72 BPM, "no pulse" for an hour on 2026-11-27).
  it.each([72, 88])('keeps the pulse of a sparse click at %d BPM over a held chord', (bpm) => {
    const period = 60 / bpm;
    const clicks = Float32Array.from({ length: 20 * TEST_RATE }, (_, i) => {
      const t = i / TEST_RATE;
      return 0.5 * Math.exp(-(t % period) * 40) * Math.sin(2 * Math.PI * 1500 * t);
    });
    const result = analyzeSamples(
      mix(clicks, chordProgression(['C'], 20, { secondsPerChord: 20 })),
      TEST_RATE,
    );
    expect(result.bpm).not.toBeNull();
    expect(Math.abs(result.bpm! - bpm)).toBeLessThanOrEqual(0.01 * bpm);
  });

  it('keeps the pulse of drums at a fifth of the level of a held chord', () => {
    const drums = drumPattern({ bpm: 100, seconds: 30 }).map((value) => 0.2 * value);
    const result = analyzeSamples(
      mix(drums, chordProgression(['C'], 30, { secondsPerChord: 30 })),
      TEST_RATE,
    );
    expect(Math.abs(result.bpm! - 100)).toBeLessThanOrEqual(1);
  });

  it('still finds no pulse in white noise through the pitched-music envelope', () => {
    expect(analyzeSamples(whiteNoise(30), TEST_RATE).bpm).toBeNull();
    expect(analyzeSamples(whiteNoise(30, 0.05, 9), TEST_RATE).bpm).toBeNull();
  });

  it('folds any tempo into the range: foldIntoRange', () => {
    for (let bpm = 20; bpm <= 400; bpm += 0.7) {
      const folded = foldIntoRange(bpm);
      expect(folded).toBeGreaterThanOrEqual(TEMPO_RANGE_LOW);
      expect(folded).toBeLessThanOrEqual(TEMPO_RANGE_HIGH);
      const octaves = Math.log2(folded / bpm);
      expect(Math.abs(octaves - Math.round(octaves))).toBeLessThan(1e-9);
    }
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
