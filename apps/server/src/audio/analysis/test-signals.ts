/**
 * Synthesised test signals for the analyser's unit tests: drum patterns at exact tempi, chord
 * progressions in known keys, noise. Deterministic (seeded noise), so a failing test fails the
 * same way every time; no audio file is committed.
 */

import { floatWav } from '../wav.js';

export const TEST_RATE = 22050;

/** A seeded uniform noise source in -1..1 (a linear congruential generator). */
export function noiseSource(seed = 1): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state / 4294967296) * 2 - 1;
  };
}

function addKick(out: Float32Array, at: number, gain: number) {
  const length = Math.round(0.25 * TEST_RATE);
  let phase = 0;
  for (let i = 0; i < length && at + i < out.length; i++) {
    const t = i / TEST_RATE;
    phase += (2 * Math.PI * (50 + 80 * Math.exp(-t * 30))) / TEST_RATE;
    out[at + i] = out[at + i]! + gain * Math.sin(phase) * Math.exp(-t * 12);
  }
}

function addNoiseBurst(
  out: Float32Array,
  at: number,
  gain: number,
  decay: number,
  noise: () => number,
  bright: boolean,
) {
  const length = Math.round((5 / decay) * TEST_RATE);
  let previous = 0;
  for (let i = 0; i < length && at + i < out.length; i++) {
    const value = noise();
    // A first difference tilts white noise towards the treble (a hi-hat rather than a snare).
    const sample = bright ? value - previous : value;
    previous = value;
    out[at + i] = out[at + i]! + gain * sample * Math.exp((-i / TEST_RATE) * decay);
  }
}

export interface DrumOptions {
  bpm: number;
  seconds: number;
  gain?: number;
  /** 'straight': eighth-note hi-hats; 'shuffle': hi-hats on the 1st and 3rd triplet of each beat;
   * 'sixteenths': sixteenth-note hi-hats; 'quarters': hi-hat on the beat only. */
  feel?: 'straight' | 'shuffle' | 'sixteenths' | 'quarters';
  seed?: number;
}

/** Kick on 1 and 3, snare on 2 and 4 (the backbeat), hi-hats by `feel`. */
export function drumPattern({
  bpm,
  seconds,
  gain = 0.5,
  feel = 'straight',
  seed = 7,
}: DrumOptions): Float32Array {
  const out = new Float32Array(Math.round(seconds * TEST_RATE));
  const noise = noiseSource(seed);
  const beat = 60 / bpm;
  const hats = { straight: [0, 0.5], shuffle: [0, 2 / 3], sixteenths: [0, 0.25, 0.5, 0.75], quarters: [0] }[
    feel
  ];
  for (let n = 0; n * beat < seconds; n++) {
    const start = n * beat;
    if (n % 2 === 0) addKick(out, Math.round(start * TEST_RATE), gain);
    else addNoiseBurst(out, Math.round(start * TEST_RATE), gain * 0.6, 25, noise, false);
    for (const offset of hats) {
      addNoiseBurst(out, Math.round((start + offset * beat) * TEST_RATE), gain * 0.25, 60, noise, true);
    }
  }
  return out;
}

const NOTE_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];

/** MIDI note number → Hz, with an optional detuning of the whole band in cents. */
const hz = (midi: number, cents = 0) => 440 * 2 ** ((midi - 69 + cents / 100) / 12);

/** A chord as MIDI notes from a root name and quality: 'C', 'Am', 'G7', 'F#m', 'D5' (power chord). */
export function chordNotes(symbol: string, octave = 4): number[] {
  const match = /^([A-G]#?)(m?)(7?|5)$/.exec(symbol);
  if (!match) throw new Error(`unknown chord ${symbol}`);
  const root = 12 * (octave + 1) + NOTE_NAMES.indexOf(match[1]!);
  if (match[3] === '5') return [root, root + 7, root + 12];
  const notes = [root, root + (match[2] ? 3 : 4), root + 7];
  if (match[3]) notes.push(root + 10);
  return notes;
}

/**
 * A progression played as sustained organ-like tones (6 harmonics) with the root in the bass,
 * one chord per `secondsPerChord`, repeated to fill `seconds`.
 */
export function chordProgression(
  chords: string[],
  seconds: number,
  options: { cents?: number; secondsPerChord?: number } = {},
): Float32Array {
  const per = options.secondsPerChord ?? 2;
  const out = new Float32Array(Math.round(seconds * TEST_RATE));
  const cents = options.cents ?? 0;
  for (let c = 0; c * per < seconds; c++) {
    const symbol = chords[c % chords.length]!;
    const notes = chordNotes(symbol);
    notes.push(notes[0]! - 24);
    const start = Math.round(c * per * TEST_RATE);
    const length = Math.round(per * TEST_RATE);
    for (const note of notes) {
      const f = hz(note, cents);
      for (let h = 1; h <= 6; h++) {
        if (f * h > TEST_RATE / 2) break;
        const w = (2 * Math.PI * f * h) / TEST_RATE;
        const amplitude = 0.05 / h;
        for (let i = 0; i < length && start + i < out.length; i++) {
          // 20 ms attack and release, so chord changes do not click.
          const envelope = Math.min(1, i / 441, (length - i) / 441);
          out[start + i] = out[start + i]! + amplitude * envelope * Math.sin(w * i);
        }
      }
    }
  }
  return out;
}

/**
 * Pitched music without drums: a chord of 5 random notes of C major on every beat, each note
 * two strings detuned ±12 cents (they beat, like a piano's or a chorus's), 20 harmonics, a soft
 * 100 ms attack, and a 2 s ring past the next beat; no noise anywhere. Its beat is in the notes
 * alone, and the partials beating inside each mel band hide it from a mel-band envelope.
 */
export function softChords({ bpm, seconds, seed = 11 }: { bpm: number; seconds: number; seed?: number }) {
  const out = new Float32Array(Math.round(seconds * TEST_RATE));
  const random = noiseSource(seed);
  const scale = [0, 2, 4, 5, 7, 9, 11];
  const beat = 60 / bpm;
  const attack = 0.1 * TEST_RATE;
  for (let n = 0; n * beat < seconds; n++) {
    const start = Math.round(n * beat * TEST_RATE);
    const length = Math.min(out.length - start, Math.round((beat + 2) * TEST_RATE));
    const envelope = new Float64Array(length);
    for (let i = 0; i < length; i++) {
      envelope[i] = Math.min(1, i / attack, (length - i) / 1102) * Math.exp((-0.4 * i) / TEST_RATE);
    }
    for (let voice = 0; voice < 5; voice++) {
      const degree = Math.floor(((random() + 1) / 2) * 14);
      const note = 48 + 7 * voice + 12 * Math.floor(degree / 7) + scale[degree % 7]! - (voice === 0 ? 12 : 0);
      for (const cents of [-12, 12]) {
        const f = hz(note, cents);
        for (let h = 1; h <= 20 && f * h < TEST_RATE / 2 - 500; h++) {
          // A sine by the recurrence s[i+1] = 2 cos(w) s[i] - s[i-1]: one multiply-add a sample.
          const w = (2 * Math.PI * f * h) / TEST_RATE;
          const c = 2 * Math.cos(w);
          let before = 0;
          let now = Math.sin(w);
          const amplitude = 0.03 / h;
          for (let i = 0; i < length; i++) {
            out[start + i] = out[start + i]! + amplitude * envelope[i]! * before;
            const next = c * now - before;
            before = now;
            now = next;
          }
        }
      }
    }
  }
  return out;
}

export function whiteNoise(seconds: number, gain = 0.3, seed = 3): Float32Array {
  const noise = noiseSource(seed);
  const out = new Float32Array(Math.round(seconds * TEST_RATE));
  for (let i = 0; i < out.length; i++) out[i] = gain * noise();
  return out;
}

/** Sample-wise sum of signals (the shorter ones padded with silence). */
export function mix(...signals: Float32Array[]): Float32Array {
  const out = new Float32Array(Math.max(...signals.map((s) => s.length)));
  for (const signal of signals) for (let i = 0; i < signal.length; i++) out[i] = out[i]! + signal[i]!;
  return out;
}

/** A 16-bit PCM mono WAV file of `samples`, for tests that go through ffmpeg. */
export function wavFile(samples: Float32Array, sampleRate = TEST_RATE): Buffer {
  return floatWav(samples, sampleRate);
}
