// Filler songs that pad a benchmark's index to a library's size: real tracks' peaks
// time-reversed and moved 6-20 log-frequency bins, so they weigh on the index like music (the
// same peak and hash statistics) but no query of real music can match them.

/** Sizes of a filler's pitch move: 6 to 20 log-frequency bins (up or down, by the filler's parity). */
const SHIFTS = 15;

/**
 * How filler number i of `tracks` real tracks moves its track: its pitch (log-frequency bins) and
 * time stretch; its time is also reversed (moved).
 */
export function fillerMove(i, tracks) {
  return {
    shift: (6 + (Math.floor(i / tracks) % SHIFTS)) * (i % 2 ? 1 : -1),
    stretch: 1 + 0.013 * Math.floor(i / (tracks * 2 * SHIFTS)),
  };
}

/**
 * Peaks of one real track as filler number i (0, 1, ...) of `tracks` real tracks moves them. Past
 * the tracks × 2 × SHIFTS (track, move) pairs (1,410 for the benchmark's 47 tracks), each further
 * round also stretches time by 1.3% more, so every filler is a distinct song (other hashes, other
 * offsets) and a 10,000-song index does not hold seven copies of each of 1,410.
 */
function moved(source, i, tracks) {
  const { shift, stretch } = fillerMove(i, tracks);
  const n = source.count;
  const t = new Int32Array(n);
  const f = new Float32Array(n);
  const rank = new Uint8Array(n);
  for (let j = 0; j < n; j++) {
    t[j] = Math.round((source.frames - 1 - source.t[n - 1 - j]) * stretch);
    f[j] = source.f[n - 1 - j] + shift;
    rank[j] = source.rank[n - 1 - j];
  }
  return { t, f, count: n, frames: Math.round(source.frames * stretch), rank };
}

/**
 * Filler song number i as the index stores it, made from real track i mod real.length: its
 * verified peaks, its hashed peaks and their hashes, all moved the same way. `real`: the real
 * tracks' indexSignal results ({ peaks, hashedPeaks }); `referenceHashes`: the engine's.
 */
export function fillerSong(real, i, referenceHashes) {
  const track = real[i % real.length];
  const hashedPeaks = moved(track.hashedPeaks, i, real.length);
  return { peaks: moved(track.peaks, i, real.length), hashedPeaks, hashes: referenceHashes(hashedPeaks) };
}
