import { describe, expect, it } from 'vitest';
import type { Hashes } from './hashes.js';
import { emptyIndex, type InvertedIndex, mergeIndex } from './memory-index.js';

const hashes = (pairs: [hash: number, t: number][]): Hashes => ({
  hash: Int32Array.from(pairs.map((p) => p[0])),
  t: Int32Array.from(pairs.map((p) => p[1])),
  count: pairs.length,
});

/** The entries of one hash as [songId, t] pairs. */
function lookup(index: InvertedIndex, hash: number): [number, number][] {
  const out: [number, number][] = [];
  for (let e = index.offsets[hash]!; e < index.offsets[hash + 1]!; e++) {
    out.push([index.entries[2 * e]!, index.entries[2 * e + 1]!]);
  }
  return out;
}

describe('mergeIndex', () => {
  const first = mergeIndex(emptyIndex(), new Set(), [
    {
      songId: 7,
      revision: 1,
      hashes: hashes([
        [5, 10],
        [9, 11],
        [5, 40],
      ]),
    },
    {
      songId: 3,
      revision: 2,
      hashes: hashes([
        [5, 2],
        [2_000_000, 3],
      ]),
    },
  ]);

  it('files every entry under its hash, in song order within a bucket', () => {
    expect(first.size).toBe(5);
    expect(lookup(first, 5)).toEqual([
      [7, 10],
      [7, 40],
      [3, 2],
    ]);
    expect(lookup(first, 9)).toEqual([[7, 11]]);
    expect(lookup(first, 2_000_000)).toEqual([[3, 3]]);
    expect(lookup(first, 6)).toEqual([]);
    expect([...first.revisions]).toEqual([
      [7, 1],
      [3, 2],
    ]);
  });

  it('drops a removed song and replaces a re-indexed one, keeping the others', () => {
    const next = mergeIndex(first, new Set([3]), [
      { songId: 7, revision: 5, hashes: hashes([[9, 12]]) },
      { songId: 8, revision: 6, hashes: hashes([[5, 1]]) },
    ]);
    expect(next.size).toBe(2);
    expect(lookup(next, 5)).toEqual([[8, 1]]);
    expect(lookup(next, 9)).toEqual([[7, 12]]);
    expect(lookup(next, 2_000_000)).toEqual([]);
    expect([...next.revisions].sort()).toEqual([
      [7, 5],
      [8, 6],
    ]);
    // The base index is not changed (a recognition may still be reading it).
    expect(lookup(first, 5)).toEqual([
      [7, 10],
      [7, 40],
      [3, 2],
    ]);
  });

  it('adds to an index without copying what stays', () => {
    const next = mergeIndex(first, new Set(), [{ songId: 1, revision: 9, hashes: hashes([[9, 0]]) }]);
    expect(lookup(next, 9)).toEqual([
      [7, 11],
      [1, 0],
    ]);
    expect(lookup(next, 5)).toEqual(lookup(first, 5));
    expect(next.size).toBe(6);
  });
});
