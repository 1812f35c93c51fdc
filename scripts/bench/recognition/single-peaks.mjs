// Candidate songs by single peaks against every song of the index (a measurement for the
// benchmarks, not the engine's: docs/performance.md, "Single peaks against every song"). An
// inverted index of every song's peaks by log-frequency bin; each peak of a 10 s window votes, once
// per offset bucket, for every (song, reference frame - query frame) at which the song has a peak
// within `tol` bins; a song's best two neighbouring buckets are its count, and the songs with the
// highest counts its candidates, each at the offset of that best bucket pair. A pair hash needs
// both of its peaks to survive a room (p² ≈ 2 % in the tuning rooms' missed windows); a vote here needs one.
// Its cost grows with the library: every query peak meets every indexed peak of its bins.

/** Bins below the engine's 0 a filler's pitch move can reach (recognition/fillers.mjs: 6-20). */
const BIN_FLOOR = 40;
const BIN_COUNT = 260;

export class SinglePeakIndex {
  /**
   * @param {Map<number, {t: Int32Array, f: Float32Array, count: number, frames: number}>} songPeaks
   * @param {{ bucket: number, tol: number, windowFrames: number }} options bucket: frames per
   *   offset bucket; tol: log-frequency bins a query peak may lie from a song's peak.
   */
  constructor(songPeaks, { bucket, tol, windowFrames }) {
    this.bucket = bucket;
    this.tol = tol;
    this.windowFrames = windowFrames;
    const maxId = Math.max(...songPeaks.keys());
    this.maxId = maxId;
    this.songFrames = new Int32Array(maxId + 1);
    this.base = new Int32Array(maxId + 2);
    const binStart = new Int32Array(BIN_COUNT + 1);
    let total = 0;
    for (const [id, p] of songPeaks) {
      this.songFrames[id] = p.frames;
      for (let i = 0; i < p.count; i++) binStart[Math.floor(p.f[i]) + BIN_FLOOR + 1]++;
      total += p.count;
    }
    let buckets = 0;
    for (let id = 0; id <= maxId; id++) {
      this.base[id] = buckets;
      if (songPeaks.has(id)) buckets += Math.ceil((this.songFrames[id] + windowFrames + 4) / bucket) + 2;
    }
    this.base[maxId + 1] = buckets;
    for (let b = 0; b < BIN_COUNT; b++) binStart[b + 1] += binStart[b];
    this.binStart = binStart;
    const next = binStart.slice(0, BIN_COUNT);
    this.song = new Int32Array(total);
    this.t = new Int32Array(total);
    this.f = new Float32Array(total);
    for (const [id, p] of songPeaks) {
      for (let i = 0; i < p.count; i++) {
        const at = next[Math.floor(p.f[i]) + BIN_FLOOR]++;
        this.song[at] = id;
        this.t[at] = p.t[i];
        this.f[at] = p.f[i];
      }
    }
    this.entries = total;
    this.count = new Uint16Array(buckets);
    this.stamp = new Int32Array(buckets);
    this.lastPeak = new Int32Array(buckets);
    this.touched = new Int32Array(buckets);
    this.generation = 0;
  }

  /**
   * The `fraction` of the window's peaks whose bins (±tol) hold the fewest indexed peaks, in frame
   * order: the votes fall with them. (In the benchmark's index the fillers, moved by whole bins,
   * leave bins between the real tracks' semitones rare; an index in tune, as a real library is,
   * has no such bins: docs/performance.md, "A coarse peak sketch of every song".)
   */
  cheapest(query, fraction) {
    const cost = (fq) =>
      this.binStart[Math.min(BIN_COUNT, Math.floor(fq + this.tol) + BIN_FLOOR + 1)] -
      this.binStart[Math.max(0, Math.floor(fq - this.tol) + BIN_FLOOR)];
    const order = [...Array(query.count).keys()].sort((x, y) => cost(query.f[x]) - cost(query.f[y]) || x - y);
    const kept = order.slice(0, Math.ceil(fraction * query.count)).sort((x, y) => x - y);
    return {
      t: Int32Array.from(kept, (i) => query.t[i]),
      f: Float32Array.from(kept, (i) => query.f[i]),
      count: kept.length,
    };
  }

  /** Bytes of the index as held here: its entries (song, frame, log-frequency) and bins. */
  bytes() {
    return this.song.byteLength + this.t.byteLength + this.f.byteLength + this.binStart.byteLength;
  }

  /**
   * Every song's best count in the window of `query` peaks (frames from the window's start,
   * [0, windowFrames)), best first: { songId, count, offset } (offset: reference frame - query
   * frame at the bucket pair's centre), and the votes cast.
   */
  vote(query) {
    const { bucket, tol, binStart, song, t, f, base, count, stamp, lastPeak, touched } = this;
    const g = ++this.generation;
    const shift = this.windowFrames + 2;
    let touchedCount = 0;
    let votes = 0;
    for (let i = 0; i < query.count; i++) {
      const tq = query.t[i];
      const fq = query.f[i];
      const from = binStart[Math.max(0, Math.floor(fq - tol) + BIN_FLOOR)];
      const to = binStart[Math.min(BIN_COUNT, Math.floor(fq + tol) + BIN_FLOOR + 1)];
      for (let e = from; e < to; e++) {
        if (Math.abs(f[e] - fq) > tol) continue;
        const k = base[song[e]] + Math.floor((t[e] - tq + shift) / bucket);
        votes++;
        if (stamp[k] !== g) {
          stamp[k] = g;
          count[k] = 1;
          lastPeak[k] = i;
          touched[touchedCount++] = k;
        } else if (lastPeak[k] !== i) {
          // (one vote a query peak per bucket: a sustained note's peaks are one piece of evidence)
          lastPeak[k] = i;
          count[k]++;
        }
      }
    }
    const best = new Map();
    for (let j = 0; j < touchedCount; j++) {
      const k = touched[j];
      const c = count[k] + (stamp[k + 1] === g ? count[k + 1] : 0);
      const songId = this.songOf(k);
      const held = best.get(songId);
      if (!held || c > held.count) best.set(songId, { count: c, k: k - base[songId] });
    }
    const songs = [...best].map(([songId, { count: c, k }]) => ({
      songId,
      count: c,
      offset: Math.round((k + 1) * bucket - shift - 0.5),
    }));
    songs.sort((x, y) => y.count - x.count || x.songId - y.songId);
    return { songs, votes };
  }

  /** The song whose buckets hold bucket k. */
  songOf(k) {
    let lo = 0;
    let hi = this.maxId;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.base[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
