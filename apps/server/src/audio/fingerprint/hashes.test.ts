// Hashes: identical under gain, a shared majority for the same music cut at another place, and
// a query played faster finds its reference hashes only when re-hashed under the matching warp.
import { describe, expect, it } from 'vitest';
import { type Hashes, hashPeaks, probeHashes } from './hashes.js';
import { HOP, QUERY_PEAKS, QUERY_TARGETS, SAMPLE_RATE } from './params.js';
import { extractPeaks, type Peaks } from './peaks.js';
import { rng, scale, speedUp, synthSong } from './synth.js';

const asSet = (h: { hash: Int32Array }) => new Set(h.hash);
const shared = (query: Set<number>, reference: Set<number>) =>
  [...query].filter((hash) => reference.has(hash)).length / query.size;

describe('hashPeaks', () => {
  const song = synthSong(21, 40, SAMPLE_RATE);
  const reference = hashPeaks(extractPeaks(song));

  it('gives the same hashes at any gain (up to float32 rounding)', () => {
    const quiet = asSet(hashPeaks(extractPeaks(scale(song, 0.05))));
    expect(shared(quiet, asSet(reference))).toBeGreaterThan(0.97);
  });

  it('shares most hashes with an excerpt cut on a frame boundary, at anchors shifted by the cut', () => {
    const cutFrames = 700;
    const excerpt = hashPeaks(
      extractPeaks(song.subarray(cutFrames * HOP, cutFrames * HOP + SAMPLE_RATE * 10)),
    );
    expect(shared(asSet(excerpt), asSet(reference))).toBeGreaterThan(0.4);
    // Where a hash of the excerpt is in the reference, it is there at its anchor + the cut.
    const at = new Map<number, number[]>();
    for (let i = 0; i < reference.count; i++)
      at.set(reference.hash[i]!, [...(at.get(reference.hash[i]!) ?? []), reference.t[i]!]);
    let aligned = 0;
    let found = 0;
    for (let i = 0; i < excerpt.count; i++) {
      const times = at.get(excerpt.hash[i]!);
      if (!times) continue;
      found++;
      if (times.includes(excerpt.t[i]! + cutFrames)) aligned++;
    }
    expect(aligned / found).toBeGreaterThan(0.9);
  });

  // (Not 6 %: that is a semitone, and this chromatic melody played a semitone up shares about 9 % of
  // its hashes with itself by coincidence of notes.)
  it('matches an 8% faster query under the speed warp 1.08, not without it', () => {
    const fast = extractPeaks(speedUp(song, 1.08));
    const plain = shared(asSet(hashPeaks(fast)), asSet(reference));
    const warped = shared(asSet(hashPeaks(fast, { a: 1.08, pitch: true })), asSet(reference));
    expect(warped).toBeGreaterThan(0.15);
    // Pairs span at most a second, so an unwarped query still keeps its shortest steps.
    expect(warped).toBeGreaterThan(plain * 2);
  });

  it("hashes every reference pair again from a query's denser peaks and more targets", () => {
    const query = hashPeaks(extractPeaks(song, QUERY_PEAKS), undefined, QUERY_TARGETS);
    const querySet = new Set(Array.from({ length: query.count }, (_, i) => `${query.hash[i]}@${query.t[i]}`));
    let found = 0;
    for (let i = 0; i < reference.count; i++)
      if (querySet.has(`${reference.hash[i]}@${reference.t[i]}`)) found++;
    // Not all: a query's extra peaks can take a target's place among the first QUERY_TARGETS.
    expect(found / reference.count).toBeGreaterThan(0.9);
  });

  it('shares few hashes with other music (the matcher verifies what they propose)', () => {
    // 21-bit pairs of music on the same scales meet by chance; what tells songs apart is the
    // offset they agree on and the verification against the song's peaks (matcher.test.ts).
    const other = hashPeaks(extractPeaks(synthSong(22, 40, SAMPLE_RATE)));
    const excerpt = hashPeaks(extractPeaks(song.subarray(700 * HOP, 700 * HOP + SAMPLE_RATE * 10)));
    const chance = shared(asSet(other), asSet(reference));
    expect(chance).toBeLessThan(0.2);
    expect(shared(asSet(excerpt), asSet(reference))).toBeGreaterThan(chance * 3);
  });
});

describe('probeHashes', () => {
  const peaks = extractPeaks(synthSong(23, 30, SAMPLE_RATE));
  const reference = hashPeaks(peaks);
  /** The share of the reference's pairs that `query` hashes alike at an anchor within a frame. */
  const found = (query: Hashes) => {
    const at = new Map<number, number[]>();
    for (let i = 0; i < query.count; i++)
      at.set(query.hash[i]!, [...(at.get(query.hash[i]!) ?? []), query.t[i]!]);
    let n = 0;
    for (let i = 0; i < reference.count; i++)
      if (at.get(reference.hash[i]!)?.some((t) => Math.abs(t - reference.t[i]!) <= 1)) n++;
    return n / reference.count;
  };

  it('finds again the pairs whose peaks a room moved by a frame and a fraction of a bin', () => {
    // Every peak a frame later or not, its log-frequency moved by up to ±0.12 bin (a quarter of a
    // hash step): each pair's time step within a frame of its own, each frequency within the
    // nearer other hash step.
    const random = rng(5);
    const moved = Array.from({ length: peaks.count }, (_, i) => ({
      t: peaks.t[i]! + (random() < 0.5 ? 1 : 0),
      f: peaks.f[i]! + 0.24 * (random() - 0.5),
    })).sort((x, y) => x.t - y.t);
    const room: Peaks = {
      t: Int32Array.from(moved, (p) => p.t),
      f: Float32Array.from(moved, (p) => p.f),
      count: moved.length,
      frames: peaks.frames + 1,
      rank: new Uint8Array(moved.length),
    };
    const own = hashPeaks(room, undefined, QUERY_TARGETS);
    const probed = probeHashes(room, QUERY_TARGETS);
    expect(found(own)).toBeLessThan(0.5);
    expect(found(probed)).toBeGreaterThan(0.85);
    // Unmoved, the probes hold the pairs' own hashes, in anchor order.
    const still = probeHashes(peaks, QUERY_TARGETS);
    expect(found(still)).toBeCloseTo(found(hashPeaks(peaks, undefined, QUERY_TARGETS)), 6);
    expect(still.t.every((t, i) => i === 0 || t >= still.t[i - 1]!)).toBe(true);
    // 12 a pair at most: each pair's own, its time step ±1, and the other frequency steps.
    expect(still.count).toBeLessThanOrEqual(12 * hashPeaks(peaks, undefined, QUERY_TARGETS).count);
    expect(still.count).toBeGreaterThan(8 * hashPeaks(peaks, undefined, QUERY_TARGETS).count);
  });
});
