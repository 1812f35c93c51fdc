/**
 * Music-like test signals for the engine's tests: seeded random melodies of harmonic notes with
 * attack/decay envelopes over a bass line, so peaks and hashes behave as with music, not as with
 * pure tones. Also the distortions tests need (gain, noise at a given SNR, resampling).
 */

/** Mulberry32: a small seeded PRNG, so every test signal is reproducible. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `seconds` of a seeded melody at `sampleRate` (peak amplitude about 0.5). */
export function synthSong(seed: number, seconds: number, sampleRate: number): Float32Array {
  const random = rng(seed);
  const out = new Float32Array(Math.round(seconds * sampleRate));
  const voices = 3;
  for (let v = 0; v < voices; v++) {
    let pos = 0;
    while (pos < out.length) {
      const noteSeconds = 0.12 + random() * 0.35;
      const len = Math.round(noteSeconds * sampleRate);
      // MIDI 48..96 (130 Hz .. 2 kHz), lower for the bass voice.
      const midi = v === 0 ? 36 + Math.floor(random() * 12) : 55 + Math.floor(random() * 36);
      const hz = 440 * 2 ** ((midi - 69) / 12);
      const amp = 0.08 + random() * 0.1;
      const decay = 3 + random() * 6;
      for (let i = 0; i < len && pos + i < out.length; i++) {
        const time = i / sampleRate;
        const env = Math.min(1, time * 200) * Math.exp(-decay * time);
        let s = 0;
        for (let h = 1; h <= 4; h++) s += Math.sin(2 * Math.PI * hz * h * time) / h;
        out[pos + i]! += amp * env * s;
      }
      pos += len;
    }
  }
  return out;
}

export function scale(samples: Float32Array, gain: number): Float32Array {
  return samples.map((x) => x * gain);
}

/** Adds white noise so that signal power / noise power is `snrDb`. */
export function addNoise(samples: Float32Array, snrDb: number, seed: number): Float32Array {
  const random = rng(seed);
  let power = 0;
  for (const x of samples) power += x * x;
  power /= Math.max(1, samples.length);
  const sigma = Math.sqrt(power / 10 ** (snrDb / 10));
  return samples.map((x) => {
    // Box-Muller
    const u = Math.max(1e-12, random());
    const n = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
    return x + sigma * n;
  });
}

/** Plays `samples` `factor` times faster (pitch and tempo together), by linear interpolation. */
export function speedUp(samples: Float32Array, factor: number): Float32Array {
  const out = new Float32Array(Math.floor(samples.length / factor));
  for (let i = 0; i < out.length; i++) {
    const x = i * factor;
    const j = Math.floor(x);
    const frac = x - j;
    out[i] = (samples[j] ?? 0) * (1 - frac) + (samples[j + 1] ?? 0) * frac;
  }
  return out;
}
