/**
 * A mono 16-bit PCM WAV file built in memory: the demo's placeholder song files and the tests'
 * synthesised uploads (no audio files are committed).
 */
export function monoWav(
  sampleRate: number,
  sampleCount: number,
  sampleAt: (index: number) => number,
): Buffer {
  const dataBytes = sampleCount * 2;
  const buffer = Buffer.alloc(44 + dataBytes);
  buffer.write('RIFF', 0);
  buffer.writeUInt32LE(36 + dataBytes, 4);
  buffer.write('WAVE', 8);
  buffer.write('fmt ', 12);
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(1, 22); // mono
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36);
  buffer.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < sampleCount; i += 1) {
    const value = Math.max(-32768, Math.min(32767, Math.round(sampleAt(i))));
    buffer.writeInt16LE(value, 44 + i * 2);
  }
  return buffer;
}

/** A 16-bit WAV file of float samples (-1..1, clipped outside). */
export function floatWav(samples: Float32Array, sampleRate: number): Buffer {
  return monoWav(sampleRate, samples.length, (i) => Math.max(-1, Math.min(1, samples[i]!)) * 32767);
}
