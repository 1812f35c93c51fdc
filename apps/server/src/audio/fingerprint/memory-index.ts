/**
 * The inverted index in memory: for each of the HASH_SPACE hashes, the (song, anchor frame)
 * entries of the indexed songs, in one compressed-sparse-row pair of typed arrays (8 bytes an
 * entry, plus 8 MB of bucket offsets). A lookup is two array reads and a view, instead of a
 * B-tree probe per hash in PostgreSQL: the 10 s query of a 1,000-song library touches about a
 * million entries, which only memory serves at hundreds of times real time.
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
import { decodeHashes, poolOf } from './store.js';

export interface InvertedIndex {
  /** Entries of hash h are the pairs [2·offsets[h], 2·offsets[h + 1]) of `entries`. */
  offsets: Int32Array;
  /** [songId, t, songId, t, ...] by hash. */
  entries: Int32Array;
  /** Revision of each indexed song (song_fingerprints.revision). */
  revisions: Map<number, number>;
  /** Entries in all: entries.length / 2. */
  size: number;
}

export const emptyIndex = (): InvertedIndex => ({
  offsets: new Int32Array(HASH_SPACE + 1),
  entries: new Int32Array(0),
  revisions: new Map(),
  size: 0,
});

/** A song's hashes to add, with the revision they were read at. */
export interface SongHashes {
  songId: number;
  revision: number;
  hashes: Hashes;
}

/**
 * A new index: `base` without the songs of `removed` (and without the old entries of the songs
 * of `added`), plus `added`. Within a bucket, entries keep base order, then added order.
 */
export function mergeIndex(
  base: InvertedIndex,
  removed: ReadonlySet<number>,
  added: readonly SongHashes[],
): InvertedIndex {
  const drop = new Set(removed);
  for (const song of added) drop.add(song.songId);
  const dropping = [...drop].some((id) => base.revisions.has(id));
  let maxId = 0;
  for (const id of drop) maxId = Math.max(maxId, id);
  const dropped = new Uint8Array(dropping ? maxId + 1 : 0);
  if (dropping) for (const id of drop) dropped[id] = 1;
  const isDropped = (songId: number) => songId < dropped.length && dropped[songId] === 1;

  // Bucket sizes of the new index, then each bucket's first slot.
  const counts = new Int32Array(HASH_SPACE + 1);
  const { offsets: oldOffsets, entries: oldEntries } = base;
  if (dropping) {
    for (let h = 0; h < HASH_SPACE; h++) {
      let n = 0;
      for (let e = oldOffsets[h]!; e < oldOffsets[h + 1]!; e++) if (!isDropped(oldEntries[2 * e]!)) n++;
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
  const entries = new Int32Array(2 * size);
  const next = offsets.slice(0, HASH_SPACE);
  for (let h = 0; h < HASH_SPACE; h++) {
    let slot = next[h]!;
    for (let e = oldOffsets[h]!; e < oldOffsets[h + 1]!; e++) {
      const songId = oldEntries[2 * e]!;
      if (dropping && isDropped(songId)) continue;
      entries[2 * slot] = songId;
      entries[2 * slot + 1] = oldEntries[2 * e + 1]!;
      slot++;
    }
    next[h] = slot;
  }
  for (const { songId, hashes } of added) {
    for (let i = 0; i < hashes.count; i++) {
      const slot = next[hashes.hash[i]!]!++;
      entries[2 * slot] = songId;
      entries[2 * slot + 1] = hashes.t[i]!;
    }
  }
  const revisions = new Map(base.revisions);
  for (const id of drop) revisions.delete(id);
  for (const { songId, revision } of added) revisions.set(songId, revision);
  return { offsets, entries, revisions, size };
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

/** Changes whenever a song is indexed, re-indexed or removed: revisions only grow. */
async function signatureOf(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ n: number; s: string; m: string }>(
    `select count(*)::int as n, coalesce(sum(revision), 0)::text as s, coalesce(max(revision), 0)::text as m
       from song_fingerprints`,
  );
  return `${rows[0]!.n}:${rows[0]!.s}:${rows[0]!.m}`;
}

async function refresh(pool: pg.Pool, base: InvertedIndex): Promise<InvertedIndex> {
  const { rows } = await pool.query<{ song_id: number; revision: string }>(
    'select song_id, revision from song_fingerprints',
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
      text: 'select song_id, revision::text, hashes from song_fingerprints where song_id = any($1::int[])',
      values: [`{${batch.join(',')}}`],
      rowMode: 'array',
    });
    const found = new Set<number>();
    for (const [songId, revision, hashes] of result.rows) {
      found.add(songId);
      added.push({ songId, revision: Number(revision), hashes: decodeHashes(hashes) });
    }
    // Deleted since the list was read.
    for (const id of batch) if (!found.has(id)) removed.add(id);
  }
  return mergeIndex(base, removed, added);
}

/**
 * The index of `db` as it is now: loaded on first use, refreshed when songs were indexed,
 * re-indexed or removed since (by this process or another).
 */
export async function currentIndex(db: Db): Promise<InvertedIndex> {
  const pool = poolOf(db);
  let state = states.get(pool);
  if (!state) {
    state = { index: emptyIndex(), signature: '' };
    states.set(pool, state);
  }
  if (state.refreshing) return state.refreshing;
  const signature = await signatureOf(pool);
  if (signature === state.signature) return state.index;
  if (state.refreshing) return state.refreshing;
  const current = state;
  current.refreshing = refresh(pool, current.index)
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
