// Audio helpers of the recognition benchmark: ffmpeg in and out of float PCM, WAV writing,
// a seeded PRNG, pink noise at a given signal-to-noise ratio, and a synthetic room impulse
// response (exponentially decaying noise, RT60 about 0.9 s) for ffmpeg's afir convolution.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// fft.js is loaded when first used: the benchmarks import this module before they install the
// project's packages (a fresh clone has no node_modules yet).
const require = createRequire(import.meta.url);

export const RATE = 16000;

/** A PA system's chain as ffmpeg filters: highpass 120 Hz, +5 dB at 250 Hz, -6 dB at 3 kHz, lowpass 7 kHz, compressor 6:1. */
export const ROOM =
  'highpass=f=120,equalizer=f=250:t=q:w=1:g=5,equalizer=f=3000:t=q:w=1:g=-6,lowpass=f=7000,acompressor=threshold=0.08:ratio=6:attack=5:release=80:makeup=2';

export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs ffmpeg and returns mono float PCM at RATE from its stdout. */
export function ffmpegToPcm(ffmpeg, args) {
  const out = execFileSync(
    ffmpeg,
    ['-v', 'error', '-nostdin', ...args, '-ac', '1', '-ar', String(RATE), '-f', 'f32le', 'pipe:1'],
    { maxBuffer: 2 ** 31 },
  );
  const samples = new Float32Array(Math.floor(out.byteLength / 4));
  new Uint8Array(samples.buffer).set(out.subarray(0, samples.length * 4));
  return samples;
}

/** Writes mono 32-bit float WAV. */
export function writeWav(file, samples, rate = RATE) {
  const header = Buffer.alloc(44);
  const bytes = samples.length * 4;
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + bytes, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(3, 20); // IEEE float
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(32, 34);
  header.write('data', 36);
  header.writeUInt32LE(bytes, 40);
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, header);
  fs.writeSync(fd, Buffer.from(samples.buffer, samples.byteOffset, bytes));
  fs.closeSync(fd);
}

/** Pink noise (Paul Kellett's filter on seeded white noise). */
export function pinkNoise(length, seed) {
  const random = rng(seed);
  const out = new Float32Array(length);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let b3 = 0;
  let b4 = 0;
  let b5 = 0;
  let b6 = 0;
  for (let i = 0; i < length; i++) {
    const white = random() * 2 - 1;
    b0 = 0.99886 * b0 + white * 0.0555179;
    b1 = 0.99332 * b1 + white * 0.0750759;
    b2 = 0.969 * b2 + white * 0.153852;
    b3 = 0.8665 * b3 + white * 0.3104856;
    b4 = 0.55 * b4 + white * 0.5329522;
    b5 = -0.7616 * b5 - white * 0.016898;
    out[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + white * 0.5362;
    b6 = white * 0.115926;
  }
  return out;
}

const power = (x) => {
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += x[i] * x[i];
  return sum / Math.max(1, x.length);
};

/**
 * Adds crowd-like noise (pink noise, amplitude-modulated at a talking rate) at `snrDb` relative
 * to the signal's mean power.
 */
export function addNoise(signal, snrDb, seed) {
  const noise = pinkNoise(signal.length, seed);
  const random = rng(seed ^ 0x5bd1e995);
  // Slow random level changes (0.5-1.5) every 250 ms: voices come and go.
  const step = Math.round(RATE / 4);
  let level = 1;
  let next = 1;
  for (let i = 0; i < noise.length; i++) {
    if (i % step === 0) {
      level = next;
      next = 0.5 + random();
    }
    const frac = (i % step) / step;
    noise[i] *= level * (1 - frac) + next * frac;
  }
  const gain = Math.sqrt(power(signal) / (power(noise) * 10 ** (snrDb / 10)));
  const out = new Float32Array(signal.length);
  let peak = 0;
  for (let i = 0; i < out.length; i++) {
    out[i] = signal[i] + gain * noise[i];
    peak = Math.max(peak, Math.abs(out[i]));
  }
  if (peak > 0.99) for (let i = 0; i < out.length; i++) out[i] *= 0.99 / peak;
  return out;
}

/**
 * A room impulse response: direct sound, four early reflections, then a decaying noise tail
 * (RT60 `rt60` s) scaled so that the reverberant energy is `drrDb` below the direct and early
 * sound (0 dB: as much reverb as direct sound, a microphone some metres from the speakers).
 */
export function roomImpulse(file, seed, { rt60 = 0.9, drrDb = 0 } = {}) {
  const random = rng(seed);
  const length = Math.round(RATE * rt60 * 1.2);
  const ir = new Float32Array(length);
  ir[0] = 1;
  for (const [ms, gain] of [
    [11, 0.6],
    [17, 0.5],
    [29, 0.4],
    [41, 0.35],
  ]) {
    ir[Math.round((ms / 1000) * RATE)] += gain * (random() < 0.5 ? -1 : 1);
  }
  const start = Math.round(0.045 * RATE);
  const direct = power(ir.subarray(0, start)) * start;
  const decay = Math.log(1000) / (rt60 * RATE);
  const tail = new Float32Array(length - start);
  for (let i = 0; i < tail.length; i++) tail[i] = (random() * 2 - 1) * Math.exp(-decay * i);
  const gain = Math.sqrt(direct / (power(tail) * tail.length * 10 ** (drrDb / 10)));
  for (let i = 0; i < tail.length; i++) ir[start + i] += gain * tail[i];
  if (file) writeWav(file, ir);
  return ir;
}

/**
 * Convolution with an impulse response (FFT overlap-add), the output scaled back to the input's
 * power: reverberation without clipping. ffmpeg's afir changes the gain and clips.
 */
export function convolve(signal, ir) {
  const block = 1 << 16;
  let size = 1;
  while (size < block + ir.length) size <<= 1;
  const FFT = require('fft.js');
  const fft = new FFT(size);
  const irIn = new Float64Array(size);
  irIn.set(ir);
  const irSpec = fft.createComplexArray();
  fft.realTransform(irSpec, irIn);
  fft.completeSpectrum(irSpec);
  const out = new Float32Array(signal.length + ir.length - 1);
  const input = new Float64Array(size);
  const spec = fft.createComplexArray();
  const back = fft.createComplexArray();
  for (let start = 0; start < signal.length; start += block) {
    input.fill(0);
    const n = Math.min(block, signal.length - start);
    for (let i = 0; i < n; i++) input[i] = signal[start + i];
    fft.realTransform(spec, input);
    fft.completeSpectrum(spec);
    for (let k = 0; k < size; k++) {
      const re = spec[2 * k] * irSpec[2 * k] - spec[2 * k + 1] * irSpec[2 * k + 1];
      const im = spec[2 * k] * irSpec[2 * k + 1] + spec[2 * k + 1] * irSpec[2 * k];
      spec[2 * k] = re;
      spec[2 * k + 1] = im;
    }
    fft.inverseTransform(back, spec);
    const m = Math.min(size, out.length - start);
    for (let i = 0; i < m; i++) out[start + i] += back[2 * i];
  }
  const result = out.subarray(0, signal.length);
  const gain = Math.sqrt(power(signal) / Math.max(1e-20, power(result)));
  for (let i = 0; i < result.length; i++) result[i] *= gain;
  return result;
}

/**
 * Ten-second queries of the benchmark's tracks as a room hears them: `positions` random starts per
 * track (seeded, the same every run), through ROOM with crowd noise at `snrDb`, written as WAVs
 * into `work`. `truth` is the track's song id in the index (its position + 1) or null for a track
 * outside it.
 */
export function roomQueries({ inIndex, outOfIndex, positions, snrDb, work, ffmpeg }) {
  const random = rng(42);
  const queries = [];
  for (const [k, track] of [...inIndex, ...outOfIndex].entries()) {
    for (let p = 0; p < positions; p++) {
      const start = 3 + random() * Math.max(0, track.duration - 3 - 11 * 1.08);
      const samples = ffmpegToPcm(ffmpeg, ['-ss', String(start), '-t', '10', '-i', track.file, '-af', ROOM]);
      const file = path.join(work, `query-${k}-${p}.wav`);
      writeWav(file, addNoise(samples.subarray(0, 10 * RATE), snrDb, 7 + p));
      queries.push({
        file,
        truth: k < inIndex.length ? k + 1 : null,
        name: `${track.id} at ${start.toFixed(0)} s`,
      });
    }
  }
  return queries;
}
