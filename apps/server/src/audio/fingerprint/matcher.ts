/**
 * The matcher: a query's hashes (under every warp) looked up in the index vote for
 * (song, warp, time offset); in each 10 s window the songs with most votes at one offset (±1
 * frame) are candidates, verified against the song's own peaks: the query peaks that land on a
 * peak of the song at that offset, minus what the song gives at other offsets by chance. Windows
 * that hear the same song at a consistent position in the song chain into one play, whose start
 * and end are the first and last verified peaks.
 */
import type { Hashes } from './hashes.js';
import type { InvertedIndex } from './memory-index.js';
import {
  BINS_PER_OCTAVE,
  CANDIDATES,
  CONTROL_OFFSETS,
  EVIDENCE_BOUND,
  FRAME_SECONDS,
  KEY_SONGS,
  KEYS_PER_SONG,
  MIN_CANDIDATE_VOTES,
  MIN_SCORE,
  PEAK_MARGIN,
  PEAK_OFFSETS,
  PEAK_SONGS,
  PEAK_SPACING,
  PROBE_MARGIN,
  VERIFY_BINS,
  VERIFY_FRAMES,
  WARPS,
} from './params.js';
import type { Peaks } from './peaks.js';

/** A song heard in one window. */
export interface Detection {
  songId: number;
  warp: number;
  /** Reference frame minus warped query frame. */
  offset: number;
  /** Verified peaks minus chance (verifyCandidate). */
  score: number;
  /** First and last query frames (absolute) of the verified peaks. */
  first: number;
  last: number;
  /** Start frame of the window that heard it. */
  window: number;
  /**
   * Found at no warp by a search that carries no tempo (single peaks, the second chance): its warp
   * is 0 whatever the song's tempo (tracking.ts, bestSeedWarp).
   */
  warpless?: true;
  /**
   * In a window where another song is heard at the window threshold (the window's strongest), this
   * song's score without the query peaks that land on that song, in its count and its controls
   * alike (explainedScores): a song sharing the strongest one's notes (a copy of its loops moved
   * in pitch, a reversed copy) is heard mostly in those, a song mixed with it in others. Absent:
   * no other song was heard at the threshold there. Never above `score`.
   */
  explained?: number;
}

/** The score a detection stands for where a song is heard on its own evidence: its explained score if it has one. */
export const ownScoreOf = (d: Pick<Detection, 'score' | 'explained'>): number => d.explained ?? d.score;

export const WINDOW_FRAMES = Math.round(10 / FRAME_SECONDS);
export const WINDOW_HOP = Math.round(5 / FRAME_SECONDS);
/** Window starts this far apart hear different audio (10 s each, but for a frame of rounding). */
export const CORROBORATING_FRAMES = 2 * WINDOW_HOP;

/** Warps fit in 5 bits: a hit's song and warp are one int32, songId × 32 + warp. */
const WARP_BITS = 5;

/**
 * Every index hit: its song and warp, its offset (reference frame - warped query frame) and the
 * absolute query frame of its anchor. Grouped by warp ([warpStart[w], warpStart[w + 1])), each
 * group in frame order: a vote key (song, warp, offset) only ever meets hits of one group.
 */
export interface Matches {
  songWarp: Int32Array;
  offset: Int32Array;
  t: Int32Array;
  warpStart: Int32Array;
  length: number;
}

/** Grown as needed and reused: the hits of collectMatches(..., reuse = true), and its lookups' buckets. */
const hitBuffers = { songWarp: new Int32Array(0), offset: new Int32Array(0), t: new Int32Array(0) };
let bounds = new Int32Array(0);

/**
 * Every index hit of the query. `hashesPerWarp[w]` are the query hashes under WARPS[w], in anchor
 * order; `frameBase` is added to their frames (a segment's place in the whole signal). Hashes
 * whose bucket holds more than `maxBucket` entries are skipped: they are the commonest shapes of
 * music (a short step between two notes of a chord), vote for every song at once and cost the
 * most to count. With `reuse`, the hits are written into buffers of this module that the next
 * such call overwrites (recognition reads them before it collects the next segment's).
 */
export function collectMatches(
  hashesPerWarp: readonly Hashes[],
  index: IndexView,
  frameBase: number,
  maxBucket: number = Number.POSITIVE_INFINITY,
  reuse = false,
): Matches {
  const { offsets, entries, frameBits, pieceSong, pieceBase } = index;
  const frameMask = 2 ** frameBits - 1;
  const warpStart = new Int32Array(hashesPerWarp.length + 1);
  let lookups = 0;
  for (const { count } of hashesPerWarp) lookups += count;
  // Each lookup's bucket, read once: [from, to), or an empty one for a skipped bucket.
  if (bounds.length < 2 * lookups) bounds = new Int32Array(2 * lookups);
  let k = 0;
  for (const [w, { hash, count }] of hashesPerWarp.entries()) {
    let n = 0;
    for (let i = 0; i < count; i++, k += 2) {
      const from = offsets[hash[i]!]!;
      const to = offsets[hash[i]! + 1]!;
      const size = to - from <= maxBucket ? to - from : 0;
      bounds[k] = from;
      bounds[k + 1] = from + size;
      n += size;
    }
    warpStart[w + 1] = warpStart[w]! + n;
  }
  const total = warpStart[hashesPerWarp.length]!;
  if (reuse && hitBuffers.songWarp.length < total) {
    const capacity = Math.max(total, 2 * hitBuffers.songWarp.length);
    hitBuffers.songWarp = new Int32Array(capacity);
    hitBuffers.offset = new Int32Array(capacity);
    hitBuffers.t = new Int32Array(capacity);
  }
  const songWarp = reuse ? hitBuffers.songWarp : new Int32Array(total);
  const offset = reuse ? hitBuffers.offset : new Int32Array(total);
  const frames = reuse ? hitBuffers.t : new Int32Array(total);
  let slot = 0;
  k = 0;
  for (let w = 0; w < hashesPerWarp.length; w++) {
    const { t, count } = hashesPerWarp[w]!;
    const a = WARPS[w]!.a;
    for (let i = 0; i < count; i++, k += 2) {
      const from = bounds[k]!;
      const to = bounds[k + 1]!;
      if (from === to) continue;
      const tq = frameBase + t[i]!;
      const warped = Math.round(tq * a);
      for (let e = from; e < to; e++) {
        const x = entries[e]!;
        const piece = x >>> frameBits;
        songWarp[slot] = (pieceSong[piece]! << WARP_BITS) | w;
        offset[slot] = pieceBase[piece]! + (x & frameMask) - warped;
        frames[slot] = tq;
        slot++;
      }
    }
  }
  return { songWarp, offset, t: frames, warpStart, length: total };
}

/**
 * The vote table of one part of a window's hits: open addressing on one typed array, keyed by
 * (songWarp, offset), each slot with its count of distinct anchor frames; a slot's five fields
 * sit side by side. Reused from part to part (a generation stamp marks the live slots), so
 * counting allocates nothing.
 */
class VoteTable {
  private static readonly FIELDS = 8; // stamp, songWarp, offset, count, last frame (+ padding)
  private slots = new Int32Array(0);
  private mask = 0;
  private generation = 0;
  /** Slots in use (their first field's index), in first-seen order. */
  used = new Int32Array(0);
  size = 0;

  reset(expected: number): void {
    let capacity = 1024;
    while (capacity < 2 * expected) capacity *= 2;
    if (capacity * VoteTable.FIELDS > this.slots.length) {
      this.slots = new Int32Array(capacity * VoteTable.FIELDS);
      this.generation = 0;
    }
    if (expected > this.used.length) this.used = new Int32Array(Math.max(expected, 2 * this.used.length));
    // (the first `capacity` slots only, however large the table grew for a larger part before:
    // a small part's keys stay in a few cache lines; the slots past them are never read)
    this.mask = capacity - 1;
    this.generation++;
    this.size = 0;
  }

  private find(sw: number, off: number): number {
    let h = Math.imul(sw, 0x9e3779b1) ^ Math.imul(off, 0x85ebca77);
    h ^= h >>> 15;
    const slots = this.slots;
    let slot = h & this.mask;
    let at = slot * VoteTable.FIELDS;
    while (slots[at] === this.generation && (slots[at + 1] !== sw || slots[at + 2] !== off)) {
      slot = (slot + 1) & this.mask;
      at = slot * VoteTable.FIELDS;
    }
    return at;
  }

  /** Counts a hit of anchor frame t (hits arrive in frame order; one frame counts once per key). */
  add(sw: number, off: number, t: number): void {
    const at = this.find(sw, off);
    const slots = this.slots;
    if (slots[at] !== this.generation) {
      slots[at] = this.generation;
      slots[at + 1] = sw;
      slots[at + 2] = off;
      slots[at + 3] = 1;
      slots[at + 4] = t;
      this.used[this.size++] = at;
    } else if (slots[at + 4] !== t) {
      slots[at + 3]!++;
      slots[at + 4] = t;
    }
  }

  get(sw: number, off: number): number {
    const at = this.find(sw, off);
    return this.slots[at] === this.generation ? this.slots[at + 3]! : 0;
  }

  countAt(at: number): number {
    return this.slots[at + 3]!;
  }
  songWarpAt(at: number): number {
    return this.slots[at + 1]!;
  }
  offsetAt(at: number): number {
    return this.slots[at + 2]!;
  }
}

const votes = new VoteTable();

/** Buffers of the sieved and partitioned hits, by name, grown as needed and reused. */
const buffers = new Map<string, Int32Array<ArrayBuffer>>();
function scratch(name: string, n: number): Int32Array<ArrayBuffer> {
  const buffer = buffers.get(name);
  if (buffer && buffer.length >= n) return buffer;
  const grown = new Int32Array(Math.max(n, 2 * (buffer?.length ?? 0)));
  buffers.set(name, grown);
  return grown;
}

/** Bits of the sieve per hit (a power of two is taken): about 1 hit in 16 bits keeps false survivors rare. */
const SIEVE_BITS_PER_HIT = 16;
const MAX_SIEVE_BITS = 24;

/** The sieve's bit of a vote key: offsets of one song and warp are neighbouring bits. */
const SIEVE_MULTIPLIER = 0x9e3779b1 | 0;
const sieveBit = (sw: number, off: number, mask: number) => (Math.imul(sw, SIEVE_MULTIPLIER) + off) & mask;

/**
 * The sieve of a window's hits ([from[w], to[w]) of each warp): the bit set of the keys hit at
 * least twice, with its mask.
 */
function keysSeenTwice(
  matches: Matches,
  from: Int32Array,
  to: Int32Array,
  hits: number,
): { twice: Int32Array; mask: number } {
  let bits = 10;
  while (bits < MAX_SIEVE_BITS && 1 << bits < SIEVE_BITS_PER_HIT * hits) bits++;
  const mask = (1 << bits) - 1;
  const words = 1 << (bits - 5);
  const once = scratch('once', words).fill(0, 0, words);
  const twice = scratch('twice', words).fill(0, 0, words);
  const { songWarp, offset } = matches;
  for (let w = 0; w < from.length; w++) {
    for (let i = from[w]!; i < to[w]!; i++) {
      const bit = sieveBit(songWarp[i]!, offset[i]!, mask);
      const word = bit >>> 5;
      const flag = 1 << (bit & 31);
      if (once[word]! & flag) twice[word]! |= flag;
      else once[word]! |= flag;
    }
  }
  return { twice, mask };
}

/** Whether the key of `bit` or a key beside it (bits ±1, masked by `mask`) was seen twice. */
function nearTwice(twice: Int32Array, bit: number, mask: number): boolean {
  const b = bit & 31;
  // (the three bits read from one word when they lie in one)
  if (b > 0 && b < 31) return ((twice[bit >>> 5]! >>> (b - 1)) & 7) !== 0;
  for (let d = -1; d <= 1; d++) {
    const x = (bit + d) & mask;
    if (twice[x >>> 5]! & (1 << (x & 31))) return true;
  }
  return false;
}

/** Index of the first of `count` ascending frames that is at or after `frame` (binary search). */
export function firstAtOrAfter(frames: ArrayLike<number>, count: number, frame: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (frames[mid]! < frame) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A song whose hashes agree on one offset in a window: to be verified against its peaks. */
export interface Candidate {
  songId: number;
  warp: number;
  offset: number;
  votes: number;
}

/**
 * The CANDIDATES songs with the most hash votes at one offset (±1 frame) in the frames
 * [start, start + WINDOW_FRAMES), best first, each with up to `keys` of its best distinct keys
 * (warp and offset; the song's best first, then its others, before the next song's).
 */
export function windowCandidates(
  matches: Matches,
  start: number,
  limit: number = CANDIDATES,
  minVotes: number = MIN_CANDIDATE_VOTES,
  keys: number = KEYS_PER_SONG,
  keySongs: number = KEY_SONGS,
): Candidate[] {
  const end = start + WINDOW_FRAMES;
  // Each warp's hits are in frame order: binary search the window's hits of each.
  const warps = matches.warpStart.length - 1;
  const from = new Int32Array(warps);
  const to = new Int32Array(warps);
  let n = 0;
  for (let w = 0; w < warps; w++) {
    const base = matches.warpStart[w]!;
    const size = matches.warpStart[w + 1]! - base;
    const view = matches.t.subarray(base, base + size);
    from[w] = base + firstAtOrAfter(view, size, start);
    to[w] = base + firstAtOrAfter(view, size, end);
    n += to[w]! - from[w]!;
  }
  const { songWarp, offset, t } = matches;
  // The sieve: a vote key needs two hits of its own to be a candidate (own < 2 is skipped below),
  // and almost every chance hit is alone at its key (at 1,000 songs, 9 in 10). A first pass marks
  // in a bit set the keys seen once and those seen again; only the hits of keys seen twice, and
  // of their neighbours (whose votes add to them), go on to be counted. A bit shared by two keys
  // only lets more through: what is counted is exact.
  const sieve = minVotes > 1 ? keysSeenTwice(matches, from, to, n) : undefined;
  const keptSW = scratch('keptSongWarp', n);
  const keptOff = scratch('keptOffset', n);
  const keptT = scratch('keptT', n);
  let kept = 0;
  for (let w = 0; w < warps; w++) {
    for (let i = from[w]!; i < to[w]!; i++) {
      if (sieve && !nearTwice(sieve.twice, sieveBit(songWarp[i]!, offset[i]!, sieve.mask), sieve.mask))
        continue;
      keptSW[kept] = songWarp[i]!;
      keptOff[kept] = offset[i]!;
      keptT[kept] = t[i]!;
      kept++;
    }
  }
  return countKept(keptSW, keptOff, keptT, kept, limit, minVotes, keys, keySongs);
}

/**
 * The candidates of a window's kept hits (the first `kept` of the three arrays; by warp, each
 * warp's in frame order): the `limit` songs with the most votes at one offset (±1 frame), at
 * least `minVotes`, best first, the first `keySongs` of them each with up to `keys` distinct keys
 * (KEYS_PER_SONG, KEY_SONGS), the others with their best.
 */
function countKept(
  keptSW: Int32Array,
  keptOff: Int32Array,
  keptT: Int32Array,
  kept: number,
  limit: number,
  minVotes: number,
  keys: number,
  keySongs: number,
): Candidate[] {
  const bySong = new Map<number, Candidate[]>();
  countInto(keptSW, keptOff, keptT, kept, minVotes, bySong);
  return rankSongs(bySong, limit, keys, keySongs);
}

/**
 * Counts kept hits (grouped by warp, each warp's in frame order) into `bySong`: every key of at
 * least `minVotes` (own two or more), by song. A key only meets hits of its own warp, so the hits
 * of a window may be counted in several calls, whole warps at a time, into one `bySong`; the
 * candidates rankSongs draws from it do not depend on the order (every ordering there is total).
 */
function countInto(
  keptSW: Int32Array,
  keptOff: Int32Array,
  keptT: Int32Array,
  kept: number,
  minVotes: number,
  bySong: Map<number, Candidate[]>,
): void {
  // The hits kept are partitioned by a hash of their song and warp (a stable counting sort, so
  // each part keeps frame order), and each part is counted in a vote table small enough to stay
  // in the processor's cache.
  let bits = 0;
  while (bits < 12 && kept >> (bits + 9) > 0) bits++;
  const parts = 1 << bits;
  const first = scratch('partFirst', parts + 1).fill(0, 0, parts + 1);
  const shift = 32 - bits;
  if (bits === 0) first[1] = kept;
  else {
    for (let i = 0; i < kept; i++) first[(Math.imul(keptSW[i]!, 0x9e3779b1) >>> shift) + 1]!++;
    for (let p = 0; p < parts; p++) first[p + 1]! += first[p]!;
  }
  let pSW = keptSW;
  let pOff = keptOff;
  let pT = keptT;
  if (bits > 0) {
    const next = scratch('partNext', parts);
    next.set(first.subarray(0, parts));
    pSW = scratch('songWarp', kept);
    pOff = scratch('offset', kept);
    pT = scratch('t', kept);
    for (let i = 0; i < kept; i++) {
      const sw = keptSW[i]!;
      const slot = next[Math.imul(sw, 0x9e3779b1) >>> shift]!++;
      pSW[slot] = sw;
      pOff[slot] = keptOff[i]!;
      pT[slot] = keptT[i]!;
    }
  }
  // Every key of at least `minVotes` (own two or more), by song: a song's best key is its rank;
  // its next best distinct keys are other hypotheses verified beside it (see KEYS_PER_SONG).
  for (let p = 0; p < parts; p++) {
    // Votes are distinct anchor frames: the pairs of one anchor (or of one chord's notes at the
    // same instant) agree with each other by construction and count once.
    votes.reset(first[p + 1]! - first[p]!);
    for (let i = first[p]!; i < first[p + 1]!; i++) votes.add(pSW[i]!, pOff[i]!, pT[i]!);
    // An offset's votes include its neighbours (±1 frame: rounding of the warped frames). Only
    // offsets that hold two votes themselves are looked at: almost every chance hit is alone.
    for (let u = 0; u < votes.size; u++) {
      const slot = votes.used[u]!;
      const own = votes.countAt(slot);
      if (own < 2 && minVotes > 1) continue;
      const sw = votes.songWarpAt(slot);
      const off = votes.offsetAt(slot);
      const total = own + votes.get(sw, off - 1) + votes.get(sw, off + 1);
      if (total < minVotes) continue;
      const songId = sw >> WARP_BITS;
      const candidate = { songId, warp: sw & ((1 << WARP_BITS) - 1), offset: off, votes: total };
      const list = bySong.get(songId);
      if (list) list.push(candidate);
      else bySong.set(songId, [candidate]);
    }
  }
}

/**
 * The `limit` songs of `bySong` with the most votes at one key, best first, the first `keySongs`
 * of them each with up to `keys` distinct keys (KEYS_PER_SONG, KEY_SONGS), the others with their
 * best.
 */
function rankSongs(
  bySong: Map<number, Candidate[]>,
  limit: number,
  keys: number,
  keySongs: number,
): Candidate[] {
  const byVotes = (x: Candidate, y: Candidate) => y.votes - x.votes || x.warp - y.warp || x.offset - y.offset;
  const songs: Candidate[][] = [];
  for (const list of bySong.values()) {
    list.sort(byVotes);
    // A song's keys, best first, each at another warp or more than KEY_SPACING frames from the
    // keys of its warp before it (neighbouring offsets share their votes: one hypothesis).
    const chosen: Candidate[] = [];
    for (const key of list) {
      if (chosen.length >= keys) break;
      if (chosen.some((c) => c.warp === key.warp && Math.abs(c.offset - key.offset) <= KEY_SPACING)) continue;
      chosen.push(key);
    }
    songs.push(chosen);
  }
  // Songs of equal votes in an order unrelated to their ids (a multiply by an odd constant is a
  // one-to-one map of 32-bit ids): by id, the benchmarks' true songs, indexed first, won every tie
  // with their fillers (docs/performance.md, "The benchmark's tie-break of equal votes").
  return songs
    .sort(
      (x, y) =>
        y[0]!.votes - x[0]!.votes || tieOrder(x[0]!.songId) - tieOrder(y[0]!.songId) || byVotes(x[0]!, y[0]!),
    )
    .slice(0, limit)
    .flatMap((list, rank) => (rank < keySongs ? list : list.slice(0, 1)));
}

/** A song's place among songs of equal votes: its id scrambled (distinct ids, distinct places). */
const tieOrder = (songId: number) => Math.imul(songId, 0x9e3779b1) >>> 0;

/** Frames within which two keys of one song and warp are one hypothesis (their votes overlap). */
const KEY_SPACING = 2;

/**
 * Sieve bits per hit of one warp (a power of two is taken), and at most 2^MAX_WARP_SIEVE_BITS.
 * A warp of a 10 s query at 10,000 songs has about 86,000 hits (2^20 bits: bit sets of 128 kB
 * each, held by the processor's second-level cache); the second chance's single lookup of every
 * probe (probeHashes) has about a million: at 2^21 bits (2 a hit) it kept 43 % of them to be read
 * again and counted, at 2^23 (8 a hit, bit sets of 1 MB) 10 %, in 18 ms of CPU instead of 27.
 */
const WARP_SIEVE_BITS_PER_HIT = 8;
const MAX_WARP_SIEVE_BITS = 23;

/** What the matcher reads of the inverted index. */
export type IndexView = Pick<InvertedIndex, 'offsets' | 'entries' | 'frameBits' | 'pieceSong' | 'pieceBase'>;

/**
 * windowCandidates(collectMatches(...), start) without collecting: the candidates of the window
 * [start, start + WINDOW_FRAMES) read straight from the index, warp by warp. A vote key (song,
 * warp, offset) only meets hits of its own warp, so each warp's hits are sieved and counted on
 * their own, with bit sets and vote tables small enough to stay in the processor's cache: the
 * window's buckets are read (their cache lines a batch of buckets at a time) into the bit sets of
 * keys seen once, twice and three times (one after another: most hits read only the first), and
 * each hit's bit is written down; the bits a candidate key could hold, and their
 * neighbours, make the set of hits to keep (keepWords; 3 in 100 at 10,000 songs); only those are
 * read again from the index and counted. The counts of every key that can be a candidate, and so
 * the candidates, are those of windowCandidates, which keeps more hits (every key seen twice and
 * its neighbours).
 */
export function indexCandidates(
  hashesPerWarp: readonly Hashes[],
  index: IndexView,
  frameBase: number,
  start: number,
  maxBucket: number = Number.POSITIVE_INFINITY,
  limit: number = CANDIDATES,
  minVotes: number = MIN_CANDIDATE_VOTES,
  keys: number = KEYS_PER_SONG,
  keySongs: number = KEY_SONGS,
): Candidate[] {
  const { offsets, entries, frameBits, pieceSong, pieceBase } = index;
  const frameMask = 2 ** frameBits - 1;
  // (null when every song is one piece: the sieve then keys a hit by its piece, one multiply)
  const pieceKey = pieceKeysOf(index);
  const end = start + WINDOW_FRAMES;
  const bySong = new Map<number, Candidate[]>();
  for (let w = 0; w < hashesPerWarp.length; w++) {
    const { hash, t, count } = hashesPerWarp[w]!;
    const a = WARPS[w]!.a;
    const warpKey = Math.imul(w, SIEVE_MULTIPLIER);
    // The window's anchors (hashes are in anchor order), and their hits.
    const lo = firstAtOrAfter(t, count, start - frameBase);
    const hi = firstAtOrAfter(t, count, end - frameBase);
    // Each anchor's bucket, read from the offsets once: [from, to), empty when stopped.
    const bucket = scratch('bucket', 2 * (hi - lo));
    let n = 0;
    for (let i = lo, b = 0; i < hi; i++, b += 2) {
      const from = offsets[hash[i]!]!;
      const size = offsets[hash[i]! + 1]! - from;
      bucket[b] = from;
      bucket[b + 1] = size <= maxBucket ? from + size : from;
      if (size <= maxBucket) n += size;
    }
    if (n === 0) continue;
    // The index of each kept hit's entry, and the kept hits before each anchor's end.
    const keptEntry = scratch('keptEntry', n);
    const keptBefore = scratch('keptBefore', hi - lo);
    let kept = 0;
    if (minVotes > 1) {
      let bits = 10;
      while (bits < MAX_WARP_SIEVE_BITS && 1 << bits < WARP_SIEVE_BITS_PER_HIT * n) bits++;
      const mask = (1 << bits) - 1;
      const words = 1 << (bits - 5);
      // Three bit sets one after another: the keys seen once (words [0, words)), twice and three times.
      const sieve = scratch('sieve', 3 * words).fill(0, 0, 3 * words);
      // Each hit's sieve bit, in the order of the second pass.
      const hitBits = scratch('hitBits', n);
      let j = 0;
      let touched = 0;
      for (let batch = lo; batch < hi; batch += TOUCH_BATCH) {
        const batchEnd = Math.min(hi, batch + TOUCH_BATCH);
        // A read of every cache line of the batch's buckets first: independent reads, which the
        // processor has in flight at once, instead of one bucket's misses after another's.
        for (let b = 2 * (batch - lo); b < 2 * (batchEnd - lo); b += 2) {
          const from = bucket[b]!;
          const to = bucket[b + 1]!;
          if (to === from) continue;
          for (let e = from; e < to; e += LINE_ENTRIES) touched ^= entries[e]!;
          touched ^= entries[to - 1]!;
        }
        for (let i = batch; i < batchEnd; i++) {
          const from = bucket[2 * (i - lo)]!;
          const to = bucket[2 * (i - lo) + 1]!;
          if (to === from) continue;
          // The key (song, warp, offset) in 32 bits: (pieceKey or its multiply) + frame in piece + this.
          // (two loops: the choice made once a bucket, not once a hit)
          const c = warpKey - Math.round((frameBase + t[i]!) * a);
          if (pieceKey === null)
            for (let e = from; e < to; e++) {
              const x = entries[e]!;
              const bit = (Math.imul(x >>> frameBits, SIEVE_MULTIPLIER) + (x & frameMask) + c) & mask;
              hitBits[j++] = bit;
              countBit(sieve, bit, words);
            }
          else
            for (let e = from; e < to; e++) {
              const x = entries[e]!;
              const bit = (pieceKey[x >>> frameBits]! + (x & frameMask) + c) & mask;
              hitBits[j++] = bit;
              countBit(sieve, bit, words);
            }
        }
      }
      touchedSink[0]! ^= touched;
      // The words of keys seen once become those of the hits to keep (keepWords).
      keepWords(sieve, words, minVotes);
      j = 0;
      for (let i = lo; i < hi; i++) {
        const to = bucket[2 * (i - lo) + 1]!;
        for (let e = bucket[2 * (i - lo)]!; e < to; e++) {
          const bit = hitBits[j++]!;
          // (about 3 hits in 100 at 10,000 songs: a branch seldom taken costs less than a write each)
          if ((sieve[bit >>> 5]! >>> (bit & 31)) & 1) keptEntry[kept++] = e;
        }
        keptBefore[i - lo] = kept;
      }
    } else {
      for (let i = lo; i < hi; i++) {
        const to = bucket[2 * (i - lo) + 1]!;
        for (let e = bucket[2 * (i - lo)]!; e < to; e++) keptEntry[kept++] = e;
        keptBefore[i - lo] = kept;
      }
    }
    if (kept === 0) continue;
    // The kept hits' songs and offsets, read again from the index, then counted.
    const keptSW = scratch('keptSongWarp', kept);
    const keptOff = scratch('keptOffset', kept);
    const keptT = scratch('keptT', kept);
    let k = 0;
    for (let i = lo; i < hi; i++) {
      const to = keptBefore[i - lo]!;
      if (k === to) continue;
      const tq = frameBase + t[i]!;
      const warped = Math.round(tq * a);
      for (; k < to; k++) {
        const x = entries[keptEntry[k]!]!;
        const piece = x >>> frameBits;
        keptSW[k] = (pieceSong[piece]! << WARP_BITS) | w;
        keptOff[k] = pieceBase[piece]! + (x & frameMask) - warped;
        keptT[k] = tq;
      }
    }
    countInto(keptSW, keptOff, keptT, kept, minVotes, bySong);
  }
  return rankSongs(bySong, limit, keys, keySongs);
}

/**
 * Counts a hit of `bit` in indexCandidates' sieve of `words` words a bit set: in the bit set of
 * keys seen once (word k) if its bit is not there, else in that of keys seen twice (words + k),
 * else three times (2 words + k). A branch: at 10,000 songs most hits find their bit unseen, and
 * one read and one write serve them (with the loops split by the index's kind, a 10 s query's
 * candidates took 18.5 ms of CPU instead of 20.0 reading both words and writing all three each
 * hit). The bit sets one after another, not word by word: most hits read only the first, and a
 * warp's (2^20 bits, 128 kB) then stays in a 512 kB second-level cache beside the index's lines,
 * where the three interleaved (384 kB) did not (2026-11-28, docs/performance.md).
 */
function countBit(sieve: Int32Array, bit: number, words: number): void {
  const word = bit >>> 5;
  const flag = 1 << (bit & 31);
  const once = sieve[word]!;
  if ((once & flag) === 0) sieve[word] = once | flag;
  else {
    const twice = sieve[words + word]!;
    if ((twice & flag) === 0) sieve[words + word] = twice | flag;
    else sieve[2 * words + word]! |= flag;
  }
}

/**
 * Buckets whose cache lines are read ahead together (indexCandidates): the index is far larger
 * than any cache, and a bucket read alone waits for each of its misses in turn. At 10,000 songs,
 * reading a query's buckets this way took 5 ms instead of 9.
 */
const TOUCH_BATCH = 32;
/** Entries per 64-byte cache line. */
const LINE_ENTRIES = 16;
/** Where the reads ahead go, so that they are not optimised away. */
const touchedSink = new Int32Array(1);

/**
 * Turns the sieve's bit set of keys seen once (words [0, words); those of keys seen twice,
 * [words, 2 words), and three times, [2 words, 3 words), follow it) into the bit set of the hits
 * to keep: those whose bit lies within ±1 (around the `words` × 32 bits) of a bit that a candidate
 * key could hold. A key is counted when it holds two votes itself and `minVotes` with its
 * neighbours' (countInto), and votes are hits of distinct frames, so its bit was hit twice, and its
 * bit and the two beside it at least min(minVotes, 3) times. The hits of such a key and of its
 * neighbours are all kept; any other kept hit (of a shared bit) is counted exactly and only adds a
 * key that does not pass.
 */
export function keepWords(sieve: Int32Array, words: number, minVotes: number): void {
  const last = words - 1;
  const twice = words;
  const thrice = 2 * words;
  // First, into the words of keys seen three times, the bits a candidate key could hold.
  if (minVotes >= 3) {
    let before = sieve[last]!;
    let once = sieve[0]!;
    for (let k = 0; k <= last; k++) {
      const after = sieve[k === last ? 0 : k + 1]!;
      // (once beside: the bit below or above was hit)
      const beside = (once << 1) | (before >>> 31) | (once >>> 1) | (after << 31);
      sieve[thrice + k]! |= sieve[twice + k]! & beside;
      before = once;
      once = after;
    }
  } else sieve.copyWithin(thrice, twice, thrice);
  // Then, into the words of keys seen once, those bits and their neighbours.
  let before = sieve[thrice + last]!;
  let held = sieve[thrice]!;
  for (let k = 0; k <= last; k++) {
    const after = sieve[thrice + (k === last ? 0 : k + 1)]!;
    sieve[k] = held | (held << 1) | (held >>> 1) | (before >>> 31) | (after << 31);
    before = held;
    held = after;
  }
}

/**
 * Per piece of an index, the part of indexCandidates' sieve bit that depends on it: the same for
 * every hit of one key (song, warp, offset), whichever piece of the song it lies in:
 * imul(song × 32, M) + pieceBase + frame in piece - warped frame + imul(w, M) (mod 2^32). Null when
 * every song is one piece (no piece starts after frame 0): a piece is then a song, its frames the
 * song's, and imul(piece, M) serves without reading a table (at 10,000 songs, one read a hit
 * that the sieve's bit sets and the index's lines push out of the first cache level).
 */
const pieceKeys = new WeakMap<Int32Array, Int32Array | null>();
function pieceKeysOf(index: IndexView): Int32Array | null {
  let keys = pieceKeys.get(index.pieceSong);
  if (keys === undefined) {
    keys = index.pieceBase.some((base) => base !== 0) ? new Int32Array(index.pieceSong.length) : null;
    if (keys)
      for (let p = 0; p < keys.length; p++)
        keys[p] = (Math.imul(index.pieceSong[p]! << WARP_BITS, SIEVE_MULTIPLIER) + index.pieceBase[p]!) | 0;
    pieceKeys.set(index.pieceSong, keys);
  }
  return keys;
}

/** A song's peaks by frame, for verification: peaks of frame x are [start[x], start[x + 1]). */
export interface PeakGrid {
  start: Int32Array;
  f: Float32Array;
}

export function peakGrid(peaks: Pick<Peaks, 't' | 'f' | 'count'>): PeakGrid {
  const frames = peaks.count === 0 ? 0 : peaks.t[peaks.count - 1]! + 1;
  const start = new Int32Array(frames + 1);
  for (let i = 0; i < peaks.count; i++) start[peaks.t[i]! + 1]!++;
  for (let x = 0; x < frames; x++) start[x + 1]! += start[x]!;
  return { start, f: peaks.f.slice(0, peaks.count) };
}

/** Frames within which verified peaks at RUN_PEAKS distinct frames mark where a play starts or ends (chance matches are sparser). */
const RUN_FRAMES = Math.round(1 / FRAME_SECONDS);
const RUN_PEAKS = 5;
/** Time scales tried around a candidate's warp: the warps are 2% apart, a DJ's pitch is anywhere. */
const SCALE_STEPS = [0, -0.005, 0.005, -0.01, 0.01];
/** Offsets tried around a candidate's (frames), in the order that breaks ties. */
const SETTLE_ORDER = [0, -1, 1, -2, 2];
const SETTLE_SHIFT = Math.max(...SETTLE_ORDER);
/** Frames a scale step can move a window's peak: |rel| ≤ half a window (+1), rounding (+1). */
const MAX_SCALE_MOVE = Math.ceil((WINDOW_FRAMES / 2 + 1) * Math.max(...SCALE_STEPS.map(Math.abs))) + 1;
const MASK_HALF = MAX_SCALE_MOVE + SETTLE_SHIFT;

/** Which query peaks a verification counts, and where it reports those that land (indices in the query). */
export interface PeakChoice {
  /** Query peaks left out of the count and of its controls alike (another song's: explainedScores). */
  exclude?: ReadonlySet<number>;
  /** Filled with the query peaks that land at the settled scale and offset. */
  landed?: Set<number>;
}

/**
 * Verifies a candidate: the query peaks of [from, to) (absolute frames) that land on a peak of
 * the song at the candidate's warp and offset (the time scale and offset settled around the
 * window's centre, within ±1% and ±2 frames), minus the median of the same count at
 * CONTROL_OFFSETS (what the song gives by chance). First and last are the first and last of the
 * verified peaks that have RUN_PEAKS within RUN_FRAMES (a stray chance match does not stretch a
 * play). With `needed`, a candidate whose count alone is under it is not worth the controls: its
 * score is that count (an upper bound, under `needed`) and first = last = -1. `peaksOf` leaves
 * query peaks out and reports those that land (PeakChoice).
 */
export function verifyCandidate(
  query: Pick<Peaks, 't' | 'f' | 'count'>,
  from: number,
  to: number,
  grid: PeakGrid,
  candidate: Pick<Candidate, 'warp' | 'offset'>,
  needed: number = Number.NEGATIVE_INFINITY,
  peaksOf: PeakChoice = {},
): { score: number; offset: number; first: number; last: number } {
  const { a, pitch } = WARPS[candidate.warp]!;
  const shift = pitch ? BINS_PER_OCTAVE * Math.log2(a) : 0;
  const lo = firstAtOrAfter(query.t, query.count, from);
  const hi = firstAtOrAfter(query.t, query.count, to);
  const frames = grid.start.length - 1;
  // Reference frame of the window's centre: query frame c maps to anchor, others scale around it.
  const c = Math.round((from + to) / 2);
  const anchor = Math.round(c * a) + candidate.offset;
  // The window's peaks (those not excluded): their indices in the query, frames from the centre,
  // and log-frequencies in the song's terms.
  const { exclude, landed } = peaksOf;
  const ids = new Int32Array(hi - lo);
  let n = 0;
  for (let i = lo; i < hi; i++) if (!exclude?.has(i)) ids[n++] = i;
  const rel = new Int32Array(n);
  const fq = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    rel[i] = query.t[ids[i]!]! - c;
    fq[i] = query.f[ids[i]!]! - shift;
  }
  const { start: gridStart, f: gridF } = grid;
  /** Whether the song has a peak at frame x within VERIFY_BINS of log-frequency f. */
  const lands = (x: number, f: number): boolean => {
    if (x < 0 || x >= frames) return false;
    for (let k = gridStart[x]!; k < gridStart[x + 1]!; k++)
      if (Math.abs(gridF[k]! - f) <= VERIFY_BINS) return true;
    return false;
  };
  const matched: number[] = [];
  const count = (scale: number, at0: number, tolerance: number, keep: boolean): number => {
    let hits = 0;
    for (let i = 0; i < n; i++) {
      const at = at0 + Math.round(rel[i]! * scale);
      let hit = false;
      for (let x = at - tolerance; x <= at + tolerance && !hit; x++) hit = lands(x, fq[i]!);
      if (!hit) continue;
      hits++;
      if (keep) landed?.add(ids[i]!);
      // (distinct frames: a chord's notes landing together are one piece of evidence)
      if (keep && matched.at(-1) !== rel[i]! + c) matched.push(rel[i]! + c);
    }
    return hits;
  };
  // The peaks that land exactly settle the scale and the offset around a reference position;
  // the controls are settled the same way, so the best of 25 tries is compared with the best of
  // 25 tries (chance grows with the choice). Each settle looks every peak up once, on the frames
  // around its place at the warp's own scale that any scale step and shift can reach (bit
  // MASK_HALF + x: frame + x), and tallies the 25 tries from those bits.
  const tally = new Int32Array(2 * SETTLE_SHIFT + 1);
  const landings = new Int32Array(n);
  const settle = (around: number): { scale: number; at0: number } => {
    for (let i = 0; i < n; i++) {
      const at = around + Math.round(rel[i]! * a);
      let bits = 0;
      for (let x = -MASK_HALF; x <= MASK_HALF; x++) if (lands(at + x, fq[i]!)) bits |= 1 << (x + MASK_HALF);
      landings[i] = bits;
    }
    let best = -1;
    let settled = { scale: a, at0: around };
    for (const step of SCALE_STEPS) {
      tally.fill(0);
      for (let i = 0; i < n; i++) {
        // (the scale step moves the peak by at most MAX_SCALE_MOVE frames)
        const moved = Math.round(rel[i]! * (a + step)) - Math.round(rel[i]! * a);
        const bits = landings[i]! >> (moved - SETTLE_SHIFT + MASK_HALF);
        for (let d = 0; d <= 2 * SETTLE_SHIFT; d++) tally[d]! += (bits >> d) & 1;
      }
      for (const d of SETTLE_ORDER) {
        if (tally[d + SETTLE_SHIFT]! > best) {
          best = tally[d + SETTLE_SHIFT]!;
          settled = { scale: a + step, at0: around + d };
        }
      }
    }
    return settled;
  };
  const { scale, at0 } = settle(anchor);
  const score = count(scale, at0, VERIFY_FRAMES, true);
  // The controls only lower the score: a count already under what is needed fails without them
  // (most candidates are chance, and the controls are 8 of the 9 settles). The offset is the
  // one at the window's start frame, in the warp's terms (what chaining compares).
  const offset = at0 - Math.round(c * a);
  if (score < needed) return { score, offset, first: -1, last: -1 };
  // The controls, sorted as they come. Once more than half are counted, the median is at least
  // what it would be if the others counted 0: a candidate that fails even against that bound is
  // rejected without the rest (the same decision, sooner).
  const controls: number[] = [];
  const mid = CONTROL_OFFSETS.length >> 1;
  for (const d of CONTROL_OFFSETS) {
    const control = settle(anchor + d);
    controls.push(count(control.scale, control.at0, VERIFY_FRAMES, false));
    controls.sort((x, y) => x - y);
    const unknown = CONTROL_OFFSETS.length - controls.length;
    if (unknown === 0 || controls.length <= mid) continue;
    const least = (controls[mid - 1 - unknown]! + controls[mid - unknown]!) / 2;
    if (score - least < needed) return { score: score - least, offset, first: -1, last: -1 };
  }
  const chance = (controls[mid - 1]! + controls[mid]!) / 2;
  let first = -1;
  let last = -1;
  for (let i = 0; i + RUN_PEAKS - 1 < matched.length; i++) {
    if (matched[i + RUN_PEAKS - 1]! - matched[i]! <= RUN_FRAMES) {
      first = matched[i]!;
      break;
    }
  }
  for (let i = matched.length - 1; i - RUN_PEAKS + 1 >= 0; i--) {
    if (matched[i]! - matched[i - RUN_PEAKS + 1]! <= RUN_FRAMES) {
      last = matched[i]!;
      break;
    }
  }
  // Too few matches for a run anywhere: the song is heard all the same, bounded by its matches.
  if (first < 0 && matched.length > 0) {
    first = matched[0]!;
    last = matched.at(-1)!;
  }
  return { score: score - chance, offset, first, last };
}

/**
 * The songs heard in the window [start, start + WINDOW_FRAMES): its candidates (windowCandidates)
 * verified against their songs' peaks (`grids`; a song without peaks is skipped), one detection
 * per song. A song's best key (its first candidate) is kept at `minScore`; its other keys only
 * at `keyScore` (the window threshold, MIN_SCORE at the default confidence), and only when the
 * best key was not heard at that: each other key is one more try for chance, which reaches the
 * weak scores a long signal verifies down to (WEAK_SCORE) many times an hour, so the weak
 * evidence that chains into plays comes from best keys alone, as with one key a song. The first
 * other key heard (best voted first) replaces a weak detection at the best key.
 */
export function detectWindow(
  candidates: readonly Candidate[],
  start: number,
  query: Pick<Peaks, 't' | 'f' | 'count'>,
  grids: ReadonlyMap<number, PeakGrid | null>,
  minScore: number = MIN_SCORE,
  keyScore: number = Math.max(minScore, MIN_SCORE),
  search: PeakSearch = {},
): Detection[] {
  // Per song in candidate order: its detection so far (null: its best key was not heard).
  const heard = new Map<number, Detection | null>();
  for (const candidate of candidates) {
    const grid = grids.get(candidate.songId);
    if (!grid) continue;
    const best = !heard.has(candidate.songId);
    // (a song heard at keyScore is not verified at its next keys)
    if (!best && (heard.get(candidate.songId)?.score ?? Number.NEGATIVE_INFINITY) >= keyScore) continue;
    const needed = best ? minScore : Math.max(minScore, keyScore);
    const { score, offset, first, last } = verifyCandidate(
      query,
      start,
      start + WINDOW_FRAMES,
      grid,
      candidate,
      needed,
    );
    if (score < needed || first < 0) {
      if (best) heard.set(candidate.songId, null);
      continue;
    }
    heard.set(candidate.songId, {
      songId: candidate.songId,
      warp: candidate.warp,
      offset,
      score,
      first,
      last,
      window: start,
    });
  }
  // No song heard at the window threshold: the candidate songs aligned by single peaks, at the
  // window threshold plus the search's margin (peakDetections).
  const margin = search.margin ?? PEAK_MARGIN;
  let peakMargin = 0;
  if (Number.isFinite(margin) && ![...heard.values()].some((d) => d !== null && d.score >= keyScore)) {
    peakMargin = margin;
    for (const found of peakDetections(candidates, start, query, grids, keyScore + margin, search)) {
      heard.set(found.songId, { ...found, score: found.score - margin, window: start, warpless: true });
    }
  }
  const detections = [...heard.values()].filter((detection) => detection !== null);
  return explainedScores(detections, start, query, grids, keyScore, (d) => (d.warpless ? peakMargin : 0));
}

/**
 * The window's detections with the others' scores explained by its strongest song (Detection's
 * `explained`), when that one is heard at `keyScore`: the strongest re-verified at its key for the
 * query peaks that land on it, each other detection re-verified at its key without them (in its
 * count and in its controls). `marginOf` is what a detection's score was reported under its
 * verified score (a margin its search asked for). Measured on the nights (docs/performance.md,
 * "explaining away a window's second song"): a filler built of the playing song's own audio lost
 * 55.5 → −2.0, songs mixed with it kept 0.64 of their scores or more.
 */
export function explainedScores(
  detections: Detection[],
  start: number,
  query: Pick<Peaks, 't' | 'f' | 'count'>,
  grids: ReadonlyMap<number, PeakGrid | null>,
  keyScore: number = MIN_SCORE,
  marginOf: (d: Detection) => number = () => 0,
): Detection[] {
  if (detections.length < 2) return detections;
  let strongest = detections[0]!;
  for (const d of detections) if (d.score > strongest.score) strongest = d;
  const strongGrid = grids.get(strongest.songId);
  if (strongest.score < keyScore || !strongGrid) return detections;
  const to = start + WINDOW_FRAMES;
  const exclude = new Set<number>();
  verifyCandidate(query, start, to, strongGrid, strongest, Number.NEGATIVE_INFINITY, { landed: exclude });
  return detections.map((d) => {
    const grid = grids.get(d.songId);
    if (d === strongest || !grid) return d;
    const alone = verifyCandidate(query, start, to, grid, d, Number.NEGATIVE_INFINITY, { exclude });
    return { ...d, explained: Math.min(d.score, alone.score - marginOf(d)) };
  });
}

/**
 * The songs heard in the window [start, start + WINDOW_FRAMES) at its second chance: candidates
 * (at no warp) from the window's pairs looked up at the hashes a room's small moves of their peaks
 * give them (hashes.ts, probeHashes), in a window where no song was heard at `keyScore` (the window
 * threshold). Each candidate song's keys are verified as a key is, at `keyScore` plus PROBE_MARGIN,
 * and reported at their score less the margin; no weak detections (under the threshold): the
 * probes are so many more tries for chance, which reaches the weak scores a long signal chains
 * many times an hour, so they count only where the pairs' own could.
 */
export function probeDetections(
  candidates: readonly Candidate[],
  start: number,
  query: Pick<Peaks, 't' | 'f' | 'count'>,
  grids: ReadonlyMap<number, PeakGrid | null>,
  keyScore: number = MIN_SCORE,
  margin: number = PROBE_MARGIN,
): Detection[] {
  const needed = keyScore + margin;
  return detectWindow(candidates, start, query, grids, needed, needed, {
    margin: Number.POSITIVE_INFINITY,
  }).map((detection) => ({
    ...detection,
    score: detection.score - margin,
    ...(detection.explained === undefined ? {} : { explained: detection.explained - margin }),
    warpless: true as const,
  }));
}

/** How peakDetections searches (PEAK_SONGS, PEAK_OFFSETS, PEAK_MARGIN; margin Infinity: never). */
export interface PeakSearch {
  songs?: number;
  offsets?: number;
  margin?: number;
}

/**
 * The `count` offsets (reference frame - warped query frame, as a candidate's) at which most of
 * the query's peaks in [from, to) land on a peak of the song (within VERIFY_BINS, the votes of
 * ±1 frame summed), best first, each more than PEAK_SPACING frames from those before it: a pair
 * needs both its peaks to survive the room, this needs one. Offsets within KEY_SPACING of `skip`
 * (keys already verified at this warp) are passed over.
 */
export function peakOffsets(
  query: Pick<Peaks, 't' | 'f' | 'count'>,
  from: number,
  to: number,
  grid: PeakGrid,
  warp: number,
  count: number = PEAK_OFFSETS,
  skip: readonly number[] = [],
): number[] {
  const { a, pitch } = WARPS[warp]!;
  const shift = pitch ? BINS_PER_OCTAVE * Math.log2(a) : 0;
  const lo = firstAtOrAfter(query.t, query.count, from);
  const hi = firstAtOrAfter(query.t, query.count, to);
  const frames = grid.start.length - 1;
  if (frames <= 0 || hi <= lo) return [];
  // Offsets range over [base, base + size): reference frames [0, frames) less warped frames.
  const base = -Math.round(to * a) - 1;
  const size = frames + Math.round(to * a) - Math.round(from * a) + 3;
  const h = scratch('peakHistogram', size + 2).fill(0, 0, size + 2);
  // The window's peaks by log-frequency band (floor(f) - low), in the song's terms: each of the
  // song's peaks is compared with the window's of the bands within VERIFY_BINS of it (a window
  // holds a few hundred peaks, a song thousands: nothing of the song is kept beside its grid).
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (let i = lo; i < hi; i++) {
    low = Math.min(low, Math.floor(query.f[i]! - shift));
    high = Math.max(high, Math.floor(query.f[i]! - shift));
  }
  const bands = high - low + 1;
  const bandStart = new Int32Array(bands + 1);
  for (let i = lo; i < hi; i++) bandStart[Math.floor(query.f[i]! - shift) - low + 1]!++;
  for (let band = 0; band < bands; band++) bandStart[band + 1]! += bandStart[band]!;
  const next = bandStart.slice(0, bands);
  const n = hi - lo;
  const bandF = new Float64Array(n);
  // (slot of offset o is 1 + o - base, so that the ±1 sum below reads inside the array)
  const bandAt = new Int32Array(n);
  for (let i = lo; i < hi; i++) {
    const fq = query.f[i]! - shift;
    const slot = next[Math.floor(fq) - low]!++;
    bandF[slot] = fq;
    bandAt[slot] = 1 - Math.round(query.t[i]! * a) - base;
  }
  const { start: gridStart, f: gridF } = grid;
  for (let x = 0; x < frames; x++) {
    for (let k = gridStart[x]!; k < gridStart[x + 1]!; k++) {
      const f = gridF[k]!;
      const bLo = Math.max(0, Math.floor(f - VERIFY_BINS) - low);
      const bHi = Math.min(bands - 1, Math.floor(f + VERIFY_BINS) - low);
      if (bLo > bHi) continue;
      for (let j = bandStart[bLo]!; j < bandStart[bHi + 1]!; j++)
        if (Math.abs(f - bandF[j]!) <= VERIFY_BINS) h[bandAt[j]! + x]!++;
    }
  }
  const chosen: number[] = [];
  const near = (x: number, list: readonly number[], within: number) =>
    list.some((y) => Math.abs(x - y) <= within);
  while (chosen.length < count) {
    let best = 0;
    let bestVotes = 0;
    for (let slot = 1; slot <= size; slot++) {
      const votes = h[slot - 1]! + h[slot]! + h[slot + 1]!;
      if (votes <= bestVotes) continue;
      const offset = slot - 1 + base;
      if (near(offset, chosen, PEAK_SPACING) || near(offset, skip, KEY_SPACING)) continue;
      best = offset;
      bestVotes = votes;
    }
    if (bestVotes === 0) break;
    chosen.push(best);
  }
  return chosen;
}

/**
 * The first `search.songs` (PEAK_SONGS) candidate songs aligned by single peaks in the window
 * [start, start + WINDOW_FRAMES), at no warp: each song's PEAK_OFFSETS best offsets (peakOffsets;
 * its keys passed over) verified as a key is, down to `needed`; per song the best result that
 * reaches it. Only at no warp: on the tuning rooms the warps of the song's keys as well found 1
 * window of 564 more, and twice the chance in music outside the index (docs/performance.md).
 */
export function peakDetections(
  candidates: readonly Candidate[],
  start: number,
  query: Pick<Peaks, 't' | 'f' | 'count'>,
  grids: ReadonlyMap<number, PeakGrid | null>,
  needed: number,
  search: PeakSearch = {},
): Array<Omit<Detection, 'window'>> {
  const songs = search.songs ?? PEAK_SONGS;
  const keysOf = new Map<number, Candidate[]>();
  for (const candidate of candidates) {
    const keys = keysOf.get(candidate.songId);
    if (keys) keys.push(candidate);
    else if (keysOf.size < songs) keysOf.set(candidate.songId, [candidate]);
  }
  const found: Array<Omit<Detection, 'window'>> = [];
  for (const [songId, keys] of keysOf) {
    const grid = grids.get(songId);
    if (!grid) continue;
    let best: Omit<Detection, 'window'> | undefined;
    // (the keys at no warp were verified already)
    const skip = keys.filter((key) => key.warp === 0).map((key) => key.offset);
    for (const offset of peakOffsets(query, start, start + WINDOW_FRAMES, grid, 0, search.offsets, skip)) {
      const verified = verifyCandidate(
        query,
        start,
        start + WINDOW_FRAMES,
        grid,
        { warp: 0, offset },
        needed,
      );
      if (verified.score < needed || verified.first < 0) continue;
      if (best && verified.score <= best.score) continue;
      best = { songId, warp: 0, ...verified };
    }
    if (best) found.push(best);
  }
  return found;
}

export interface Play {
  songId: number;
  /** Query frames of the first and last agreeing landmark. */
  first: number;
  last: number;
  /** Best window's score. */
  score: number;
  /**
   * Best window's score on the song's own evidence (ownScoreOf: explained by the song heard
   * strongest in the window, when another is): what a play of one window needs to reach.
   * Absent: `score`.
   */
  solo?: number;
  warp: number;
  /**
   * Heard at one position of the song by two windows that share no audio (starts two hops
   * apart), each at the window threshold: evidence that chance, which scores window by window,
   * hardly ever gives.
   */
  corroborated: boolean;
  /**
   * The song-level evidence of the play: the sum of the scores of every window (weak ones too)
   * that heard the song at the play's position (each its own score, ownScoreOf), once it spans two windows that share no audio;
   * 0 when it does not. See EVIDENCE_BOUND.
   */
  evidence: number;
  /**
   * Where the song's own start (its position 0) lies, in query frames, as its best window hears
   * it: that window's position in the song taken back at its tempo (negative when the song began
   * before the signal). A play heard from its first seconds has its first frame there; a play
   * whose beginning was masked or cut off by the signal's start begins earlier than `first`.
   */
  songStart: number;
  /** Song frames per query frame (the best window's warp: above 1, the song is played faster). */
  tempo: number;
}

/**
 * Frames between two windows of one play, at one position of the song, before it counts as
 * played again: as long as MERGE_GAP_FRAMES, so that a play whose position keeps advancing
 * through a quiet or masked stretch stays one play and keeps its evidence.
 */
const MAX_GAP_FRAMES = Math.round(45 / FRAME_SECONDS);

/** What chainDetections asks of a play (recognizeWith scales them with its minConfidence). */
export interface ChainBounds {
  /** Score one window needs to be heard on its own (MIN_SCORE at the default confidence). */
  minScore?: number;
  /** Evidence that confirms a play whose windows are each under minScore (EVIDENCE_BOUND). */
  evidenceBound?: number;
}

/**
 * Chains window detections of the same song at a consistent song position into plays: a play is
 * a hypothesis that grows while the recording goes on. Windows under the window threshold (weak
 * ones, WEAK_SCORE and up) add to it like the others: each extends the play it agrees with (so a
 * quiet or masked stretch where the song is heard only weakly does not cut it) and adds its score
 * to the play's evidence. A play is kept when it is corroborated, or its best window reaches
 * `soloScore` (recognition asks more of a lone window in a recording long enough to corroborate a
 * song that is really playing, see SOLO_FACTOR), or its evidence reaches the bound (windows that
 * share no audio, each perhaps too weak alone, at one position of the song: see EVIDENCE_BOUND).
 */
export function chainDetections(
  detections: readonly Detection[],
  soloScore = MIN_SCORE,
  { minScore = MIN_SCORE, evidenceBound = EVIDENCE_BOUND }: ChainBounds = {},
): Play[] {
  const sorted = [...detections].sort((x, y) => x.songId - y.songId || x.first - y.first);
  type Open = Omit<Play, 'corroborated' | 'evidence'> & {
    offset: number;
    a: number;
    fromWindow: number;
    toWindow: number;
    /** First and last windows at minScore (-1: none). */
    strongFrom: number;
    strongTo: number;
    total: number;
    solo: number;
    songStart: number;
    tempo: number;
  };
  const opened: Open[] = [];
  // The song's plays a detection can still extend: every one, not only the latest, so that a
  // window hearing a loop or a chorus at another of its repeats does not cut the play at the
  // position the windows around it agree on.
  let alive: Open[] = [];
  for (const d of sorted) {
    const a = WARPS[d.warp]!.a;
    const strong = d.score >= minScore;
    alive = alive.filter((play) => play.songId === d.songId && d.first - play.last <= MAX_GAP_FRAMES);
    let best: Open | undefined;
    let bestError = Number.POSITIVE_INFINITY;
    for (const play of alive) {
      // Position in the song at d.first, as predicted by the play so far and as seen by d.
      const error = Math.abs(play.offset + play.a * d.first - (d.offset + a * d.first));
      const tolerance = 1 / FRAME_SECONDS + 0.01 * Math.abs(d.first - play.last);
      if (error <= tolerance && error < bestError) {
        best = play;
        bestError = error;
      }
    }
    if (best) {
      best.first = Math.min(best.first, d.first);
      best.last = Math.max(best.last, d.last);
      if (d.score > best.score) {
        best.score = d.score;
        best.warp = d.warp;
        best.songStart = -d.offset / a;
        best.tempo = a;
      }
      best.offset = d.offset;
      best.a = a;
      best.fromWindow = Math.min(best.fromWindow, d.window);
      best.toWindow = Math.max(best.toWindow, d.window);
      if (strong) {
        best.strongFrom = best.strongFrom < 0 ? d.window : Math.min(best.strongFrom, d.window);
        best.strongTo = Math.max(best.strongTo, d.window);
      }
      best.total += ownScoreOf(d);
      best.solo = Math.max(best.solo, ownScoreOf(d));
      continue;
    }
    const play: Open = {
      songId: d.songId,
      first: d.first,
      last: d.last,
      score: d.score,
      warp: d.warp,
      offset: d.offset,
      a,
      fromWindow: d.window,
      toWindow: d.window,
      strongFrom: strong ? d.window : -1,
      strongTo: strong ? d.window : -1,
      total: ownScoreOf(d),
      solo: ownScoreOf(d),
      songStart: -d.offset / a,
      tempo: a,
    };
    opened.push(play);
    alive.push(play);
  }
  const plays = opened.map(
    ({
      songId,
      first,
      last,
      score,
      warp,
      fromWindow,
      toWindow,
      strongFrom,
      strongTo,
      total,
      solo,
      songStart,
      tempo,
    }) => ({
      songId,
      first,
      last,
      score,
      solo,
      warp,
      corroborated: strongFrom >= 0 && strongTo - strongFrom >= CORROBORATING_FRAMES,
      evidence: toWindow - fromWindow >= CORROBORATING_FRAMES ? total : 0,
      songStart,
      tempo,
    }),
  );
  const confirmed = (play: Play) =>
    play.corroborated || (play.solo ?? play.score) >= soloScore || play.evidence >= evidenceBound;
  // Pieces of weak windows only that their evidence does not confirm are no play, nor a stretch
  // of one; the others merge (mergeNearPlays) and then must be confirmed.
  const pieces = plays.filter((play) => play.score >= minScore || confirmed(play));
  const kept = mergeNearPlays(pieces, minScore, evidenceBound).filter(confirmed);
  return dropShadowed(kept, { minScore, evidenceBound }).sort(
    (x, y) => x.first - y.first || x.songId - y.songId,
  );
}

/**
 * The score a play stands for, for its confidence: its best window's, or, for a play heard
 * window after window, its evidence scaled so that the bound counts as the window threshold
 * (confidence 0.5 at either).
 */
export const strengthOf = (
  play: Pick<Play, 'score' | 'evidence'>,
  { minScore = MIN_SCORE, evidenceBound = EVIDENCE_BOUND }: ChainBounds = {},
): number => Math.max(play.score, (minScore * play.evidence) / evidenceBound);

/**
 * A play lying within a play of another song that scores SHADOW_RATIO times as much is taken for
 * music the two songs share (a theme quoted in another track of the same soundtrack, a sample),
 * not for a second song: a DJ's crossfade never lies within the other song's play, it starts or
 * ends outside it. Each play scores its strength (strengthOf): a song heard window after window
 * stands for its evidence, not only its best window. In a 50 s chunk (the server's 30 s and the
 * 20 s tail) the song playing has few windows, and its best one alone fell short of 3 times a
 * song sharing its music (docs/performance.md, "Shared music in the server's chunks": Drascula's
 * track 2 inside track 16: 69.5 against 177.5, and its windows there sum to about 950).
 */
const SHADOW_RATIO = 3;
const SHADOW_SLACK_FRAMES = Math.round(1 / FRAME_SECONDS);

function dropShadowed(plays: Play[], bounds: ChainBounds): Play[] {
  const strength = new Map(plays.map((play) => [play, strengthOf(play, bounds)]));
  return plays.filter(
    (p) =>
      !plays.some(
        (q) =>
          q.songId !== p.songId &&
          strength.get(q)! >= SHADOW_RATIO * strength.get(p)! &&
          q.first <= p.first + SHADOW_SLACK_FRAMES &&
          q.last >= p.last - SHADOW_SLACK_FRAMES,
      ),
  );
}

/** A piece scoring under this many times the window threshold does not extend a nearby play of its song. */
const WEAK_PIECE = 1.5;

/** Plays of one song closer than this are one play (a DJ does not replay a song within it). */
const MERGE_GAP_FRAMES = Math.round(45 / FRAME_SECONDS);

/**
 * Merges plays of the same song that overlap or lie less than MERGE_GAP_FRAMES apart, whatever
 * their positions: a chorus heard at the position of its other occurrence, or a stretch too
 * noisy for any window, must not split one play into several.
 */
function mergeNearPlays(plays: Play[], minScore: number, evidenceBound: number): Play[] {
  const sorted = [...plays].sort((x, y) => x.songId - y.songId || x.first - y.first);
  const merged: Play[] = [];
  for (const play of sorted) {
    const last = merged.at(-1);
    if (last && last.songId === play.songId && play.first - last.last <= MERGE_GAP_FRAMES) {
      // A weak piece at another position (one window barely over the threshold, no evidence of
      // its own) is more likely chance than the song going on: it neither stretches the play nor
      // becomes a play.
      const weak = play.score < WEAK_PIECE * minScore && play.evidence < evidenceBound;
      if (weak && play.last > last.last) continue;
      last.last = Math.max(last.last, play.last);
      last.corroborated ||= play.corroborated;
      last.evidence = Math.max(last.evidence, play.evidence);
      last.solo = Math.max(last.solo ?? last.score, play.solo ?? play.score);
      if (play.score > last.score) {
        last.score = play.score;
        last.warp = play.warp;
        last.songStart = play.songStart;
        last.tempo = play.tempo;
      }
    } else merged.push({ ...play });
  }
  return merged;
}

/** Confidence 0-1 of a score: 0.5 at MIN_SCORE, 0.75 at twice it, near 1 beyond. */
export const confidenceOf = (score: number): number => 1 - 0.5 ** (Math.max(0, score) / MIN_SCORE);

/** The score a confidence stands for (inverse of confidenceOf). */
export const scoreFor = (confidence: number): number =>
  confidence <= 0
    ? 0
    : confidence >= 1
      ? Number.POSITIVE_INFINITY
      : (-MIN_SCORE * Math.log(1 - confidence)) / Math.LN2;

/** Seconds a play's last verified peak lies before the end of the sound it marks (half a window of the STFT plus the peak's neighbourhood). */
export const TAIL_SECONDS = 0.25;
