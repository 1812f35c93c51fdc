/**
 * Music-like test audio for the specs that let the browser's fake microphone play a library song
 * (recognition.spec.ts, venue.spec.ts): a seeded melody of plucked harmonic notes over a bass line,
 * whose spectral peaks fingerprint like music, and its 16-bit PCM WAV file.
 */

/** A seeded melody of plucked harmonic notes over a bass line (music-like peaks, not a tone). */
export function synthSong(seed: number, seconds: number, rate: number): Float32Array {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = new Float32Array(seconds * rate);
  const note = (at: number, length: number, midi: number, amp: number, decay: number) => {
    const hz = 440 * 2 ** ((midi - 69) / 12);
    const start = Math.round(at * rate);
    for (let i = 0; i < Math.round(length * rate) && start + i < out.length; i += 1) {
      const time = i / rate;
      const envelope = Math.min(1, time * 150) * Math.exp(-decay * time);
      let sample = 0;
      for (let harmonic = 1; harmonic <= 4; harmonic += 1)
        sample += Math.sin(2 * Math.PI * hz * harmonic * time) / harmonic;
      out[start + i]! += amp * envelope * sample;
    }
  };
  for (let t = 0; t < seconds; t += 1) note(t, 1, 36 + Math.floor(random() * 12), 0.12, 2);
  for (let voice = 0; voice < 2; voice += 1) {
    for (let t = 0; t < seconds; ) {
      const length = 0.12 + random() * 0.35;
      note(t, length + 0.3, 60 + Math.floor(random() * 30), 0.12, 4 + random() * 5);
      t += length;
    }
  }
  let peak = 0;
  for (const sample of out) peak = Math.max(peak, Math.abs(sample));
  for (let i = 0; i < out.length; i += 1) out[i]! *= 0.6 / peak;
  return out;
}

export function wav(samples: Float32Array, rate: number): Buffer {
  const buffer = Buffer.alloc(44 + samples.length * 2);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + samples.length * 2, 4);
  buffer.write('WAVEfmt ', 8, 'ascii');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(rate, 24);
  buffer.writeUInt32LE(rate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(samples.length * 2, 40);
  for (let i = 0; i < samples.length; i += 1)
    buffer.writeInt16LE(Math.round(samples[i]! * 32767), 44 + i * 2);
  return buffer;
}
