// Triplet keys measured, not built (docs/performance.md, "Triplets for the large pair buckets,
// measured"; docs/operations.md, "Towards 100,000 songs", step 1). A triplet is a pair hash
// (apps/server/src/audio/fingerprint/hashes.ts, hashPeaks) plus one more peak of the anchor's
// target zone: that peak's time step and log-frequency step from the anchor, quantised as the
// pair's (a "third", 12 bits: (df << 5) | dt). The reference would store, for a pair whose bucket
// is large, one triplet per other target of its anchor (REFERENCE_TARGETS - 1 at most); a query
// would look up, instead of such a pair's bucket, one triplet per other target of its own anchor
// (QUERY_TARGETS - 1 at most). A triplet vote needs three peaks to survive the room, a pair two.

/** Bucket classes: 0 (<= 1x the mean bucket), 1 (1-2x], 2 (2-3x], 3 (3-4x], 4 (4x to the stop list], 5 (stopped). */
export const CLASS_NAMES = ['<=1x', '1-2x', '2-3x', '3-4x', '4x-stop', 'stopped'];

/** The class of every hash, from the bucket sizes of an index (`sizes[h]`) and its stop list. */
export function bucketClasses(sizes, { STOP_FACTOR, STOP_MIN }) {
  let total = 0;
  for (let h = 0; h < sizes.length; h++) total += sizes[h];
  const mean = total / sizes.length;
  const maxBucket = Math.max(STOP_MIN, STOP_FACTOR * mean);
  const classes = new Uint8Array(sizes.length);
  for (let h = 0; h < sizes.length; h++) {
    const s = sizes[h];
    classes[h] =
      s > maxBucket ? 5 : s > 4 * mean ? 4 : s > 3 * mean ? 3 : s > 2 * mean ? 2 : s > mean ? 1 : 0;
  }
  return { classes, mean, maxBucket, total };
}

/**
 * The pairs of `hashes` (hashPeaks' output: an anchor's pairs one after another, in its target
 * order), each with the thirds of its anchor's other pairs. A pair's hash ends in its third (the
 * low 12 bits: frequency step and time step) and begins with the anchor's log-frequency, so an
 * anchor's pairs are the consecutive ones of one frame and one anchor frequency (two peaks of one
 * frame lie further apart than one hash step: peaks.ts keeps a maximum of ±6 bins).
 */
export function pairsWithThirds(hashes) {
  const { hash, t, count } = hashes;
  const out = [];
  for (let start = 0; start < count; ) {
    let end = start + 1;
    while (end < count && t[end] === t[start] && hash[end] >>> 12 === hash[start] >>> 12) end++;
    for (let x = start; x < end; x++) {
      const thirds = [];
      for (let y = start; y < end; y++) if (y !== x) thirds.push(hash[y] & 4095);
      out.push({ hash: hash[x], t: t[x], thirds });
    }
    start = end;
  }
  return out;
}

/** A triplet as one number: reference anchor frame, pair hash (21 bits), third (12 bits). */
export const tripletKey = (frame, hash, third) => frame * 2 ** 33 + hash * 4096 + third;

/**
 * A song's pairs (hash -> anchor frames) and triplets (tripletKey) as the reference would hold
 * them, from its reference hashes (hashPeaks of its peaks at no warp, REFERENCE_TARGETS).
 */
export function songKeys(referenceHashes) {
  const pairsAt = new Map();
  const triplets = new Set();
  for (const { hash, t, thirds } of pairsWithThirds(referenceHashes)) {
    const list = pairsAt.get(hash);
    if (list) list.push(t);
    else pairsAt.set(hash, [t]);
    for (const third of thirds) triplets.add(tripletKey(t, hash, third));
  }
  return { pairsAt, triplets };
}

/**
 * The true song's pair matches at its key in a query (`queryHashes`: hashPeaks of the query's
 * hashed peaks at no warp, QUERY_TARGETS; the key: the
 * offset within ±`spread` frames of `trueOffset` with the most votes, a vote being a distinct
 * query anchor frame within ±1 frame of it, from pairs under the stop list), by bucket class:
 * `hits[c]` pair matches at the key of class c and `kept[c]` of them whose anchor also holds a
 * triplet of the song (a third target of the query's anchor landing on one of the reference's;
 * `keptNear[c]`: landing within a frame and a frequency step of one);
 * `lost[c]` votes that come only from buckets of class c or more, `saved[c]` of them that a
 * triplet keeps; `votes` the key's votes. Null when the song has no pair vote near its offset.
 */
export function trueKeyMatches(queryHashes, keys, classes, trueOffset, spread = 3) {
  const hitsAll = [];
  for (const { hash, t: tq, thirds } of pairsWithThirds(queryHashes)) {
    const frames = keys.pairsAt.get(hash);
    if (!frames) continue;
    for (const tr of frames) {
      const off = tr - tq;
      if (Math.abs(off - trueOffset) > spread + 1) continue;
      const ok = thirds.some((third) => keys.triplets.has(tripletKey(tr, hash, third)));
      // (the third looked up at its neighbours too: time step ±1 frame, frequency step ±1 unit)
      const near =
        ok ||
        thirds.some((third) => {
          for (const dd of [-32, 0, 32])
            for (const dt of [-1, 0, 1]) {
              const x = third + dd + dt;
              if ((x & 31) >= 1 && (x & 31) <= 31 && keys.triplets.has(tripletKey(tr, hash, x))) return true;
            }
          return false;
        });
      hitsAll.push({ off, tq, c: classes[hash], ok, near });
    }
  }
  const votesAt = (o, pred) =>
    new Set(hitsAll.filter((x) => Math.abs(x.off - o) <= 1 && pred(x)).map((x) => x.tq)).size;
  let best = null;
  let bestVotes = 0;
  for (let o = trueOffset - spread; o <= trueOffset + spread; o++) {
    const v = votesAt(o, (x) => x.c <= 4);
    if (
      v > bestVotes ||
      (v === bestVotes && best !== null && Math.abs(o - trueOffset) < Math.abs(best - trueOffset))
    ) {
      bestVotes = v;
      best = o;
    }
  }
  if (best === null || bestVotes === 0) return null;
  const atKey = hitsAll.filter((x) => Math.abs(x.off - best) <= 1);
  const hits = new Array(6).fill(0);
  const kept = new Array(6).fill(0);
  const keptNear = new Array(6).fill(0);
  for (const x of atKey) {
    hits[x.c]++;
    if (x.ok) kept[x.c]++;
    if (x.near) keptNear[x.c]++;
  }
  const lost = [0];
  const saved = [0];
  for (let c = 1; c <= 5; c++) {
    const only = new Set(atKey.filter((x) => x.c >= c && x.c <= 4).map((x) => x.tq));
    for (const x of atKey) if (x.c < c) only.delete(x.tq);
    lost.push(only.size);
    saved.push(
      [...only].filter((tq) => atKey.some((x) => x.tq === tq && x.c >= c && x.c <= 4 && x.ok)).length,
    );
  }
  return { offset: best, votes: bestVotes, hits, kept, keptNear, lost, saved };
}
