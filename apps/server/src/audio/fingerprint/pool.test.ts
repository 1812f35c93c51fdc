// A segment's candidate pool (index.ts, pooledDetections): a song proposed by its pairs in a few
// windows of a segment is searched by single peaks in the segment's windows where no pair of it
// survives, at the window score plus POOL_MARGIN.
import { describe, expect, it } from 'vitest';
import { type Hashes, hashPeaks, probeHashes } from './hashes.js';
import { indexSignal, memorySource, windowDetections } from './index.js';
import { type Detection, peakGrid, verifyCandidate, WINDOW_FRAMES, WINDOW_HOP } from './matcher.js';
import { emptyIndex, mergeIndex } from './memory-index.js';
import {
  HOP,
  POOL_MARGIN,
  POOL_WINDOWS,
  QUERY_PEAKS,
  QUERY_TARGETS,
  QUERY_VERIFY_PEAKS,
  SAMPLE_RATE,
  WARPS,
  WEAK_SCORE,
} from './params.js';
import { extractPeakSets } from './peaks.js';
import { synthSong } from './synth.js';

/**
 * The pairs of `excerpt` anchored before frame `known`, at their place in the song (`cut` frames
 * in), less every hash the excerpt's later anchors have or probe (the synthesised song repeats
 * itself): from `known` on, no window's pairs or second chance proposes the song.
 */
function pairsBefore(excerpt: Float32Array, known: number, cut: number): Hashes {
  const { hashed } = extractPeakSets(excerpt, QUERY_PEAKS, QUERY_VERIFY_PEAKS);
  const later = new Set<number>();
  for (const set of [
    ...WARPS.map((warp) => hashPeaks(hashed, warp, QUERY_TARGETS)),
    probeHashes(hashed, QUERY_TARGETS),
  ])
    for (let i = 0; i < set.count; i++) if (set.t[i]! >= known) later.add(set.hash[i]!);
  const own = hashPeaks(hashed, WARPS[0]!, QUERY_TARGETS);
  const keep = [...own.t.keys()].filter((i) => own.t[i]! < known && !later.has(own.hash[i]!));
  return {
    hash: Int32Array.from(keep, (i) => own.hash[i]!),
    t: Int32Array.from(keep, (i) => own.t[i]! + cut),
    count: keep.length,
  };
}

describe("a segment's candidate pool", () => {
  it("hears a song by single peaks in the windows where none of its pairs is indexed, once it is a candidate in POOL_WINDOWS of the segment's", async () => {
    const song = synthSong(41, 90, SAMPLE_RATE);
    const cut = 600;
    const excerpt = song.subarray(cut * HOP, cut * HOP + 40 * SAMPLE_RATE);
    // The song indexed with only the excerpt's pairs anchored in its first POOL_WINDOWS window hops
    // (at their place in the song): the windows from there on find none of its pairs.
    const known = POOL_WINDOWS * WINDOW_HOP;
    const hashes = pairsBefore(excerpt, known, cut);
    const index = mergeIndex(emptyIndex(), new Set(), [{ songId: 5, revision: 1, hashes }]);
    const { peaks } = indexSignal(song);
    const source = memorySource(index, new Map([[5, peaks]]));
    const late = (detections: Detection[]) => detections.filter((d) => d.songId === 5 && d.window >= known);

    // Without the pool the song is heard only in the windows its pairs reach.
    const without = await windowDetections(source, excerpt, WEAK_SCORE, undefined, true, false);
    expect(without.detections.some((d) => d.songId === 5 && d.window < known)).toBe(true);
    expect(late(without.detections)).toEqual([]);

    // With it, in the later windows too, at its offset, each reported POOL_MARGIN under its score.
    const { detections, peaks: query } = await windowDetections(source, excerpt, WEAK_SCORE);
    const found = late(detections);
    expect(found.length).toBeGreaterThanOrEqual(2);
    const grid = peakGrid(peaks);
    for (const d of found) {
      expect(Math.abs(d.offset - cut)).toBeLessThanOrEqual(2);
      expect(d.warpless).toBe(true);
      const verified = verifyCandidate(query, d.window, d.window + WINDOW_FRAMES, grid, d);
      // (verified again from its settled offset: within a frame's settling of the same count)
      expect(Math.abs(d.score + POOL_MARGIN - verified.score)).toBeLessThanOrEqual(2);
      expect(d.score).toBeLessThan(verified.score - POOL_MARGIN / 2);
      expect(d.score).toBeGreaterThanOrEqual(WEAK_SCORE);
    }
  });

  it('searches no song proposed in fewer than POOL_WINDOWS windows', async () => {
    const song = synthSong(43, 90, SAMPLE_RATE);
    const cut = 600;
    const excerpt = song.subarray(cut * HOP, cut * HOP + 40 * SAMPLE_RATE);
    // Pairs anchored in the first window hop only: the song is a candidate in POOL_WINDOWS - 1
    // windows at most (those that hold those anchors).
    const known = (POOL_WINDOWS - 1) * WINDOW_HOP;
    const hashes = pairsBefore(excerpt, known, cut);
    const index = mergeIndex(emptyIndex(), new Set(), [{ songId: 6, revision: 1, hashes }]);
    const source = memorySource(index, new Map([[6, indexSignal(song).peaks]]));
    const { detections } = await windowDetections(source, excerpt, WEAK_SCORE);
    expect(detections.filter((d) => d.songId === 6 && d.window >= known + WINDOW_HOP)).toEqual([]);
  });
});
