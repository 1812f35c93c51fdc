// A second verification feature for a candidate key (issue 23; a measurement, not the engine's):
// Haitsma and Kalker's sub-fingerprints ("A Highly Robust Audio Fingerprinting System", ISMIR 2002,
// Philips Research). Per frame, 33 non-overlapping bands logarithmically spaced over 300-2000 Hz
// (their band, inside our 8 kHz signal's 4 kHz); bit m of frame n is 1 when
// E(n,m) - E(n,m+1) - (E(n-1,m) - E(n-1,m+1)) > 0, E the band's energy; 32 bits a frame. Their
// frames are 0.37 s (Hann) every 11.6 ms; here 0.368 s (2,944 samples, zero-padded to a 4,096 FFT)
// every HOP (32 ms), each centred where the engine's frame of that number is (params.ts: FFT_SIZE,
// HOP), so a key's offset in the engine's frames addresses these frames too. Two fingerprints are
// compared by their bit error rate (BER) over the window's frames at a key (warp, offset), as
// matcher.ts's verifyCandidate maps a query frame to the song's: query frame q to song frame
// round(anchor + (q - c) * scale), anchor = round(c * a) + offset, c the window's centre; for a
// warp with pitch the query's band edges are scaled by a (the song's frequency times a).
// 'log' is the same bit of the bands' log energies (a variant, measured beside the paper's).
// 'corr' is a band-energy correlation (the brief's other choice): the same bands' log energies
// (dB, stored in half-dB steps, one byte a band), each window's frames x bands centred by their
// band's and their frame's means over the compared frames (a room's or a phone's equaliser and
// the level taken out), the Pearson correlation of query and song at the key.
import FFT from 'fft.js';

export const HK_WINDOW = 2944;
const N = 4096;
const BANDS = 33;
const LOW_HZ = 300;
const HIGH_HZ = 2000;
/** Bins kept of each frame's spectrum: 150-3400 Hz covers the bands moved by a warp or a filler's shift. */
const KEEP_LO_HZ = 150;
const KEEP_HI_HZ = 3400;

/** The band edges (BANDS + 1, Hz) with every frequency times `scale`. */
export function bandEdges(scale = 1) {
  const edges = new Float64Array(BANDS + 1);
  for (let m = 0; m <= BANDS; m++) edges[m] = LOW_HZ * (HIGH_HZ / LOW_HZ) ** (m / BANDS) * scale;
  return edges;
}

let fft;
let hann;
/**
 * The power spectra of the frames of `samples` at `rate` (frame n centred at n * hop + fftSize / 2
 * of the engine's frames), bins KEEP_LO_HZ..KEEP_HI_HZ: { power, frames, k0, bins, valid } with
 * valid[n] 1 when frame n's window lies inside the signal.
 */
export function powerFrames(samples, { rate, hop, fftSize, frames }) {
  fft ??= new FFT(N);
  if (!hann) {
    hann = new Float64Array(HK_WINDOW);
    for (let i = 0; i < HK_WINDOW; i++) hann[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / HK_WINDOW);
  }
  const binHz = rate / N;
  const k0 = Math.floor(KEEP_LO_HZ / binHz);
  const k1 = Math.ceil(KEEP_HI_HZ / binHz);
  const bins = k1 - k0 + 1;
  const power = new Float32Array(frames * bins);
  const valid = new Uint8Array(frames);
  const input = new Float64Array(N);
  const out = new Float64Array(2 * N);
  for (let n = 0; n < frames; n++) {
    const from = n * hop + fftSize / 2 - HK_WINDOW / 2;
    valid[n] = from >= 0 && from + HK_WINDOW <= samples.length ? 1 : 0;
    input.fill(0);
    for (let i = 0; i < HK_WINDOW; i++) {
      const at = from + i;
      if (at >= 0 && at < samples.length) input[i] = samples[at] * hann[i];
    }
    fft.realTransform(out, input);
    const row = n * bins;
    for (let k = k0; k <= k1; k++) power[row + k - k0] = out[2 * k] ** 2 + out[2 * k + 1] ** 2;
  }
  return { power, frames, k0, bins, binHz, valid };
}

/** Each band's energy in every frame (frames x BANDS): the spectrum integrated over its edges (bins cut at the edge by their share). */
export function bandEnergies(spec, edges) {
  const { power, frames, k0, bins, binHz } = spec;
  const weights = [];
  for (let m = 0; m < BANDS; m++) {
    const lo = edges[m] / binHz;
    const hi = edges[m + 1] / binHz;
    const list = [];
    for (let k = Math.floor(lo - 0.5); k <= Math.ceil(hi + 0.5); k++) {
      const share = Math.min(hi, k + 0.5) - Math.max(lo, k - 0.5);
      if (share > 0 && k >= k0 && k < k0 + bins) list.push([k - k0, share]);
    }
    weights.push(list);
  }
  const energy = new Float64Array(frames * BANDS);
  for (let n = 0; n < frames; n++) {
    const row = n * bins;
    for (let m = 0; m < BANDS; m++) {
      let sum = 0;
      for (const [k, w] of weights[m]) sum += power[row + k] * w;
      energy[n * BANDS + m] = sum;
    }
  }
  return energy;
}

/**
 * The sub-fingerprints of band energies (frames x BANDS), `order` the frames' order (song frame n
 * of the result is energy frame order(n)); valid[n] 1 when frame n and n - 1 are both inside the
 * signal. { lin, log, valid, db, dbValid }: the paper's bits of the energies, and of their
 * logarithms; the log energies in half-dB steps (dbValid[n] when frame n is inside the signal).
 */
export function subFingerprints(energy, frames, validFrames, order = (n) => n) {
  const lin = new Uint32Array(frames);
  const log = new Uint32Array(frames);
  const valid = new Uint8Array(frames);
  const db = new Uint8Array(frames * BANDS);
  const dbValid = new Uint8Array(frames);
  const floor = 1e-12;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < energy.length; i++) max = Math.max(max, energy[i]);
  const top = 10 * Math.log10(max + floor);
  for (let n = 0; n < frames; n++) {
    const a = order(n);
    if (a < 0 || a >= validFrames.length || !validFrames[a]) continue;
    dbValid[n] = 1;
    for (let m = 0; m < BANDS; m++) {
      const level = 10 * Math.log10(energy[a * BANDS + m] + floor) - top + 127.5;
      db[n * BANDS + m] = Math.max(0, Math.min(255, Math.round(2 * level)));
    }
  }
  for (let n = 1; n < frames; n++) {
    const a = order(n);
    const b = order(n - 1);
    if (a < 0 || b < 0 || a >= validFrames.length || b >= validFrames.length) continue;
    if (!validFrames[a] || !validFrames[b]) continue;
    valid[n] = 1;
    let x = 0;
    let y = 0;
    for (let m = 0; m < BANDS - 1; m++) {
      const e = (i, j) => energy[i * BANDS + j];
      const d = e(a, m) - e(a, m + 1) - (e(b, m) - e(b, m + 1));
      if (d > 0) x |= 1 << m;
      const l =
        Math.log(e(a, m) + floor) -
        Math.log(e(a, m + 1) + floor) -
        (Math.log(e(b, m) + floor) - Math.log(e(b, m + 1) + floor));
      if (l > 0) y |= 1 << m;
    }
    lin[n] = x >>> 0;
    log[n] = y >>> 0;
  }
  return { lin, log, valid, db, dbValid };
}

const popcount = (v) => {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};

/** Frames a window must compare for its BER or correlation to count (else 0.5 and 0: nothing known). */
const MIN_FRAMES = 100;

/**
 * BER of the query's bits (`q`: { lin, log, valid } of the window's frames [0, window)) against the
 * song's (`ref`) with query frame i at song frame round(at0 + (i - c) * scale). Returns
 * { lin, log, frames }.
 */
export function berAt(q, ref, c, at0, scale) {
  let errLin = 0;
  let errLog = 0;
  let n = 0;
  const frames = ref.valid.length;
  for (let i = 0; i < q.valid.length; i++) {
    if (!q.valid[i]) continue;
    const x = Math.round(at0 + (i - c) * scale);
    if (x < 0 || x >= frames || !ref.valid[x]) continue;
    errLin += popcount((q.lin[i] ^ ref.lin[x]) >>> 0);
    errLog += popcount((q.log[i] ^ ref.log[x]) >>> 0);
    n++;
  }
  if (n < MIN_FRAMES) return { lin: 0.5, log: 0.5, frames: n };
  return { lin: errLin / (32 * n), log: errLog / (32 * n), frames: n };
}

const qRows = new Float64Array(4096 * BANDS);
const rRows = new Float64Array(4096 * BANDS);
const bandMean = new Float64Array(BANDS);
/** Centres `rows` (n x BANDS) by their bands' and then their frames' means; returns the sum of squares. */
function centre(rows, n) {
  bandMean.fill(0);
  for (let i = 0, k = 0; i < n; i++) for (let m = 0; m < BANDS; m++, k++) bandMean[m] += rows[k];
  for (let m = 0; m < BANDS; m++) bandMean[m] /= n;
  let squares = 0;
  for (let i = 0, k = 0; i < n; i++, k += BANDS) {
    let frameMean = 0;
    for (let m = 0; m < BANDS; m++) {
      rows[k + m] -= bandMean[m];
      frameMean += rows[k + m];
    }
    frameMean /= BANDS;
    for (let m = 0; m < BANDS; m++) {
      rows[k + m] -= frameMean;
      squares += rows[k + m] * rows[k + m];
    }
  }
  return squares;
}

/**
 * The correlation of the query's band levels (`q.db`) with the song's at a key (frames mapped as
 * berAt maps them), each side centred by its bands' and frames' means over the compared frames.
 */
export function corrAt(q, ref, c, at0, scale) {
  const frames = ref.dbValid.length;
  const qdb = q.db;
  const rdb = ref.db;
  let n = 0;
  for (let i = 0; i < q.dbValid.length; i++) {
    if (!q.dbValid[i]) continue;
    const x = Math.round(at0 + (i - c) * scale);
    if (x < 0 || x >= frames || !ref.dbValid[x]) continue;
    const to = n * BANDS;
    const qi = i * BANDS;
    const rx = x * BANDS;
    for (let m = 0; m < BANDS; m++) {
      qRows[to + m] = qdb[qi + m];
      rRows[to + m] = rdb[rx + m];
    }
    n++;
  }
  if (n < MIN_FRAMES) return 0;
  const xx = centre(qRows, n);
  const yy = centre(rRows, n);
  let xy = 0;
  for (let k = 0; k < n * BANDS; k++) xy += qRows[k] * rRows[k];
  return xx > 0 && yy > 0 ? xy / Math.sqrt(xx * yy) : 0;
}

/** Time scales and offsets tried around a key, as verifyCandidate settles one (matcher.ts: SCALE_STEPS, SETTLE_ORDER). */
const SCALE_STEPS = [0, -0.005, 0.005, -0.01, 0.01];
const SETTLE = [0, -1, 1, -2, 2];

/**
 * The BERs and correlations at a key { a, offset } (its scale `a`, its offset; the query's bits
 * already those of its pitch): at the key itself, and the best of the settles around it (each
 * feature's own): the BERs' least of the 25 (5 scales x 5 offsets), the correlation's greatest of
 * the 5 offsets.
 */
export function scoreKey(q, ref, c, a, offset) {
  const anchor = Math.round(c * a) + offset;
  const at = berAt(q, ref, c, anchor, a);
  let lin = 1;
  let log = 1;
  for (const step of SCALE_STEPS)
    for (const d of SETTLE) {
      const r = berAt(q, ref, c, anchor + d, a + step);
      lin = Math.min(lin, r.lin);
      log = Math.min(log, r.log);
    }
  // (the correlation, 30 times a BER's cost, is settled over the offsets alone: it varies slowly)
  const corr = corrAt(q, ref, c, anchor, a);
  let bestCorr = corr;
  for (const d of SETTLE) if (d !== 0) bestCorr = Math.max(bestCorr, corrAt(q, ref, c, anchor + d, a));
  return { lin: at.lin, log: at.log, bestLin: lin, bestLog: log, corr, bestCorr };
}
