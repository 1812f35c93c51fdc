import { describe, expect, it } from 'vitest';
import type { Hashes } from './hashes.js';
import { chooseFrameBits, emptyIndex, entryAt, type InvertedIndex, mergeIndex } from './memory-index.js';

const hashes = (pairs: [hash: number, t: number][]): Hashes => ({
  hash: Int32Array.from(pairs.map((p) => p[0])),
  t: Int32Array.from(pairs.map((p) => p[1])),
  count: pairs.length,
});

/** The entries of one hash as [songId, t] pairs. */
function lookup(index: InvertedIndex, hash: number): [number, number][] {
  const out: [number, number][] = [];
  for (let e = index.offsets[hash]!; e < index.offsets[hash + 1]!; e++) out.push(entryAt(index, e));
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

  it('packs an entry in 4 bytes, cutting a song longer than a piece into pieces', () => {
    // Pieces of 2^4 = 16 frames: song 7 (frames 0-40) is three, song 3 (0-3) one.
    const small = mergeIndex(
      emptyIndex(),
      new Set(),
      [
        {
          songId: 7,
          revision: 1,
          hashes: hashes([
            [5, 10],
            [9, 11],
            [5, 40],
            [9, 16],
            [9, 15],
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
      ],
      4,
    );
    expect(small.entries.BYTES_PER_ELEMENT).toBe(4);
    expect(small.frameBits).toBe(4);
    expect([...small.pieceSong]).toEqual([7, 7, 7, 3]);
    expect([...small.pieceBase]).toEqual([0, 16, 32, 0]);
    expect(lookup(small, 5)).toEqual([
      [7, 10],
      [7, 40],
      [3, 2],
    ]);
    expect(lookup(small, 9)).toEqual([
      [7, 11],
      [7, 16],
      [7, 15],
    ]);
    // Dropping song 7 renumbers the pieces of the songs after it; re-adding it appends it.
    const dropped = mergeIndex(small, new Set([7]), [], 4);
    expect([...dropped.pieceSong]).toEqual([3]);
    expect(lookup(dropped, 5)).toEqual([[3, 2]]);
    expect(lookup(dropped, 2_000_000)).toEqual([[3, 3]]);
    const back = mergeIndex(dropped, new Set(), [{ songId: 7, revision: 3, hashes: hashes([[5, 33]]) }], 4);
    expect([...back.pieceSong]).toEqual([3, 7, 7, 7]);
    expect(lookup(back, 5)).toEqual([
      [3, 2],
      [7, 33],
    ]);
    // The same songs at the full width: one piece each, the same entries.
    const wide = mergeIndex(small, new Set(), []);
    expect(wide.frameBits).toBe(30);
    expect([...wide.pieceSong]).toEqual([7, 3]);
    expect(lookup(wide, 9)).toEqual(lookup(small, 9));
  });

  it('chooses the widest frame field that leaves bits for the pieces', () => {
    expect(chooseFrameBits([])).toBe(30);
    expect(chooseFrameBits(Array(10_000).fill(9_000))).toBe(18);
    // 100,000 songs of 5 minutes (9,375 frames): 17 bits of pieces, 15 of frames (17 min).
    expect(chooseFrameBits(Array(100_000).fill(9_375))).toBe(15);
    // One song of 3 h among them takes 11 pieces of 2^15 frames.
    expect(chooseFrameBits([...Array(99_999).fill(9_375), 337_500])).toBe(15);
  });
});
