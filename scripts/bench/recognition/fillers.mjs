// Filler songs that pad a benchmark's index to a library's size: real tracks' peaks
// time-reversed and moved 6-20 log-frequency bins, so they weigh on the index like music (the
// same peak and hash statistics) but no query of real music can match them.

/** The peaks of filler number i (0, 1, ...), made from the real tracks' peaks `real`. */
export function fillerPeaks(real, i) {
  const source = real[i % real.length];
  const shift = (6 + (Math.floor(i / real.length) % 15)) * (i % 2 ? 1 : -1);
  const n = source.count;
  const t = new Int32Array(n);
  const f = new Float32Array(n);
  const rank = new Uint8Array(n);
  for (let j = 0; j < n; j++) {
    t[j] = source.frames - 1 - source.t[n - 1 - j];
    f[j] = source.f[n - 1 - j] + shift;
    rank[j] = source.rank[n - 1 - j];
  }
  return { t, f, count: n, frames: source.frames, rank };
}
