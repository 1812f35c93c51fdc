// Hashes: identical under gain, a shared majority for the same music cut at another place, and
// a query played faster finds its reference hashes only when re-hashed under the matching warp.
import { describe, expect, it } from 'vitest';
import { F_LIMIT, HASH_SPACE, hashKey, hashPeaks } from './hashes.js';
import {
  DF_BAND_EDGES,
  DF_STEPS,
  HASH_STEPS,
  HOP,
  MAX_DF,
  MAX_DT,
  QUERY_PEAKS,
  QUERY_TARGETS,
  SAMPLE_RATE,
} from './params.js';
import { extractPeaks, type Peaks } from './peaks.js';
import { scale, speedUp, synthSong } from './synth.js';

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

  // Two pairs whose frequency steps differ by 1/5 of a peak bin (1/160 octave), anchored at
  // `f` (a peak's log-frequency, BINS_PER_OCTAVE × log2(hz / MIN_HZ)).
  const pairsAt = (f: number): [number, number] => {
    const pair = (step: number): Peaks => ({
      t: Int32Array.from([0, 5]),
      f: Float32Array.from([f, f + step]),
      count: 2,
      frames: 6,
      rank: new Uint8Array(2),
    });
    return [hashPeaks(pair(3)).hash[0]!, hashPeaks(pair(3.2)).hash[0]!];
  };

  it('hashes a frequency step finer where peaks are precise: above 800 Hz, not at 300 Hz', () => {
    // 300 Hz: an FFT bin (7.8 Hz) is 1.2 peak bins; steps are hashed at 1/2 bin.
    const [low, lowNear] = pairsAt(32 * Math.log2(300 / 200));
    expect(lowNear).toBe(low);
    // 1,600 Hz: an FFT bin is 0.2 peak bins; steps are hashed at 1/6 bin.
    const [high, highNear] = pairsAt(32 * Math.log2(1600 / 200));
    expect(highNear).not.toBe(high);
  });

  it('gives every (anchor frequency, frequency step, time step) its own hash below HASH_SPACE', () => {
    const seen = new Uint8Array(HASH_SPACE);
    let count = 0;
    let clashes = 0;
    for (let f1 = 0; f1 < F_LIMIT; f1++) {
      // The step's resolution in this band.
      const band = DF_BAND_EDGES.filter((edge) => f1 >= edge).length;
      const steps = DF_STEPS[band]!;
      for (let k = -MAX_DF * steps; k <= MAX_DF * steps; k++) {
        for (let dt = 1; dt <= MAX_DT; dt++) {
          const h = hashKey(f1, k / steps, dt);
          if (!(h >= 0 && h < HASH_SPACE) || seen[h] === 1) clashes++;
          else seen[h] = 1;
          count++;
        }
      }
    }
    expect(clashes).toBe(0);
    // Every row is used: the bucket table has no holes (but time step 0, which no pair has).
    expect(count).toBe((HASH_SPACE / 32) * MAX_DT);
    expect(F_LIMIT).toBeGreaterThan(HASH_STEPS * 32 * Math.log2(3600 / 200));
  });
});
