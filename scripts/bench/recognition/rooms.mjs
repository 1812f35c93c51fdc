// Rooms of the recognition benchmark: a recording of a dance hall made from a clean mix, by one of
// several distinct rooms, each built from its own parameters and, between the tuning rooms and the
// held-out rooms, by different methods:
//
// - the PA: ffmpeg filters on the music (equalisation, compression, limiting);
// - the crowd: babble of 5-20 talkers (speech from espeak-ng, random syllables, many voices,
//   pitches and speeds, each talker's level drifting), shuffling feet (filtered noise bursts) and
//   cheering (swells of many voices shouting and broadband noise), mixed at a signal-to-noise
//   ratio against the PA's music;
// - the hall: multi-tap echoes (up to 350 ms) and diffuse reverberation (RT60 0.4-1.8 s), the
//   direct sound weaker than the reverberation for a microphone far from the speakers. Tuning
//   rooms convolve with a noise-tail impulse response (echoes as its taps); held-out rooms run a
//   feedback delay network (8 lines, Householder matrix) and ffmpeg's aecho for their echoes;
// - the microphone: its band (phone 300-3,400 Hz up to full) and gain control, as ffmpeg filters.
//
// Parameters are chosen on the tuning rooms; the held-out rooms are for reporting only.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { convolve, ffmpegToPcm, pinkNoise, RATE, rng, writeWav } from './audio.mjs';

/**
 * The rooms. `method`: 'ir' (noise-tail impulse response with the echoes as taps) or 'fdn'
 * (feedback delay network + aecho). `drrDb`: direct-to-reverberant ratio (negative: far).
 */
export const ROOMS = [
  {
    name: 'T1 club, near',
    split: 'tuning',
    method: 'ir',
    rt60: 0.6,
    drrDb: 4,
    echoes: [
      [45, 0.35],
      [95, 0.2],
    ],
    pa: 'highpass=f=60,equalizer=f=100:t=q:w=1:g=6,acompressor=threshold=0.1:ratio=4:attack=10:release=120:makeup=2',
    mic: 'highpass=f=80,lowpass=f=12000',
    talkers: 8,
    shuffle: 0.5,
    cheers: 0,
  },
  {
    name: 'T2 hall, phone far',
    split: 'tuning',
    method: 'ir',
    rt60: 1.2,
    drrDb: -3,
    echoes: [
      [120, 0.3],
      [250, 0.2],
    ],
    pa: 'highpass=f=120,equalizer=f=250:t=q:w=1:g=5,equalizer=f=3000:t=q:w=1:g=-6,lowpass=f=7000,acompressor=threshold=0.08:ratio=6:attack=5:release=80:makeup=2',
    mic: 'highpass=f=300,lowpass=f=3400,acompressor=threshold=0.05:ratio=8:makeup=3',
    talkers: 12,
    shuffle: 0.3,
    cheers: 2,
  },
  {
    name: 'T3 gym, slap echo',
    split: 'tuning',
    method: 'ir',
    rt60: 1.6,
    drrDb: 0,
    echoes: [[300, 0.45]],
    pa: 'highpass=f=90,equalizer=f=2000:t=q:w=2:g=4,alimiter=limit=0.3:level=false',
    mic: 'highpass=f=150,lowpass=f=7000',
    talkers: 15,
    shuffle: 1,
    cheers: 1,
  },
  {
    name: 'H1 ballroom, far',
    split: 'held-out',
    method: 'fdn',
    rt60: 1.8,
    drrDb: -6,
    echoes: [
      [180, 0.35],
      [350, 0.25],
    ],
    pa: 'highpass=f=80,equalizer=f=150:t=q:w=1:g=4,equalizer=f=4000:t=q:w=1:g=3,acompressor=threshold=0.06:ratio=5:attack=8:release=150:makeup=2,alimiter=limit=0.5:level=false',
    mic: 'highpass=f=60',
    talkers: 20,
    shuffle: 0.5,
    cheers: 3,
  },
  {
    name: 'H2 hotel hall, phone',
    split: 'held-out',
    method: 'fdn',
    rt60: 1.0,
    drrDb: 0,
    echoes: [
      [60, 0.3],
      [130, 0.25],
    ],
    pa: 'highpass=f=100,equalizer=f=300:t=q:w=1:g=4,acompressor=threshold=0.1:ratio=3:makeup=1.5',
    mic: 'highpass=f=300,lowpass=f=3400,dynaudnorm=f=250:g=15',
    talkers: 10,
    shuffle: 1,
    cheers: 0,
  },
  {
    name: 'H3 small bar, loud PA',
    split: 'held-out',
    method: 'fdn',
    rt60: 0.4,
    drrDb: 6,
    echoes: [[25, 0.5]],
    pa: 'highpass=f=70,equalizer=f=80:t=q:w=1:g=8,acompressor=threshold=0.03:ratio=12:attack=2:release=50:makeup=4,alimiter=limit=0.25:level=false',
    mic: 'highpass=f=100,lowpass=f=8000',
    talkers: 5,
    shuffle: 0.2,
    cheers: 1,
  },
  {
    name: 'H4 gym, far, echo',
    split: 'held-out',
    method: 'fdn',
    rt60: 1.4,
    drrDb: -3,
    echoes: [[350, 0.4]],
    pa: 'highpass=f=150,equalizer=f=1000:t=q:w=1:g=-4,lowpass=f=6000,acompressor=threshold=0.05:ratio=10:attack=3:release=60:makeup=3',
    mic: 'highpass=f=200,lowpass=f=5000,acompressor=threshold=0.1:ratio=4:makeup=2',
    talkers: 15,
    shuffle: 1,
    cheers: 2,
  },
];

const power = (x, from = 0, to = x.length) => {
  let sum = 0;
  for (let i = from; i < to; i++) sum += x[i] * x[i];
  return sum / Math.max(1, to - from);
};

// ---------------------------------------------------------------------------------------------
// The crowd.

/** Syllables the talkers say: not words of any language, so no talker says the same thing twice. */
const ONSETS = ['b', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'sh', 'ch', 'tr', 'st', ''];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou', 'ee', 'oo'];
const VOICES = ['en', 'en-us', 'en-gb-scotland', 'fr', 'de', 'es', 'it', 'nl', 'pt', 'sv'];
const VARIANTS = ['m1', 'm2', 'm3', 'm4', 'm5', 'm7', 'f1', 'f2', 'f3', 'f4', 'f5'];
/** Talkers made once and reused (each talker of a room takes one, at a random point, looped). */
const TALKER_POOL = 24;
const TALKER_SECONDS = 150;

function sentence(random) {
  const words = [];
  const count = 4 + Math.floor(random() * 10);
  for (let w = 0; w < count; w++) {
    let word = '';
    const syllables = 1 + Math.floor(random() * 3);
    for (let s = 0; s < syllables; s++)
      word += ONSETS[Math.floor(random() * ONSETS.length)] + NUCLEI[Math.floor(random() * NUCLEI.length)];
    words.push(word);
  }
  return `${words.join(' ')}${random() < 0.3 ? '?' : '.'}`;
}

/**
 * The pool of talkers: TALKER_POOL streams of TALKER_SECONDS of speech with pauses (espeak-ng,
 * one voice each), made once into <cacheDir>/talkers.
 */
export function talkerPool(cacheDir, { ffmpeg, espeak = 'espeak-ng', log = () => {} }) {
  const dir = path.join(cacheDir, 'talkers');
  fs.mkdirSync(dir, { recursive: true });
  const talkers = [];
  for (let k = 0; k < TALKER_POOL; k++) {
    const file = path.join(dir, `talker-${k}.f32`);
    if (!fs.existsSync(file)) {
      if (k === 0) log(`speaking ${TALKER_POOL} talkers with ${espeak}`);
      const random = rng(9000 + k);
      const voice = `${VOICES[k % VOICES.length]}+${VARIANTS[(k * 7) % VARIANTS.length]}`;
      const speed = 140 + Math.floor(random() * 80);
      const pitch = 20 + Math.floor(random() * 60);
      // Sentences separated by pauses of 0.2-2 s (SSML breaks), until the stream is long enough.
      const parts = [];
      for (let i = 0; i < 60; i++)
        parts.push(sentence(random), `<break time="${200 + Math.floor(random() * 1800)}ms"/>`);
      const wav = path.join(dir, `talker-${k}.wav`);
      execFileSync(espeak, [
        '-m',
        '-v',
        voice,
        '-s',
        String(speed),
        '-p',
        String(pitch),
        '-w',
        wav,
        `<speak>${parts.join(' ')}</speak>`,
      ]);
      const samples = ffmpegToPcm(ffmpeg, ['-i', wav]);
      fs.rmSync(wav);
      const out = samples.subarray(0, Math.min(samples.length, TALKER_SECONDS * RATE));
      fs.writeFileSync(file, Buffer.from(out.buffer, out.byteOffset, out.byteLength));
    }
    const bytes = fs.readFileSync(file);
    talkers.push(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
  }
  return talkers;
}

/** One-pole filters in place: lowpass at `hz` (or highpass with `high`). */
function onePole(x, hz, high = false) {
  const a = Math.exp((-2 * Math.PI * hz) / RATE);
  let y = 0;
  for (let i = 0; i < x.length; i++) {
    y = (1 - a) * x[i] + a * y;
    x[i] = high ? x[i] - y : y;
  }
  return x;
}

/**
 * The crowd of a room for `length` samples: `talkers` talkers (each a pool stream from a random
 * point, level drifting 0.3-1.5 every 2 s), shuffling feet (bursts of band-limited noise at 2-4
 * a second, scaled by `shuffle`) and on average `cheers` cheers per 10 minutes (3-6 s swells of
 * voices shouting and noise).
 */
export function crowdNoise(length, room, pool, seed) {
  const random = rng(seed);
  const out = new Float32Array(length);
  for (let k = 0; k < room.talkers; k++) {
    const talker = pool[Math.floor(random() * pool.length)];
    let at = Math.floor(random() * talker.length);
    const step = 2 * RATE;
    let level = 0.3 + 1.2 * random();
    let next = 0.3 + 1.2 * random();
    for (let i = 0; i < length; i++) {
      if (i % step === 0) {
        level = next;
        next = 0.3 + 1.2 * random();
      }
      const frac = (i % step) / step;
      out[i] += talker[at] * (level * (1 - frac) + next * frac);
      at = at + 1 === talker.length ? 0 : at + 1;
    }
  }
  const babble = power(out) || 1;
  if (room.shuffle > 0) {
    const noise = onePole(onePole(pinkNoise(length, seed + 1), 2500), 80, true);
    const env = new Float32Array(length);
    // Steps: 30-80 ms bursts at random, 2-4 a second.
    for (let i = 0; i < length; ) {
      const burst = Math.round((0.03 + 0.05 * random()) * RATE);
      const gain = 0.5 + random();
      for (let j = 0; j < burst && i + j < length; j++) env[i + j] = gain * Math.sin((Math.PI * j) / burst);
      i += Math.round((0.25 + 0.25 * random()) * RATE);
    }
    const shuffle = new Float32Array(length);
    for (let i = 0; i < length; i++) shuffle[i] = noise[i] * env[i];
    const g = Math.sqrt((room.shuffle * 0.5 * babble) / (power(shuffle) || 1));
    for (let i = 0; i < length; i++) out[i] += g * shuffle[i];
  }
  if (room.cheers > 0) {
    // Cheers: per 10 minutes on average, each a swell of 3-6 s of shouting talkers and noise.
    const noise = onePole(pinkNoise(length, seed + 2), 4000);
    const meanGap = (600 / room.cheers) * RATE;
    for (let at = Math.floor(random() * meanGap); at < length; at += Math.floor((0.5 + random()) * meanGap)) {
      const n = Math.min(length - at, Math.round((3 + 3 * random()) * RATE));
      for (let v = 0; v < 6; v++) {
        const talker = pool[Math.floor(random() * pool.length)];
        const from = Math.floor(random() * (talker.length - n));
        for (let j = 0; j < n; j++) out[at + j] += 2.5 * Math.sin((Math.PI * j) / n) * talker[from + j];
      }
      const g = Math.sqrt(babble) * 3;
      for (let j = 0; j < n; j++) out[at + j] += g * Math.sin((Math.PI * j) / n) * noise[at + j];
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The hall.

/** A noise-tail impulse response with the echoes as taps (tuning rooms). */
export function impulseWithEchoes(room, seed) {
  const random = rng(seed);
  const longestEcho = Math.max(0, ...room.echoes.map(([ms]) => ms)) / 1000;
  const length = Math.round(RATE * (room.rt60 * 1.2 + longestEcho));
  const ir = new Float32Array(length);
  ir[0] = 1;
  for (const [ms, gain] of room.echoes)
    ir[Math.round((ms / 1000) * RATE)] += gain * (random() < 0.5 ? -1 : 1);
  const early = Math.round(0.02 * RATE);
  const direct = power(ir) * ir.length;
  const decay = Math.log(1000) / (room.rt60 * RATE);
  const tail = new Float32Array(length - early);
  for (let i = 0; i < tail.length; i++) tail[i] = (random() * 2 - 1) * Math.exp(-decay * i);
  // The far microphone also hears the tail duller: air and walls absorb the highs.
  onePole(tail, room.drrDb < 0 ? 3000 : 6000);
  const gain = Math.sqrt(direct / (power(tail) * tail.length * 10 ** (room.drrDb / 10)));
  for (let i = 0; i < tail.length; i++) ir[early + i] += gain * tail[i];
  return ir;
}

/**
 * Diffuse reverberation by a feedback delay network (8 lines of mutually prime lengths, a
 * Householder matrix, each line's gain set for RT60, a lowpass in the loop), added to the dry
 * signal at the room's direct-to-reverberant ratio (held-out rooms).
 */
export function fdnReverb(x, room) {
  const lengths = [1031, 1327, 1523, 1801, 2003, 2287, 2543, 2797].map((n) => Math.round((n * RATE) / 16000));
  const lines = lengths.map((n) => new Float32Array(n));
  const pos = new Int32Array(8);
  const gains = lengths.map((n) => 10 ** ((-3 * n) / (room.rt60 * RATE)));
  const damp = Math.exp((-2 * Math.PI * (room.drrDb < 0 ? 3000 : 6000)) / RATE);
  const lp = new Float64Array(8);
  const wet = new Float32Array(x.length);
  const outs = new Float64Array(8);
  for (let i = 0; i < x.length; i++) {
    let sum = 0;
    for (let k = 0; k < 8; k++) {
      outs[k] = lines[k][pos[k]];
      sum += outs[k];
    }
    wet[i] = sum;
    const h = (2 / 8) * sum;
    for (let k = 0; k < 8; k++) {
      lp[k] = (1 - damp) * ((outs[k] - h) * gains[k]) + damp * lp[k];
      lines[k][pos[k]] = lp[k] + x[i] * 0.5;
      pos[k] = pos[k] + 1 === lengths[k] ? 0 : pos[k] + 1;
    }
  }
  const g = Math.sqrt(power(x) / ((power(wet) || 1) * 10 ** (room.drrDb / 10)));
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = x[i] + g * wet[i];
  return out;
}

/** ffmpeg filters on samples at RATE (a PA, a microphone, echoes). */
function filtered(ffmpeg, samples, filter, scratch) {
  writeWav(scratch, samples);
  const out = ffmpegToPcm(ffmpeg, ['-i', scratch, '-af', filter]).subarray(0, samples.length);
  fs.rmSync(scratch);
  return out;
}

/** aecho's taps for the room's echoes (held-out rooms): delays in ms, decays. */
const aecho = (room) =>
  `aecho=in_gain=1:out_gain=${(1 / (1 + room.echoes.reduce((s, [, g]) => s + g, 0))).toFixed(3)}:delays=${room.echoes.map(([ms]) => ms).join('|')}:decays=${room.echoes.map(([, g]) => g).join('|')}`;

/**
 * Music at RATE as the room's microphone records it, with the crowd at `snrDb` (its power against
 * the PA's music). `crowd` is crowdNoise for the same length; `scratch` a path for ffmpeg's input.
 */
export function inRoom(music, room, crowd, snrDb, { ffmpeg, scratch, seed = 1 }) {
  const pa = filtered(ffmpeg, music, room.pa, scratch);
  const g = Math.sqrt(power(pa) / ((power(crowd) || 1) * 10 ** (snrDb / 10)));
  const mixed = new Float32Array(pa.length);
  for (let i = 0; i < pa.length; i++) mixed[i] = pa[i] + g * crowd[i];
  let hall;
  if (room.method === 'ir') hall = convolve(mixed, impulseWithEchoes(room, seed));
  else hall = fdnReverb(filtered(ffmpeg, mixed, aecho(room), scratch), room);
  const out = filtered(ffmpeg, hall, room.mic, scratch);
  let peak = 0;
  for (let i = 0; i < out.length; i++) peak = Math.max(peak, Math.abs(out[i]));
  if (peak > 0.99) for (let i = 0; i < out.length; i++) out[i] *= 0.99 / peak;
  return out;
}
