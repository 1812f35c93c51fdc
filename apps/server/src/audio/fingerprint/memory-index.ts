/**
 * The inverted index in memory: for each of the HASH_SPACE hashes, the (song, anchor frame)
 * entries of the indexed songs, in one compressed-sparse-row pair of typed arrays: 8 MB of bucket
 * offsets, and 4 bytes an entry, the song and the frame packed in one 32-bit word (see
 * InvertedIndex). A lookup is two array reads and a view, instead of a B-tree probe per hash in
 * PostgreSQL: the 10 s query of a 1,000-song library touches about a million entries, which only
 * memory serves at hundreds of times real time.
 *
 * PostgreSQL stays the source of truth (store.ts): each process that recognises (the server,
 * `wcs recognize`) loads the hashes once and, before every recognition, compares a signature of
 * the `song_fingerprints` revisions with the one it loaded; on a difference it reads only the
 * songs whose revision changed and rebuilds the arrays by merging (O(entries), no re-read of the
 * rest). Memory and load times per hour of audio are in docs/operations.md.
 */
import type pg from 'pg';
import type { Db } from '../../db/client.js';
import { HASH_SPACE, type Hashes } from './hashes.js';
import { FINGERPRINT_VERSION } from './params.js';
import { decodeHashes, poolOf } from './store.js';

/**
 * Entries are packed as (piece << frameBits) | frame-in-piece. A piece is a song's stretch of
 * 2^frameBits frames (pieceSong, pieceBase): a song is one piece unless it is longer than that.
 * frameBits is as large as the number of pieces allows (32 bits in all): at 10,000 songs 18 bits
 * (2.3 h a piece), at 100,000 songs 15 bits (17 min; a longer song takes two pieces or more).
 */
export interface InvertedIndex {
  /** Entries of hash h are [offsets[h], offsets[h + 1]) of `entries`. */
  offsets: Int32Array;
  /**
   * (piece << frameBits) | (anchor frame - pieceBase[piece]), by hash; read with >>> (a piece
   * number may take the sign bit: int32 reads stay small integers in the engine).
   */
  entries: Int32Array;
  frameBits: number;
  /** Song id and first frame of each piece. */
  pieceSong: Int32Array;
  pieceBase: Int32Array;
  /** Revision of each indexed song (song_fingerprints.revision), in piece order. */
  revisions: Map<number, number>;
  /** Frames of each indexed song (its last anchor frame + 1). */
  frames: Map<number, number>;
  /** Entries in all: entries.length. */
  size: number;
}

/** Largest frameBits (an index of up to 4 pieces). */
const MAX_FRAME_BITS = 30;

export const emptyIndex = (): InvertedIndex => ({
  offsets: new Int32Array(HASH_SPACE + 1),
  entries: new Int32Array(0),
  frameBits: MAX_FRAME_BITS,
  pieceSong: new Int32Array(0),
  pieceBase: new Int32Array(0),
  revisions: new Map(),
  frames: new Map(),
  size: 0,
});

/** The bytes an index holds: its entries, and its bucket offsets and piece tables. */
export const indexBytes = (index: InvertedIndex): { entries: number; fixed: number } => ({
  entries: index.entries.byteLength,
  fixed: index.offsets.byteLength + index.pieceSong.byteLength + index.pieceBase.byteLength,
});

/** The song id and anchor frame of entry e (for tests and tools; the matcher unpacks inline). */
export function entryAt(index: InvertedIndex, e: number): [songId: number, t: number] {
  const x = index.entries[e]!;
  const piece = x >>> index.frameBits;
  return [index.pieceSong[piece]!, index.pieceBase[piece]! + (x & ((1 << index.frameBits) - 1))];
}

/**
 * The frameBits of an index of songs of `frames` frames each: the largest (up to `maxBits`) that
 * leaves enough bits for the number of pieces it cuts the songs into.
 */
export function chooseFrameBits(frames: Iterable<number>, maxBits = MAX_FRAME_BITS): number {
  const list = [...frames];
  for (let bits = maxBits; bits > 0; bits--) {
    let pieces = 0;
    for (const n of list) pieces += n > 0 ? Math.ceil(n / 2 ** bits) : 1;
    if (pieces <= 2 ** (32 - bits)) return bits;
  }
  throw new Error('too many songs for a 32-bit index entry');
}

/** A song's hashes to add, with the revision they were read at. */
export interface SongHashes {
  songId: number;
  revision: number;
  hashes: Hashes;
}

/**
 * A new index: `base` without the songs of `removed` (and without the old entries of the songs
 * of `added`), plus `added`. Within a bucket, entries keep base order, then added order. The
 * base is not changed (a recognition may still be reading it). `maxFrameBits` only for tests.
 */
export function mergeIndex(
  base: InvertedIndex,
  removed: ReadonlySet<number>,
  added: readonly SongHashes[],
  maxFrameBits = MAX_FRAME_BITS,
): InvertedIndex {
  const drop = new Set(removed);
  for (const song of added) drop.add(song.songId);
  const revisions = new Map(base.revisions);
  const frames = new Map(base.frames);
  for (const id of drop) {
    revisions.delete(id);
    frames.delete(id);
  }
  for (const { songId, revision, hashes } of added) {
    revisions.set(songId, revision);
    let last = -1;
    for (let i = 0; i < hashes.count; i++) if (hashes.t[i]! > last) last = hashes.t[i]!;
    frames.set(songId, last + 1);
  }
  // The pieces, song by song in the order of `revisions` (the base's songs keep their order).
  const frameBits = chooseFrameBits(frames.values(), maxFrameBits);
  const frameMask = 2 ** frameBits - 1;
  let pieceCount = 0;
  for (const n of frames.values()) pieceCount += n > 0 ? Math.ceil(n / 2 ** frameBits) : 1;
  const pieceSong = new Int32Array(pieceCount);
  const pieceBase = new Int32Array(pieceCount);
  const firstPiece = new Map<number, number>();
  let p = 0;
  for (const [songId, n] of frames) {
    firstPiece.set(songId, p);
    for (let from = 0; from === 0 || from < n; from += 2 ** frameBits, p++) {
      pieceSong[p] = songId;
      pieceBase[p] = from;
    }
  }
  // Each old piece's song's first new piece (-1: dropped), and whether every old entry keeps its
  // word (same bits, same pieces): then buckets are copied as they are.
  const oldPieces = base.pieceSong.length;
  const moveTo = new Int32Array(oldPieces);
  let same = base.frameBits === frameBits;
  for (let q = 0; q < oldPieces; q++) {
    const songId = base.pieceSong[q]!;
    const first = drop.has(songId) ? undefined : firstPiece.get(songId);
    moveTo[q] = first === undefined ? -1 : first;
    if (first === undefined || first + Math.floor(base.pieceBase[q]! / 2 ** frameBits) !== q) same = false;
  }

  // Bucket sizes of the new index, then each bucket's first slot.
  const counts = new Int32Array(HASH_SPACE + 1);
  const { offsets: oldOffsets, entries: oldEntries, frameBits: oldBits } = base;
  const oldMask = 2 ** oldBits - 1;
  if (!same) {
    for (let h = 0; h < HASH_SPACE; h++) {
      let n = 0;
      for (let e = oldOffsets[h]!; e < oldOffsets[h + 1]!; e++)
        if (moveTo[oldEntries[e]! >>> oldBits]! >= 0) n++;
      counts[h + 1] = n;
    }
  } else {
    for (let h = 0; h < HASH_SPACE; h++) counts[h + 1] = oldOffsets[h + 1]! - oldOffsets[h]!;
  }
  for (const { hashes } of added) {
    for (let i = 0; i < hashes.count; i++) counts[hashes.hash[i]! + 1]!++;
  }
  for (let h = 0; h < HASH_SPACE; h++) counts[h + 1]! += counts[h]!;
  const offsets = counts;
  const size = offsets[HASH_SPACE]!;
  const entries = new Int32Array(size);
  const next = offsets.slice(0, HASH_SPACE);
  for (let h = 0; h < HASH_SPACE; h++) {
    let slot = next[h]!;
    const from = oldOffsets[h]!;
    const to = oldOffsets[h + 1]!;
    if (same) {
      entries.set(oldEntries.subarray(from, to), slot);
      slot += to - from;
    } else {
      for (let e = from; e < to; e++) {
        const x = oldEntries[e]!;
        const q = x >>> oldBits;
        const first = moveTo[q]!;
        if (first < 0) continue;
        const t = base.pieceBase[q]! + (x & oldMask);
        entries[slot++] = (first + Math.floor(t / 2 ** frameBits)) * 2 ** frameBits + (t & frameMask);
      }
    }
    next[h] = slot;
  }
  for (const { songId, hashes } of added) {
    const first = firstPiece.get(songId)!;
    for (let i = 0; i < hashes.count; i++) {
      const t = hashes.t[i]!;
      entries[next[hashes.hash[i]!]!++] =
        (first + Math.floor(t / 2 ** frameBits)) * 2 ** frameBits + (t & frameMask);
    }
  }
  return { offsets, entries, frameBits, pieceSong, pieceBase, revisions, frames, size };
}

/** Songs read per query when (re)loading: bounds the blobs held at once by the driver. */
const LOAD_BATCH = 500;

interface State {
  index: InvertedIndex;
  signature: string;
  /** The refresh under way: concurrent recognitions wait for the same one. */
  refreshing?: Promise<InvertedIndex>;
}

const states = new WeakMap<pg.Pool, State>();

/**
 * The rows this process may search: those written by its own engine version. After an upgrade
 * that changes the hashes (FINGERPRINT_VERSION), a song still holding the old ones is left out
 * until the `song.fingerprint` job has re-indexed it (the version is written with the row, in
 * one transaction: store.ts), instead of its old hashes being looked up as if they meant the
 * new ones.
 */
const CURRENT_ROWS = `from song_fingerprints f join songs s on s.id = f.song_id where s.fingerprint_version = $1`;

/** Changes whenever a song is indexed, re-indexed or removed: revisions only grow. */
async function signatureOf(pool: pg.Pool, version: string): Promise<string> {
  const { rows } = await pool.query<{ n: number; s: string; m: string }>(
    `select count(*)::int as n, coalesce(sum(f.revision), 0)::text as s, coalesce(max(f.revision), 0)::text as m
       ${CURRENT_ROWS}`,
    [version],
  );
  return `${rows[0]!.n}:${rows[0]!.s}:${rows[0]!.m}`;
}

async function refresh(pool: pg.Pool, base: InvertedIndex, version: string): Promise<InvertedIndex> {
  const { rows } = await pool.query<{ song_id: number; revision: string }>(
    `select f.song_id, f.revision ${CURRENT_ROWS}`,
    [version],
  );
  const seen = new Set<number>();
  const changed: number[] = [];
  for (const row of rows) {
    seen.add(row.song_id);
    if (base.revisions.get(row.song_id) !== Number(row.revision)) changed.push(row.song_id);
  }
  const removed = new Set<number>();
  for (const id of base.revisions.keys()) if (!seen.has(id)) removed.add(id);
  if (changed.length === 0 && removed.size === 0) return base;
  const added: SongHashes[] = [];
  for (let start = 0; start < changed.length; start += LOAD_BATCH) {
    const batch = changed.slice(start, start + LOAD_BATCH);
    // (bytea arrives as hex text, which pg decodes natively; its per-query `binary` option is not
    // usable: the protocol parser of a text-mode connection reads every value as a UTF-8 string)
    const result = await pool.query<[number, string, Buffer]>({
      text: `select f.song_id, f.revision::text, f.hashes ${CURRENT_ROWS} and f.song_id = any($2::int[])`,
      values: [version, `{${batch.join(',')}}`],
      rowMode: 'array',
    });
    const found = new Set<number>();
    for (const [songId, revision, hashes] of result.rows) {
      found.add(songId);
      added.push({ songId, revision: Number(revision), hashes: decodeHashes(hashes) });
    }
    // Deleted (or indexed by another version) since the list was read.
    for (const id of batch) if (!found.has(id)) removed.add(id);
  }
  return mergeIndex(base, removed, added);
}

/**
 * The index of `db` as it is now: loaded on first use, refreshed when songs were indexed,
 * re-indexed or removed since (by this process or another).
 */
export async function currentIndex(db: Db, version: string = FINGERPRINT_VERSION): Promise<InvertedIndex> {
  const pool = poolOf(db);
  let state = states.get(pool);
  if (!state) {
    state = { index: emptyIndex(), signature: '' };
    states.set(pool, state);
  }
  if (state.refreshing) return state.refreshing;
  const signature = await signatureOf(pool, version);
  if (signature === state.signature) return state.index;
  if (state.refreshing) return state.refreshing;
  const current = state;
  current.refreshing = refresh(pool, current.index, version)
    .then((index) => {
      current.index = index;
      // The signature read before the refresh: a change during it is seen at the next call.
      current.signature = signature;
      return index;
    })
    .finally(() => {
      current.refreshing = undefined;
    });
  return current.refreshing;
}
