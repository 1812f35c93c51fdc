/**
 * Every parameter of the fingerprint engine in one place. FINGERPRINT_VERSION names them, so a
 * change here re-indexes the outdated songs (songs.fingerprint_version) instead of silently mixing
 * hashes of two algorithms in one index.
 */

/** Rate the engine decodes to: speech-band music content up to 4 kHz is enough for landmarks. */
export const SAMPLE_RATE = 8000;
/** STFT window (128 ms) and hop (32 ms) in samples. */
export const FFT_SIZE = 1024;
export const HOP = 256;
/** Seconds per STFT frame; hash times are in frames. */
export const FRAME_SECONDS = HOP / SAMPLE_RATE;
/** Band searched for peaks: below, room modes and phone microphones ruin the bass; above, little survives. */
export const MIN_HZ = 200;
export const MAX_HZ = 3600;
/** Log-frequency resolution of the hashes: bins per octave (1/32 octave = 2.2%). */
export const BINS_PER_OCTAVE = 32;
/** A peak must be the maximum of this neighbourhood (± frames, ± FFT bins). */
export const PEAK_TIME_RADIUS = 3;
export const PEAK_FREQ_RADIUS = 6;
/** Peaks kept per block of frames, the strongest first: a fixed density whatever the loudness. */
export const PEAK_BLOCK_FRAMES = 16;
export const PEAKS_PER_BLOCK = 9;
/** Targets paired with each anchor (the next ones in time in its zone); triplets are pairs of them. */
export const FANOUT = 4;
/** Largest time step inside a triplet, in frames (6 bits), after warping. */
export const MAX_DT = 63;
/** Largest log-frequency step between anchor and target, in bins (6 bits signed). */
export const MAX_DF = 31;

/**
 * Warps tried on a query: time scaled by `a` (tempo), and for speed changes the log-frequency
 * shifted by the same factor. Covers ±8% with a 1% step.
 */
export interface Warp {
  /** Query time × a = reference time. */
  a: number;
  /** True when pitch moved with tempo (vinyl/CDJ speed); false for time-stretching (key lock). */
  pitch: boolean;
}

function buildWarps(): Warp[] {
  const warps: Warp[] = [{ a: 1, pitch: false }];
  for (let step = 1; step <= 8; step++) {
    for (const sign of [1, -1]) {
      const a = 1 + (sign * step) / 100;
      warps.push({ a, pitch: false }, { a, pitch: true });
    }
  }
  return warps;
}

export const WARPS: readonly Warp[] = buildWarps();

/** Votes (within ±1 frame of one offset) a 10 s window needs before a song counts as heard. */
export const MIN_VOTES = 6;

export const FINGERPRINT_VERSION = `tri2-sr${SAMPLE_RATE}-n${FFT_SIZE}-h${HOP}-f${MIN_HZ}-${MAX_HZ}-b${BINS_PER_OCTAVE}-p${PEAKS_PER_BLOCK}x${PEAK_BLOCK_FRAMES}-r${PEAK_TIME_RADIUS}x${PEAK_FREQ_RADIUS}-fo${FANOUT}`;
