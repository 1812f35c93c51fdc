// Candidate songs by a time-coarse peak sketch of every song (a measurement for the benchmarks, not
// the engine's: docs/performance.md, "A coarse peak sketch of every song"). Each song is cut into
// segments of `segment` frames every `hop` frames, each widened by `margin` frames either side; a
// segment is a bit set of the coarse log-frequency bands (`bandBins` bins each) that hold one of
// the song's peaks. A 10 s window is cut into segments of `segment` frames end to end (no margin);
// a song's score at alignment a (a song segment) is the sum over the window's segments j of
// popcount(window segment j AND song segment a + j·segment/hop), less what chance gives (each
// window segment's bits times the song segment's share of the bands), and its best alignment is
// its score: the songs with the highest scores are candidates. Unlike recognition/single-peaks.mjs,
// whose votes grow with the peaks indexed (every window peak meets every indexed peak of its bins),
// the scan costs one AND and popcount per window segment, word and song segment: the library's
// hours / hop, whatever its peaks. A candidate's offset is then found among its own peaks
// (PeakVote below: single peaks against that song only, as single-peaks.mjs votes).

const BINS = 134;

/** Bits set in a 32-bit word. */
function popcount(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export class PeakSketchIndex {
  /**
   * @param {Map<number, {t: Int32Array, f: Float32Array, count: number, frames: number}>} songPeaks
   * @param {{ segment: number, hop: number, margin: number, bandBins: number, scoring?: string }}
   *   options segment, hop and margin in frames (segment a multiple of hop); bandBins:
   *   log-frequency bins a band; scoring: 'excess' (matched bits less chance's, the default),
   *   'raw' (matched bits) or 'z' (the excess over the square root of chance's).
   */
  constructor(songPeaks, { segment, hop, margin, bandBins, scoring = 'excess' }) {
    if (segment % hop !== 0) throw new Error('segment must be a multiple of hop');
    this.scoring = scoring;
    this.segment = segment;
    this.hop = hop;
    this.margin = margin;
    this.bandBins = bandBins;
    this.bands = Math.ceil(BINS / bandBins);
    this.words = Math.ceil(this.bands / 32);
    const ids = [...songPeaks.keys()].sort((x, y) => x - y);
    this.ids = Int32Array.from(ids);
    this.start = new Int32Array(ids.length + 1);
    for (const [k, id] of ids.entries())
      this.start[k + 1] = this.start[k] + Math.ceil(songPeaks.get(id).frames / hop) + 1;
    const segments = this.start[ids.length];
    this.bits = new Uint32Array(segments * this.words);
    this.ones = new Uint8Array(segments);
    for (const [k, id] of ids.entries()) {
      const p = songPeaks.get(id);
      const last = this.start[k + 1] - this.start[k] - 1;
      for (let i = 0; i < p.count; i++) {
        const band = Math.floor(p.f[i] / bandBins);
        if (p.f[i] < 0 || band >= this.bands) continue;
        // segments s with s·hop - margin <= t < s·hop + segment + margin
        const lo = Math.max(0, Math.ceil((p.t[i] - segment - margin + 1) / hop));
        const hi = Math.min(last, Math.floor((p.t[i] + margin) / hop));
        for (let s = lo; s <= hi; s++)
          this.bits[(this.start[k] + s) * this.words + (band >>> 5)] |= 1 << (band & 31);
      }
      for (let s = this.start[k]; s < this.start[k + 1]; s++) {
        let n = 0;
        for (let w = 0; w < this.words; w++) n += popcount(this.bits[s * this.words + w]);
        this.ones[s] = n;
      }
    }
    this.segments = segments;
  }

  /** Bytes of the sketch as held here (its bit sets and their counts). */
  bytes() {
    return this.bits.byteLength + this.ones.byteLength + this.start.byteLength;
  }

  /** The window's segments (peaks at frames [0, frames)) as bit sets, and their counts. */
  querySketch(query, frames) {
    const { segment, words, bandBins, bands } = this;
    const count = Math.floor(frames / segment);
    const bits = new Uint32Array(count * words);
    for (let i = 0; i < query.count; i++) {
      const j = Math.floor(query.t[i] / segment);
      const band = Math.floor(query.f[i] / bandBins);
      if (j >= count || query.f[i] < 0 || band >= bands) continue;
      bits[j * words + (band >>> 5)] |= 1 << (band & 31);
    }
    const ones = new Float64Array(count);
    for (let j = 0; j < count; j++) for (let w = 0; w < words; w++) ones[j] += popcount(bits[j * words + w]);
    return { bits, ones, count };
  }

  /**
   * Every song's best score for the window's peaks (frames [0, frames)), best first:
   * { songId, score, matched, offset } (offset: the song frame of the window's start at that
   * alignment, to within hop/2 + margin), and the song segments scanned.
   */
  rank(query, frames) {
    const { words, bands, start, ids, bits, ones, scoring } = this;
    const q = this.querySketch(query, frames);
    const step = this.segment / this.hop;
    const span = (q.count - 1) * step;
    const out = [];
    let scanned = 0;
    const qb = q.bits;
    const qOnes = q.ones;
    for (let k = 0; k < ids.length; k++) {
      const from = start[k];
      const to = start[k + 1] - span;
      let best = Number.NEGATIVE_INFINITY;
      let bestMatched = 0;
      let bestAt = 0;
      for (let a = from; a < to; a++) {
        let matched = 0;
        let chance = 0;
        for (let j = 0; j < q.count; j++) {
          const s = a + j * step;
          const sw = s * words;
          const jw = j * words;
          for (let w = 0; w < words; w++) matched += popcount(qb[jw + w] & bits[sw + w]);
          chance += qOnes[j] * ones[s];
        }
        const expected = chance / bands;
        const score =
          scoring === 'raw'
            ? matched
            : scoring === 'z'
              ? (matched - expected) / Math.sqrt(expected + 1)
              : matched - expected;
        if (score > best) {
          best = score;
          bestMatched = matched;
          bestAt = a;
        }
      }
      scanned += Math.max(0, to - from);
      out.push({ songId: ids[k], score: best, matched: bestMatched, offset: (bestAt - from) * this.hop });
    }
    out.sort((x, y) => y.score - x.score || x.songId - y.songId);
    return { songs: out, scanned };
  }
}

/**
 * Single peaks against a few songs' own peaks: each window peak votes, once per offset bucket of
 * `bucket` frames, for every (song frame - window frame) at which the song has a peak within `tol`
 * bins; a song's best two neighbouring buckets are its count (as recognition/single-peaks.mjs
 * counts, restricted to the songs asked for). Each song's peaks are sorted by bin once, when first
 * asked for.
 */
export class PeakVote {
  constructor(songPeaks, { bucket, tol }) {
    this.songPeaks = songPeaks;
    this.bucket = bucket;
    this.tol = tol;
    this.sorted = new Map();
  }

  byBin(id) {
    let held = this.sorted.get(id);
    if (held) return held;
    const p = this.songPeaks.get(id);
    const lo = -64;
    const binStart = new Int32Array(BINS + 129 + 1);
    const keep = [];
    for (let i = 0; i < p.count; i++) {
      const b = Math.floor(p.f[i]) - lo;
      if (b < 0 || b >= BINS + 128) continue;
      keep.push(i);
      binStart[b + 1]++;
    }
    for (let b = 0; b < binStart.length - 1; b++) binStart[b + 1] += binStart[b];
    const next = binStart.slice();
    const t = new Int32Array(keep.length);
    const f = new Float32Array(keep.length);
    for (const i of keep) {
      const at = next[Math.floor(p.f[i]) - lo]++;
      t[at] = p.t[i];
      f[at] = p.f[i];
    }
    held = { binStart, t, f, lo, frames: p.frames };
    this.sorted.set(id, held);
    return held;
  }

  /** Each of `ids`' best count and offset (song frame - window frame) for the window's peaks, best first. */
  vote(query, windowFrames, ids) {
    const { bucket, tol } = this;
    const shift = windowFrames + 2;
    const out = [];
    let votes = 0;
    for (const id of ids) {
      const { binStart, t, f, lo, frames } = this.byBin(id);
      const size = Math.ceil((frames + shift + 4) / bucket) + 2;
      const count = new Uint16Array(size);
      const last = new Int32Array(size).fill(-1);
      for (let i = 0; i < query.count; i++) {
        const tq = query.t[i];
        const fq = query.f[i];
        const from = binStart[Math.max(0, Math.floor(fq - tol) - lo)];
        const to = binStart[Math.min(binStart.length - 1, Math.floor(fq + tol) - lo + 1)];
        for (let e = from; e < to; e++) {
          if (Math.abs(f[e] - fq) > tol) continue;
          const k = Math.floor((t[e] - tq + shift) / bucket);
          votes++;
          if (last[k] !== i) {
            last[k] = i;
            count[k]++;
          }
        }
      }
      let best = 0;
      let bestK = 0;
      for (let k = 0; k + 1 < size; k++) {
        const c = count[k] + count[k + 1];
        if (c > best) {
          best = c;
          bestK = k;
        }
      }
      out.push({ songId: id, count: best, offset: Math.round((bestK + 1) * bucket - shift - 0.5) });
    }
    out.sort((x, y) => y.count - x.count || x.songId - y.songId);
    return { songs: out, votes };
  }
}
