// Track-before-detect, measured (recognition-rooms.mjs --track): a window detection of song S
// (score WEAK_SCORE and up) is a hypothesis that S plays at that position; in every later window
// of the signal the hypothesis is verified at the position it predicts (its position advanced at
// its tempo: the seed's warp, refitted from the windows that verified it), whether or not the
// window's votes propose S, and the scores are kept. What confirms a hypothesis (a bound on the
// sum of its windows' scores) is chosen from them afterwards (trackEvidence), on the 11 h of music
// outside the index for chance and on the tuning nights for recall.

/** Verified peaks of the whole signal, by blocks of a minute with margins (absolute frames). */
function signalPeaks(pcm, { peaksModule, params }) {
  const { HOP, FFT_SIZE, QUERY_VERIFY_PEAKS, QUERY_PEAKS } = params;
  const total = pcm.length < FFT_SIZE ? 0 : Math.floor((pcm.length - FFT_SIZE) / HOP) + 1;
  const block = 1875; // 60 s
  const margin = 64;
  const t = [];
  const f = [];
  for (let from = 0; from < total; from += block) {
    const start = Math.max(0, from - margin);
    const end = Math.min(total, from + block + margin);
    const segment = pcm.subarray(start * HOP, Math.min(pcm.length, (end - 1) * HOP + FFT_SIZE));
    const { verified } = peaksModule.extractPeakSets(segment, QUERY_PEAKS, QUERY_VERIFY_PEAKS);
    for (let i = 0; i < verified.count; i++) {
      const at = verified.t[i] + start;
      if (at < from || at >= from + block) continue;
      t.push(at);
      f.push(verified.f[i]);
    }
  }
  return { peaks: { t: Int32Array.from(t), f: Float32Array.from(f), count: t.length }, total };
}

/**
 * The hypotheses of a signal: `seeds` are window detections in the signal's frames. At most
 * `maxAlive` are tracked at once (the strongest seeds first); one is dropped when it has not
 * verified at WEAK_SCORE for `dropSeconds`, or its song has ended. Returns, for each, its song,
 * its seed and the windows it was verified in ({ start, score, first, last, ref }).
 */
export function trackSignal(pcm, seeds, gridOf, songFrames, deps, { maxAlive = 8, dropSeconds = 60 } = {}) {
  const { matcher, params } = deps;
  const F = params.FRAME_SECONDS;
  const WF = matcher.WINDOW_FRAMES;
  const hop = matcher.WINDOW_HOP;
  const { peaks, total } = signalPeaks(pcm, deps);
  const sorted = [...seeds].sort((x, y) => x.window - y.window);
  const alive = [];
  const done = [];
  let next = 0;
  let verifications = 0;
  const predict = (h, c) => {
    const [c0, r0] = h.anchors.at(-1);
    return r0 + h.slope * (c - c0);
  };
  const refit = (h) => {
    const recent = h.anchors.filter(([c]) => c >= h.anchors.at(-1)[0] - 120 / F);
    const span = recent.at(-1)[0] - recent[0][0];
    if (span < 10 / F) return;
    const n = recent.length;
    const mc = recent.reduce((s, [c]) => s + c, 0) / n;
    const mr = recent.reduce((s, [, r]) => s + r, 0) / n;
    let num = 0;
    let den = 0;
    for (const [c, r] of recent) {
      num += (c - mc) * (r - mr);
      den += (c - mc) ** 2;
    }
    const a = params.WARPS[h.warp].a;
    h.slope = Math.min(a * 1.015, Math.max(a * 0.985, num / den));
  };
  const dropMs = dropSeconds / F;
  for (let W = 0; W + WF <= total; W += hop) {
    const c = W + Math.round(WF / 2);
    while (next < sorted.length && sorted[next].window <= W) {
      const s = sorted[next++];
      const a = params.WARPS[s.warp].a;
      const sc = s.window + Math.round(WF / 2);
      const ref = Math.round(sc * a) + s.offset;
      const same = alive.find((h) => h.songId === s.songId && Math.abs(predict(h, sc) - ref) <= 6);
      if (same) {
        same.anchors.push([sc, ref]);
        same.lastGood = Math.max(same.lastGood, s.window);
        same.seeds.push(s.score);
        refit(same);
        continue;
      }
      alive.push({
        songId: s.songId,
        warp: s.warp,
        slope: a,
        anchors: [[sc, ref]],
        born: s.window,
        lastGood: s.window,
        seed: { window: s.window, score: s.score, first: s.first, last: s.last, ref },
        seeds: [s.score],
        windows: [],
      });
    }
    // Bounded: the strongest hypotheses by the best score they have shown.
    alive.sort((x, y) => Math.max(...y.seeds) - Math.max(...x.seeds) || y.lastGood - x.lastGood);
    while (alive.length > maxAlive) done.push(alive.pop());
    for (let k = alive.length - 1; k >= 0; k--) {
      const h = alive[k];
      const refC = predict(h, c);
      if (W - h.lastGood > dropMs || refC > (songFrames[h.songId] ?? 0) || refC < 0) {
        done.push(...alive.splice(k, 1));
        continue;
      }
      if (W <= h.born) continue;
      const grid = gridOf(h.songId);
      if (!grid) continue;
      const a = params.WARPS[h.warp].a;
      const offset = Math.round(refC) - Math.round(c * a);
      const r = matcher.verifyCandidate(peaks, W, W + WF, grid, { warp: h.warp, offset });
      verifications++;
      const ref = Math.round(c * a) + r.offset;
      h.windows.push({ start: W, score: r.score, first: r.first, last: r.last, ref });
      if (r.score >= params.WEAK_SCORE) {
        h.anchors.push([c, ref]);
        h.lastGood = W;
        refit(h);
      }
    }
  }
  done.push(...alive);
  return {
    verifications,
    hypotheses: done.map((h) => ({
      songId: h.songId,
      warp: h.warp,
      slope: h.slope,
      seed: h.seed,
      seeds: h.seeds,
      windows: h.windows,
    })),
  };
}

/**
 * A hypothesis's evidence: its seeds' scores and those of its tracked windows at `floor` or more,
 * counted once the windows counted span two windows that share no audio (as chaining asks); and
 * the windows it counted.
 */
export function trackEvidence(h, floor, matcher) {
  const counted = h.windows.filter((w) => w.score >= floor);
  const starts = [h.seed.window, ...counted.map((w) => w.start)];
  const span = Math.max(...starts) - Math.min(...starts);
  const evidence =
    span >= matcher.CORROBORATING_FRAMES
      ? h.seeds.reduce((s, x) => s + x, 0) + counted.reduce((s, w) => s + w.score, 0)
      : 0;
  return { evidence, counted };
}

/**
 * The detection a confirmed hypothesis adds to the timeline (mergeDetections' terms, ms from the
 * signal's start): its seed and counted windows' verified peaks, where its song began and ends
 * as heard, and the confidence of its best window.
 */
export function trackDetection(h, counted, { matcher, params }, songFrames) {
  const F = params.FRAME_SECONDS;
  const parts = [h.seed, ...counted].filter((w) => w.first >= 0);
  const first = Math.min(...parts.map((w) => w.first));
  const last = Math.max(...parts.map((w) => w.last));
  const best = [h.seed, ...counted].reduce((x, y) => (y.score > x.score ? y : x));
  const c = best.start ?? best.window;
  const centre = c + Math.round(matcher.WINDOW_FRAMES / 2);
  const songStart = centre - best.ref / h.slope;
  const score = Math.max(...h.seeds, ...counted.map((w) => w.score));
  return {
    songId: h.songId,
    startMs: Math.round(first * F * 1000),
    endMs: Math.round((last * F + matcher.TAIL_SECONDS) * 1000),
    confidence: Math.round(matcher.confidenceOf(score) * 100) / 100,
    recognizer: 'library',
    songStartMs: Math.round(songStart * F * 1000),
    songEndMs: Math.round((songStart + (songFrames[h.songId] ?? 0) / h.slope) * F * 1000),
  };
}
