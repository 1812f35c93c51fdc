/**
 * Synthesised "songs" for recognition tests (no audio is committed): each seed gives a distinct
 * piece with a texture of its own (plucked melody, chord pads with an arpeggio, or noise-burst
 * percussion over a bass line), so songs differ the way music does rather than as pure tones.
 * Also WAV writing, a room-ish distortion and Opus/WebM encoding with ffmpeg (as browsers upload).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import { floatWav } from '../../audio/wav.js';

const run = promisify(execFile);

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const midiHz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

function addNote(
  out: Float32Array,
  rate: number,
  at: number,
  seconds: number,
  hz: number,
  amp: number,
  decay: number,
) {
  const start = Math.round(at * rate);
  const length = Math.round(seconds * rate);
  for (let i = 0; i < length && start + i < out.length; i += 1) {
    const time = i / rate;
    const envelope = Math.min(1, time * 150) * Math.exp(-decay * time);
    let sample = 0;
    for (let harmonic = 1; harmonic <= 4; harmonic += 1)
      sample += Math.sin(2 * Math.PI * hz * harmonic * time) / harmonic;
    out[start + i]! += amp * envelope * sample;
  }
}

/** `seconds` of song `seed` at `rate` Hz, mono, peak about 0.6. */
export function synthSong(seed: number, seconds: number, rate = 22050): Float32Array {
  const next = random(seed);
  const out = new Float32Array(Math.round(seconds * rate));
  const texture = seed % 3;
  const beat = 0.4 + next() * 0.25;
  // A bass line under every texture.
  for (let t = 0; t < seconds; t += beat * 2)
    addNote(out, rate, t, beat * 2, midiHz(36 + Math.floor(next() * 12)), 0.12, 2);
  if (texture === 0) {
    // Plucked melody in two voices.
    for (let voice = 0; voice < 2; voice += 1) {
      for (let t = 0; t < seconds; ) {
        const length = 0.12 + next() * 0.35;
        addNote(out, rate, t, length + 0.3, midiHz(60 + Math.floor(next() * 30)), 0.12, 4 + next() * 5);
        t += length;
      }
    }
  } else if (texture === 1) {
    // Chord pads with a fast arpeggio on top.
    for (let t = 0; t < seconds; t += beat * 4) {
      const root = 55 + Math.floor(next() * 12);
      for (const step of [0, 4, 7]) addNote(out, rate, t, beat * 4, midiHz(root + step), 0.07, 0.8);
      for (let a = 0; a < 8; a += 1)
        addNote(
          out,
          rate,
          t + (a * beat) / 2,
          beat / 2,
          midiHz(root + 12 + [0, 4, 7, 12][a % 4]! + Math.floor(next() * 3)),
          0.09,
          6,
        );
    }
  } else {
    // Noise-burst percussion (band-limited by a one-pole filter) and a sparse lead.
    let low = 0;
    for (let t = 0; t < seconds; t += beat / 2) {
      const start = Math.round(t * rate);
      const length = Math.round(0.08 * rate);
      const amp = 0.15 + next() * 0.2;
      for (let i = 0; i < length && start + i < out.length; i += 1) {
        const white = next() * 2 - 1;
        low += 0.3 * (white - low);
        out[start + i]! += amp * (white - low) * Math.exp((-i / rate) * 30);
      }
      if (next() < 0.5) addNote(out, rate, t, beat, midiHz(64 + Math.floor(next() * 24)), 0.1, 5);
    }
  }
  let peak = 0;
  for (const sample of out) peak = Math.max(peak, Math.abs(sample));
  if (peak > 0) for (let i = 0; i < out.length; i += 1) out[i]! *= 0.6 / peak;
  return out;
}

/** Joins signals end to end. */
export function concat(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** What a microphone in a room adds: a few echoes, a gain change and noise at `snrDb`. */
export function roomize(samples: Float32Array, rate: number, snrDb: number, seed = 1): Float32Array {
  const next = random(seed);
  const out = new Float32Array(samples.length);
  const echoes = [
    [Math.round(0.013 * rate), 0.4],
    [Math.round(0.031 * rate), 0.25],
    [Math.round(0.067 * rate), 0.15],
  ] as const;
  let power = 0;
  for (let i = 0; i < samples.length; i += 1) {
    let value = samples[i]!;
    for (const [delay, gain] of echoes) if (i >= delay) value += gain * samples[i - delay]!;
    out[i] = value * 0.5;
    power += out[i]! * out[i]!;
  }
  const noiseRms = Math.sqrt(power / Math.max(1, samples.length)) / 10 ** (snrDb / 20);
  for (let i = 0; i < out.length; i += 1) out[i]! += noiseRms * Math.sqrt(3) * (next() * 2 - 1);
  return out;
}

/** 16-bit PCM mono WAV bytes. */
export function wavBytes(samples: Float32Array, rate: number): Buffer {
  return floatWav(samples, rate);
}

export async function writeWav(file: string, samples: Float32Array, rate: number): Promise<void> {
  await fs.writeFile(file, wavBytes(samples, rate));
}

/** Opus at 128 kbit/s in WebM, as the browser recorder uploads, encoded by ffmpeg from a WAV. */
export async function webmOpus(wavFile: string, outFile: string, ffmpegPath = 'ffmpeg'): Promise<Buffer> {
  await run(ffmpegPath, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    wavFile,
    '-c:a',
    'libopus',
    '-b:a',
    '128k',
    outFile,
  ]);
  return fs.readFile(outFile);
}

/**
 * A FLAC file of `samples` with title and artist tags (as a store's download carries them),
 * written by ffmpeg from a temporary WAV beside it.
 */
export async function taggedFlac(
  file: string,
  samples: Float32Array,
  rate: number,
  tags: { title?: string; artist?: string },
  ffmpegPath = 'ffmpeg',
): Promise<void> {
  const wav = `${file}.source.wav`;
  await writeWav(wav, samples, rate);
  const metadata = Object.entries(tags).flatMap(([key, value]) => ['-metadata', `${key}=${value}`]);
  try {
    await run(ffmpegPath, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      wav,
      ...metadata,
      '-c:a',
      'flac',
      file,
    ]);
  } finally {
    await fs.rm(wav, { force: true });
  }
}
