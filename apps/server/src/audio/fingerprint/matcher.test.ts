// The matcher, on postings and peaks built in memory: votes land on the excerpt's true offset, the
// verification against the song's peaks keeps it and rejects unrelated music, and consecutive
// windows of one play chain into one play.
import { describe, expect, it } from 'vitest';
import { hashPeaks, probeHashes } from './hashes.js';
import { indexSignal, memorySource, recognizeWith, soloScoreFor } from './index.js';
import {
  CORROBORATING_FRAMES,
  chainDetections,
  collectMatches,
  confidenceOf,
  type Detection,
  detectWindow,
  indexCandidates,
  keepWords,
  ownScoreOf,
  type PeakGrid,
  peakGrid,
  peakOffsets,
  probeDetections,
  scoreFor,
  strengthOf,
  verifyCandidate,
  WINDOW_FRAMES,
  WINDOW_HOP,
  windowCandidates,
} from './matcher.js';
import { emptyIndex, type InvertedIndex, mergeIndex, type SongHashes } from './memory-index.js';
import {
  CANDIDATES,
  EVIDENCE_BOUND,
  FFT_SIZE,
  FRAME_SECONDS,
  HOP,
  KEY_SONGS,
  KEYS_PER_SONG,
  MIN_CANDIDATE_VOTES,
  MIN_SCORE,
  PEAK_MARGIN,
  PROBE_MARGIN,
  QUERY_PEAKS,
  QUERY_TARGETS,
  QUERY_VERIFY_PEAKS,
  SAMPLE_RATE,
  SOLO_FACTOR,
  WARPS,
  WEAK_SCORE,
} from './params.js';
import { extractPeakSets, extractPeaks } from './peaks.js';
import { addNoise, rng, synthSong } from './synth.js';

const grids = new Map<number, PeakGrid>();

function index(songs: Array<[number, Float32Array]>): InvertedIndex {
  const added: SongHashes[] = [];
  for (const [songId, samples] of songs) {
    const { peaks, hashes } = indexSignal(samples);
    grids.set(songId, peakGrid(peaks));
    added.push({ songId, revision: 1, hashes });
  }
  return mergeIndex(emptyIndex(), new Set(), added);
}

/** The detections of a query (one 10 s window at `base`), as recognizeTimeline finds them. */
function detect(samples: Float32Array, postings: InvertedIndex, base = 0) {
  const local = extractPeaks(samples, QUERY_PEAKS);
  const perWarp = WARPS.map((warp) => hashPeaks(local, warp, QUERY_TARGETS));
  const matches = collectMatches(perWarp, postings, base);
  const query = { t: local.t.map((t) => t + base), f: local.f, count: local.count };
  const candidates = windowCandidates(matches, base);
  return { query, candidates, detections: detectWindow(candidates, base, query, grids) };
}

describe('matcher', () => {
  const songA = synthSong(31, 60, SAMPLE_RATE);
  const songB = synthSong(32, 60, SAMPLE_RATE);
  const postings = index([
    [7, songA],
    [8, songB],
  ]);

  it('finds the song and the offset of a noisy excerpt', () => {
    const cut = 1500; // frames (24 s)
    const query = addNoise(songB.subarray(cut * HOP, cut * HOP + 10 * SAMPLE_RATE), 3, 1);
    const { detections } = detect(query, postings);
    expect(detections.map((d) => d.songId)).toEqual([8]);
    const [d] = detections;
    expect(WARPS[d!.warp]!.a).toBe(1);
    // (white noise at 3 dB moves the synthetic notes' onset peaks a frame or two)
    expect(Math.abs(d!.offset - cut)).toBeLessThanOrEqual(2);
    expect(d!.score).toBeGreaterThanOrEqual(MIN_SCORE);
  });

  it('scores the true song far above another song at the same place', () => {
    const cut = 900;
    const query = addNoise(songA.subarray(cut * HOP, cut * HOP + 10 * SAMPLE_RATE), 3, 2);
    const { query: peaks } = detect(query, postings);
    const right = verifyCandidate(peaks, 0, WINDOW_FRAMES, grids.get(7)!, { warp: 0, offset: cut });
    expect(right.score).toBeGreaterThanOrEqual(MIN_SCORE);
    // the verified peaks span the window
    expect(right.first).toBeLessThan(WINDOW_FRAMES * 0.1);
    expect(right.last).toBeGreaterThan(WINDOW_FRAMES * 0.9);
    expect(Math.abs(right.offset - cut)).toBeLessThanOrEqual(2);
    for (const offset of [cut - 400, cut, cut + 700]) {
      const wrong = verifyCandidate(peaks, 0, WINDOW_FRAMES, grids.get(8)!, { warp: 0, offset });
      expect(wrong.score).toBeLessThan(MIN_SCORE / 2);
    }
  });

  it('leaves out the controls only for a candidate that cannot reach the score needed', () => {
    const cut = 900;
    const query = addNoise(songA.subarray(cut * HOP, cut * HOP + 10 * SAMPLE_RATE), 3, 2);
    const { query: peaks } = detect(query, postings);
    for (const [song, offset] of [
      [7, cut],
      [8, cut + 700],
    ] as const) {
      const grid = grids.get(song)!;
      const full = verifyCandidate(peaks, 0, WINDOW_FRAMES, grid, { warp: 0, offset });
      // Needing what the song scores, or less, changes nothing.
      expect(verifyCandidate(peaks, 0, WINDOW_FRAMES, grid, { warp: 0, offset }, full.score)).toEqual(full);
      // Needing more than its count: the count comes back (never under the full score), no bounds.
      const pruned = verifyCandidate(peaks, 0, WINDOW_FRAMES, grid, { warp: 0, offset }, 10_000);
      expect(pruned.score).toBeGreaterThanOrEqual(full.score);
      expect(pruned.score).toBeLessThan(10_000);
      expect([pruned.first, pruned.last, pruned.offset]).toEqual([-1, -1, full.offset]);
      // Needing a little more than the score: the count passes, the controls fail it (early, on a
      // bound of their median that is never above the median: never under the full score).
      for (const more of [0.5, 3, 8]) {
        const failed = verifyCandidate(peaks, 0, WINDOW_FRAMES, grid, { warp: 0, offset }, full.score + more);
        expect(failed.score).toBeGreaterThanOrEqual(full.score);
        expect(failed.score).toBeLessThan(full.score + more);
      }
    }
  });

  it("keeps a song's other keys only at the window threshold, its best key down to the score asked", () => {
    const cut = 900;
    const query = addNoise(songA.subarray(cut * HOP, cut * HOP + 10 * SAMPLE_RATE), 3, 2);
    const { query: peaks } = detect(query, postings);
    // Every k-th of the window's peaks: a song heard weakly (k = 5) or clearly (k = 2).
    const thinned = (k: number) => {
      const kept = [...Array(peaks.count).keys()].filter((i) => i % k === 0);
      return {
        t: Int32Array.from(kept, (i) => peaks.t[i]!),
        f: Float32Array.from(kept, (i) => peaks.f[i]!),
        count: kept.length,
      };
    };
    const weak = thinned(5);
    const at = (offset: number) => ({ songId: 7, warp: 0, offset, votes: 4 });
    // (a key 400 frames away hears nothing: the song's best key in a window where it failed)
    const [alone] = detectWindow([at(cut)], 0, weak, grids, WEAK_SCORE);
    expect(alone!.score).toBeGreaterThanOrEqual(WEAK_SCORE);
    expect(alone!.score).toBeLessThan(MIN_SCORE);
    // The same key as the song's second: one more try for chance, not kept under MIN_SCORE.
    expect(detectWindow([at(cut + 400), at(cut)], 0, weak, grids, WEAK_SCORE)).toEqual([]);
    expect(detectWindow([at(cut + 400), at(cut)], 0, weak, grids, WEAK_SCORE, alone!.score)).toHaveLength(1);
    // Heard clearly at its second key: kept, one detection for the song.
    const clear = detectWindow([at(cut + 400), at(cut), at(cut - 300)], 0, thinned(2), grids, WEAK_SCORE);
    expect(clear).toHaveLength(1);
    expect(clear[0]!.score).toBeGreaterThanOrEqual(MIN_SCORE);
    expect(Math.abs(clear[0]!.offset - cut)).toBeLessThanOrEqual(2);
  });

  it('aligns a candidate song by single peaks when none of its keys lies at its offset, a margin over the threshold', () => {
    const cut = 900;
    const query = addNoise(songA.subarray(cut * HOP, cut * HOP + 10 * SAMPLE_RATE), 3, 2);
    const { query: peaks } = detect(query, postings);
    // The song's single peaks point to where the excerpt was cut, whatever its keys say.
    const [offset] = peakOffsets(peaks, 0, WINDOW_FRAMES, grids.get(7)!, 0, 3, [cut + 400]);
    expect(Math.abs(offset! - cut)).toBeLessThanOrEqual(2);
    // A key at a beat's distance or further fails; the search finds the song at its offset, and
    // reports the verified score less the margin.
    const key = (songId: number, offset: number) => ({ songId, warp: 0, offset, votes: 3 });
    expect(
      detectWindow([key(7, cut + 400)], 0, peaks, grids, MIN_SCORE, MIN_SCORE, { margin: Infinity }),
    ).toEqual([]);
    const [found, ...others] = detectWindow([key(7, cut + 400)], 0, peaks, grids);
    expect(others).toEqual([]);
    expect(found!.songId).toBe(7);
    expect(Math.abs(found!.offset - cut)).toBeLessThanOrEqual(2);
    const verified = verifyCandidate(peaks, 0, WINDOW_FRAMES, grids.get(7)!, {
      warp: 0,
      offset: found!.offset,
    });
    expect(found!.score).toBeCloseTo(verified.score - PEAK_MARGIN, 6);
    expect(found!.score).toBeGreaterThanOrEqual(MIN_SCORE);
    // Another song proposed for the same window: its best single-peak offsets hear nothing.
    expect(detectWindow([key(8, cut + 400)], 0, peaks, grids)).toEqual([]);
    // A score the margin does not clear: nothing (the song heard at threshold + margin only).
    expect(
      detectWindow([key(7, cut + 400)], 0, peaks, grids, MIN_SCORE, MIN_SCORE, { margin: verified.score }),
    ).toEqual([]);
  });

  it('hears, at its second chance, a song whose every pair a room moved by a frequency step', async () => {
    const cut = 1200;
    const excerpt = songA.subarray(cut * HOP, cut * HOP + 10 * SAMPLE_RATE);
    // The song indexed with each of the excerpt's pairs one frequency step up and one down from
    // how the excerpt hashes it (a step is no warp's: a pitch warp moves both peaks alike), so
    // that none of the excerpt's own hashes finds it, at any warp.
    const { hashed, verified: query } = extractPeakSets(excerpt, QUERY_PEAKS, QUERY_VERIFY_PEAKS);
    const own = hashPeaks(hashed, WARPS[0], QUERY_TARGETS);
    const hash = new Int32Array(2 * own.count);
    const t = new Int32Array(2 * own.count);
    for (let i = 0; i < own.count; i++) {
      hash[2 * i] = own.hash[i]! + (1 << 5);
      hash[2 * i + 1] = own.hash[i]! - (1 << 5);
      t[2 * i] = t[2 * i + 1] = own.t[i]! + cut;
    }
    const moved = mergeIndex(emptyIndex(), new Set(), [
      { songId: 9, revision: 1, hashes: { hash, t, count: hash.length } },
    ]);
    const source = memorySource(moved, new Map([[9, indexSignal(songA).peaks]]));
    // Its own pairs propose nothing (and so nothing is verified, nor aligned by single peaks)...
    const perWarp = WARPS.map((warp) => hashPeaks(hashed, warp, QUERY_TARGETS));
    expect(indexCandidates(perWarp, moved, 0, 0)).toEqual([]);
    // ...the second chance hears the song where the excerpt was cut.
    const [play, ...others] = await recognizeWith(source, excerpt);
    expect(others).toEqual([]);
    expect(play!.songId).toBe(9);
    expect(play!.confidence).toBeGreaterThan(0.5);
    expect(Math.abs(play!.songStartS + cut * FRAME_SECONDS)).toBeLessThan(0.1);
    // Its candidates are the probes' (at no warp), its detection reported less PROBE_MARGIN, and
    // none where the margin is not cleared.
    const probes = indexCandidates([probeHashes(hashed, QUERY_TARGETS)], moved, 0, 0);
    expect(probes[0]).toMatchObject({ songId: 9, warp: 0 });
    const songGrids = new Map([[9, peakGrid(indexSignal(songA).peaks)]]);
    const [found] = probeDetections(probes, 0, query, songGrids);
    const verified = verifyCandidate(query, 0, WINDOW_FRAMES, songGrids.get(9)!, found!);
    expect(found!.score).toBeCloseTo(verified.score - PROBE_MARGIN, 6);
    expect(probeDetections(probes, 0, query, songGrids, MIN_SCORE, verified.score)).toEqual([]);
  });

  it('places matches at absolute frames when given a segment base', () => {
    const cut = 1000;
    const query = songA.subarray(cut * HOP, cut * HOP + 10 * SAMPLE_RATE);
    const [d] = detect(query, postings, 5000).detections;
    expect(d!.songId).toBe(7);
    expect(Math.abs(d!.offset - (cut - 5000))).toBeLessThanOrEqual(1);
    expect(d!.first).toBeGreaterThanOrEqual(5000);
  });

  it('detects nothing in music that is not indexed', () => {
    const query = synthSong(33, 10, SAMPLE_RATE);
    // Hashes meet by chance and propose candidates; none survives verification.
    const { candidates, detections } = detect(query, postings);
    expect(candidates.length).toBeGreaterThan(0);
    expect(detections).toEqual([]);
  });

  it('chains the windows of one play and splits a replay at another position', () => {
    const base = { songId: 7, warp: 0, score: 60 };
    const plays = chainDetections([
      { ...base, offset: 100, first: 0, last: 600, window: 0 },
      { ...base, offset: 101, first: WINDOW_HOP, last: WINDOW_HOP + 600, window: WINDOW_HOP },
      { ...base, offset: 100, first: 2 * WINDOW_HOP, last: 2 * WINDOW_HOP + 600, window: 2 * WINDOW_HOP },
      // the same song again, 30 s into it, later in the night: another play
      { ...base, offset: -20000 + 1875, first: 20000, last: 20600, window: 20000 },
    ]);
    expect(plays.map((p) => [p.songId, p.first, p.last])).toEqual([
      [7, 0, 2 * WINDOW_HOP + 600],
      [7, 20000, 20600],
    ]);
  });

  it("tells where the song began from its best window's position and tempo", () => {
    // Heard from frame 1000 on, 3,000 frames into the song at +4% (speed): the song began
    // 3,000 / 1.04 frames before, whatever the window that heard it first.
    const faster = WARPS.findIndex((w) => w.a === 1.04 && w.pitch);
    const base = { songId: 7, warp: faster, first: 1000, last: 1600, window: 1000 };
    const position = (frame: number) => 3000 + 1.04 * (frame - 1000);
    const offsetAt = (frame: number) => position(frame) - 1.04 * frame;
    const [play] = chainDetections([
      { ...base, score: 40, offset: offsetAt(1000) + 3 },
      {
        ...base,
        score: 80,
        offset: offsetAt(1000),
        first: 1000 + CORROBORATING_FRAMES,
        last: 1600 + CORROBORATING_FRAMES,
        window: 1000 + CORROBORATING_FRAMES,
      },
    ]);
    expect(play!.first).toBe(1000);
    expect(play!.tempo).toBe(1.04);
    expect(play!.songStart).toBeCloseTo(1000 - 3000 / 1.04, 6);
  });

  it('merges pieces of one play heard at inconsistent positions (a repeated chorus) when close', () => {
    const base = { songId: 7, warp: 0, score: 60 };
    const plays = chainDetections([
      { ...base, offset: 100, first: 0, last: 600, window: 0 },
      // the chorus's other occurrence, 40 s into the song, heard in the next windows
      {
        ...base,
        offset: 100 + Math.round(40 / FRAME_SECONDS),
        first: WINDOW_HOP,
        last: WINDOW_HOP + 600,
        window: WINDOW_HOP,
      },
      { ...base, offset: 100, first: 3 * WINDOW_HOP, last: 3 * WINDOW_HOP + 600, window: 3 * WINDOW_HOP },
    ]);
    expect(plays.map((p) => [p.songId, p.first, p.last])).toEqual([[7, 0, 3 * WINDOW_HOP + 600]]);
  });

  it('drops a weak play inside a much stronger play of another song, and keeps a crossfade', () => {
    const strong = { songId: 7, warp: 0, offset: 0, score: 100, first: 0, last: 1000, window: 0 };
    const plays = chainDetections([
      strong,
      // a theme song 9 shares, heard within song 7's play at a third of its score: dropped
      { songId: 9, warp: 0, offset: 50, score: 33, first: 300, last: 600, window: 300 },
      // song 8 fading in before song 7 ends: kept, however weak
      { songId: 8, warp: 0, offset: 0, score: 31, first: 900, last: 1500, window: 900 },
      // as strong as a third of song 7, inside it: kept (two songs at once)
      { songId: 10, warp: 0, offset: 0, score: 34, first: 200, last: 400, window: 200 },
    ]);
    expect(plays.map((p) => p.songId)).toEqual([7, 10, 8]);
  });

  it("drops a song sharing another's music inside a 50 s chunk where that one is heard window after window", () => {
    // The benchmark night's chunk at 3,699-3,749 s (docs/performance.md, "Shared music in the
    // server's chunks"): Drascula's track 16 (song 7) heard in every window, its best 177.5, and
    // its track 2 (song 9), which shares its music, inside it at up to 69.5, over the solo score.
    // 177.5 is not 3 times 69.5; the evidence of song 7's windows (949) is.
    const at = (songId: number, offset: number, score: number, hop: number) => ({
      songId,
      warp: 0,
      offset,
      score,
      first: hop * WINDOW_HOP + 5,
      last: hop * WINDOW_HOP + WINDOW_FRAMES - 5,
      window: hop * WINDOW_HOP,
    });
    const heard = [122.5, 124.5, 146.5, 160.5, 177.5, 141.5, 0, 0, 76].flatMap((score, hop) =>
      score > 0 ? [at(7, 1385, score, hop)] : [],
    );
    const shared = [at(9, 1541, 47.5, 1), at(9, 1550, 69.5, 2), at(9, 1519, 54, 4), at(9, 1518, 37, 5)];
    // song 8 fading in at song 7's end and heard after it: kept
    const next = [at(8, 0, 40, 8), at(8, 0, 45, 10)];
    const solo = SOLO_FACTOR * MIN_SCORE;
    expect(chainDetections([...heard, ...shared, ...next], solo).map((p) => p.songId)).toEqual([7, 8]);
    // song 7 heard as well at its best but in two windows only (evidence 253.5): song 9 stays
    const twice = [at(7, 1385, 177.5, 0), at(7, 1385, 76, 8)];
    expect(chainDetections([...twice, ...shared], solo).map((p) => p.songId)).toEqual([7, 9]);
  });

  it('keeps a play that no other window corroborates only at the solo score', () => {
    const solo = SOLO_FACTOR * MIN_SCORE;
    const at = (songId: number, score: number, window: number) => ({
      songId,
      warp: 0,
      offset: 500,
      score,
      first: window + 10,
      last: window + WINDOW_FRAMES - 10,
      window,
    });
    const heard = (detections: Detection[]) => chainDetections(detections, solo).map((p) => p.songId);
    // one window over MIN_SCORE, under the solo score: chance, over a long recording
    expect(heard([at(1, MIN_SCORE + 3, 0)])).toEqual([]);
    // the same, as strong as the solo score: kept
    expect(heard([at(1, solo, 0)])).toEqual([1]);
    // two overlapping windows at one position share half their audio: not corroborated
    expect(heard([at(1, MIN_SCORE + 3, 0), at(1, MIN_SCORE + 3, WINDOW_HOP)])).toEqual([]);
    // two windows that share no audio, at one position of the song: corroborated
    expect(heard([at(1, MIN_SCORE, 0), at(1, MIN_SCORE, CORROBORATING_FRAMES)])).toEqual([1]);
    // ... but not at two positions of the song (the second 40 s further into it)
    const elsewhere = { ...at(1, MIN_SCORE, CORROBORATING_FRAMES), offset: 500 + 1250 };
    expect(heard([at(1, MIN_SCORE, 0), elsewhere])).toEqual([]);
    // a loop: the window between them hears the song at another repeat (8 s on); the two
    // around it still agree, and the three are one corroborated play
    const repeat = { ...at(1, MIN_SCORE, WINDOW_HOP), offset: 500 + 250 };
    const looped = chainDetections(
      [at(1, MIN_SCORE, 0), repeat, at(1, MIN_SCORE, CORROBORATING_FRAMES)],
      solo,
    );
    expect(looped.map((p) => [p.songId, p.corroborated, p.first])).toEqual([[1, true, 10]]);
    // a weak piece at another position of the song, 12 s after a corroborated play: neither a
    // play of its own nor a stretch of that one
    const pieces = [at(1, MIN_SCORE, 0), at(1, MIN_SCORE, CORROBORATING_FRAMES)];
    const play = chainDetections([...pieces, { ...at(1, MIN_SCORE, 1000), offset: 0 }], solo);
    expect(play.map((p) => [p.songId, p.corroborated, p.last])).toEqual([[1, true, pieces[1]!.last]]);
    // with the default solo score (a query too short to corroborate) one window is enough
    expect(chainDetections([at(1, MIN_SCORE + 3, 0)]).map((p) => p.songId)).toEqual([1]);
  });

  describe('song-level evidence over time', () => {
    const solo = SOLO_FACTOR * MIN_SCORE;
    const weak = (MIN_SCORE + WEAK_SCORE) / 2; // under the window threshold, over the weak one
    /** Window k (k hops in) hearing song 1 at one position of it, at `score`, under warp `warp`. */
    const at = (k: number, score: number, warp = 0, offset = 500) => ({
      songId: 1,
      warp,
      offset,
      score,
      first: k * WINDOW_HOP + 10,
      last: k * WINDOW_HOP + WINDOW_FRAMES - 10,
      window: k * WINDOW_HOP,
    });
    const windowsNeeded = Math.ceil(EVIDENCE_BOUND / weak);

    it('confirms a play from windows each too weak alone once their evidence passes the bound', () => {
      expect(weak).toBeLessThan(MIN_SCORE);
      expect(windowsNeeded).toBeGreaterThan(2); // two weak windows, even apart, are never enough
      const heard = Array.from({ length: windowsNeeded }, (_, k) => at(k, weak));
      const [play, ...others] = chainDetections(heard, solo);
      expect(others).toEqual([]);
      expect(play).toMatchObject({ songId: 1, first: 10, corroborated: false });
      expect(play!.last).toBe(heard.at(-1)!.last);
      expect(play!.evidence).toBeCloseTo(windowsNeeded * weak, 6);
      // Its confidence stands for its evidence: at least the window threshold's.
      expect(strengthOf(play!)).toBeGreaterThanOrEqual(MIN_SCORE);
      // One window fewer: under the bound, no play (each window alone is chance's level).
      expect(chainDetections(heard.slice(1), solo)).toEqual([]);
    });

    it('adds only windows that hear the song at a consistent position, tempo changes included', () => {
      // The same windows, every other one 20 s further into the song (a repeat, or chance): no
      // position gathers enough.
      const scattered = Array.from({ length: windowsNeeded }, (_, k) => at(k, weak, 0, k % 2 ? 1125 : 500));
      expect(chainDetections(scattered, solo)).toEqual([]);
      // A DJ's +4 % (speed): the position advances 1.04 frames a frame, the warp says so, the
      // offset stays: one play.
      const faster = WARPS.findIndex((w) => w.a === 1.04 && w.pitch);
      const sped = Array.from({ length: windowsNeeded }, (_, k) => at(k, weak, faster));
      expect(chainDetections(sped, solo).map((p) => [p.songId, p.first])).toEqual([[1, 10]]);
      // Windows at the weak score from one chance 10 s (two overlapping windows and nothing
      // apart from them) gather nothing, however strong: only evidence from audio that two
      // windows do not share counts.
      expect(chainDetections([at(0, 55), at(1, 55)], solo)).toEqual([]);
    });

    it('keeps a play through a quiet or masked stretch where it is heard only weakly', () => {
      // Heard well for 10 s, then 60 s through a cheering crowd (weak windows, too few alone to
      // be a play), then a 25 s break heard by no window at all, then well again: one play.
      const detections = [
        at(0, 45),
        at(2, 45),
        ...[3, 5, 7, 9, 11, 13].map((k) => at(k, weak)),
        at(20, 45),
        at(22, 45),
      ];
      const plays = chainDetections(detections, solo);
      expect(plays.map((p) => [p.songId, p.first, p.last])).toEqual([[1, 10, detections.at(-1)!.last]]);
      expect(plays[0]!.evidence).toBeGreaterThanOrEqual(EVIDENCE_BOUND);
    });
  });

  it('asks the solo score of signals long enough for two windows that share no audio', () => {
    const framesOf = (seconds: number) => Math.floor((seconds * SAMPLE_RATE - FFT_SIZE) / HOP) + 1;
    expect(soloScoreFor(framesOf(10))).toBe(MIN_SCORE);
    expect(soloScoreFor(framesOf(19.5))).toBe(MIN_SCORE);
    expect(soloScoreFor(framesOf(20.2))).toBe(SOLO_FACTOR * MIN_SCORE);
    expect(soloScoreFor(framesOf(50), 20)).toBe(SOLO_FACTOR * 20);
    expect(SOLO_FACTOR).toBeGreaterThan(1);
  });

  it('maps scores to confidence and back', () => {
    expect(confidenceOf(MIN_SCORE)).toBeCloseTo(0.5, 6);
    expect(scoreFor(0.5)).toBeCloseTo(MIN_SCORE, 6);
    expect(scoreFor(confidenceOf(23))).toBeCloseTo(23, 6);
  });

  it('counts votes through the sieve and in partitions exactly as one table would', () => {
    // 60,000 hits (many partitions): 40 songs × 25 warps of chance hits over 600 offsets (thousands
    // of keys hit twice, many beside one another, and bits of the sieve shared), and song 17 at
    // warp 3 with 12 anchor frames at offsets 500 ± 1, one frame hashed three times.
    const random = (() => {
      let x = 12345;
      return () => {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        return x / 2 ** 32;
      };
    })();
    const hits: [song: number, warp: number, offset: number, t: number][] = [];
    for (let i = 0; i < 60_000; i++) {
      hits.push([
        1 + Math.floor(random() * 40),
        Math.floor(random() * 25),
        Math.floor(random() * 600),
        Math.floor(random() * WINDOW_FRAMES),
      ]);
    }
    for (let k = 0; k < 12; k++) hits.push([17, 3, 499 + (k % 3), 20 * k + 5]);
    hits.push([17, 3, 500, 5], [17, 3, 500, 5]);
    // Grouped by warp, each group in frame order (what collectMatches gives).
    hits.sort((x, y) => x[1] - y[1] || x[3] - y[3]);
    const warpStart = new Int32Array(WARPS.length + 1);
    for (const [, w] of hits) warpStart[w + 1]!++;
    for (let w = 0; w < WARPS.length; w++) warpStart[w + 1]! += warpStart[w]!;
    const matches = {
      songWarp: Int32Array.from(hits.map(([song, w]) => song * 32 + w)),
      offset: Int32Array.from(hits.map((h) => h[2])),
      t: Int32Array.from(hits.map((h) => h[3])),
      warpStart,
      length: hits.length,
    };
    // The same count, naively: distinct frames per (song, warp, offset), neighbours added.
    const frames = new Map<string, Set<number>>();
    for (const [song, w, offset, t] of hits) {
      const key = `${song}/${w}/${offset}`;
      frames.set(key, (frames.get(key) ?? new Set()).add(t));
    }
    const votesAt = (song: number, w: number, offset: number) =>
      frames.get(`${song}/${w}/${offset}`)?.size ?? 0;
    // Per song, its keys among offsets holding `minOwn` votes themselves, best first (ties to
    // the lower warp and offset), each at another warp or more than 2 frames from the keys of its
    // warp before it, `keys` of them; the songs by their best key's votes.
    type Key = { songId: number; warp: number; offset: number; votes: number };
    const rank = (minOwn: number, minVotes: number, keys = 1) => {
      const bySong = new Map<number, Key[]>();
      for (const [key, set] of frames) {
        if (set.size < minOwn) continue;
        const [song, w, offset] = key.split('/').map(Number) as [number, number, number];
        const votes = set.size + votesAt(song, w, offset - 1) + votesAt(song, w, offset + 1);
        if (votes < minVotes) continue;
        bySong.set(song, [...(bySong.get(song) ?? []), { songId: song, warp: w, offset, votes }]);
      }
      const order = (x: Key, y: Key) => y.votes - x.votes || x.warp - y.warp || x.offset - y.offset;
      // Songs of equal votes in the order of their ids times an odd constant (not by id).
      const scrambled = (id: number) => Math.imul(id, 0x9e3779b1) >>> 0;
      return [...bySong.values()]
        .map((list) => {
          const chosen: Key[] = [];
          for (const k of list.sort(order))
            if (
              chosen.length < keys &&
              !chosen.some((c) => c.warp === k.warp && Math.abs(c.offset - k.offset) <= 2)
            )
              chosen.push(k);
          return chosen;
        })
        .sort(
          (x, y) =>
            y[0]!.votes - x[0]!.votes ||
            scrambled(x[0]!.songId) - scrambled(y[0]!.songId) ||
            order(x[0]!, y[0]!),
        );
    };
    const best = (minOwn: number, minVotes: number, songs: number, keys = 1) =>
      rank(minOwn, minVotes, keys)
        .slice(0, songs)
        .flatMap((list, r) => (r < KEY_SONGS ? list : list.slice(0, 1)));
    const expected = best(2, 3, 5);
    // (the best 5 of 3 votes or more: chance offers several candidates to compare)
    const found = windowCandidates(matches, 0, 5, 3, 1);
    expect(found).toEqual(expected);
    expect(found[0]).toMatchObject({ songId: 17, warp: 3, offset: 500 });
    expect(found[0]!.votes).toBeGreaterThanOrEqual(12);
    // Outside the window, nothing.
    expect(windowCandidates(matches, WINDOW_FRAMES, 5, 3)).toEqual([]);
    // With the defaults: the CANDIDATES best songs of at least MIN_CANDIDATE_VOTES votes, the
    // first KEY_SONGS with up to KEYS_PER_SONG keys; some songs offer more than one.
    const defaults = best(2, MIN_CANDIDATE_VOTES, CANDIDATES, KEYS_PER_SONG);
    expect(new Set(defaults.map((c) => c.songId)).size).toBeGreaterThan(5);
    expect(defaults.length).toBeGreaterThan(new Set(defaults.map((c) => c.songId)).size);
    expect(windowCandidates(matches, 0)).toEqual(defaults);
    // A single vote is enough: no sieve (a key hit once counts), the same count.
    expect(windowCandidates(matches, 0, 40, 1, 3)).toEqual(best(1, 1, 40, 3));
    // The vote table grew for those 60,000 hits (parts of thousands); smaller parts are counted
    // in the first slots of it again, exactly.
    expect(windowCandidates(matches, 0)).toEqual(defaults);
    expect(windowCandidates(matches, 0, 5, 3, 1)).toEqual(expected);
    // Every song's other keys, when asked for (songs after the first KEY_SONGS offer some).
    const every = rank(1, 1, 3).slice(0, 40).flat();
    expect(every.length).toBeGreaterThan(best(1, 1, 40, 3).length);
    expect(windowCandidates(matches, 0, 40, 1, 3, 40)).toEqual(every);
  });

  it("reads a window's candidates from the index exactly as collecting its hits first does", () => {
    // Twelve songs, in pieces of 2^9 frames (16 s: a song of 40 s is three), and a noisy 30 s
    // excerpt of one at a segment's place in a longer signal: every window of it, the stop list on
    // and off, the sieve on (3 votes) and off (1 vote).
    const added: SongHashes[] = [];
    for (let k = 0; k < 12; k++) {
      const { hashes } = indexSignal(synthSong(40 + k, 40, SAMPLE_RATE));
      added.push({ songId: 100 + k, revision: 1, hashes });
    }
    const pieces = mergeIndex(emptyIndex(), new Set(), added, 9);
    expect(pieces.pieceSong.length).toBe(36);
    // And every song one piece (the sieve keys hits by their piece then, without its table).
    const whole = mergeIndex(emptyIndex(), new Set(), added);
    expect(whole.pieceSong.length).toBe(12);
    const source = synthSong(45, 40, SAMPLE_RATE);
    const query = addNoise(source.subarray(200 * HOP, 200 * HOP + 30 * SAMPLE_RATE), 0, 9);
    const local = extractPeaks(query, QUERY_PEAKS);
    const perWarp = WARPS.map((warp) => hashPeaks(local, warp, QUERY_TARGETS));
    const base = 3000;
    let compared = 0;
    for (const [index, maxBucket] of [
      [pieces, Number.POSITIVE_INFINITY],
      [pieces, 4],
      [whole, Number.POSITIVE_INFINITY],
      [whole, 4],
    ] as const) {
      const matches = collectMatches(perWarp, index, base, maxBucket);
      for (const start of [base, base + WINDOW_HOP, base + 2 * WINDOW_HOP, base + 7]) {
        for (const [limit, minVotes, keys] of [
          [CANDIDATES, MIN_CANDIDATE_VOTES, KEYS_PER_SONG],
          [40, 3, 1],
          [40, 1, 3],
        ] as const) {
          const expected = windowCandidates(matches, start, limit, minVotes, keys);
          expect(indexCandidates(perWarp, index, base, start, maxBucket, limit, minVotes, keys)).toEqual(
            expected,
          );
          compared += expected.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(200);
    // The excerpt's own song is the best candidate of its first window.
    expect(indexCandidates(perWarp, pieces, base, base)[0]).toMatchObject({ songId: 105 });
    expect(indexCandidates(perWarp, whole, base, base)[0]).toMatchObject({ songId: 105 });
  });

  it('keeps the hits within one bit of a bit a candidate key could hold, across words and around the ends', () => {
    // A sieve of 1,024 bits (32 words), filled as indexCandidates fills it, with hits of 0-4 at
    // bits chosen to fall on word edges and on both ends; compared bit by bit with the definition:
    // keep bit b when a bit c within ±1 of it (mod 1,024) was hit twice and c with its two
    // neighbours at least min(minVotes, 3) times.
    const words = 32;
    const size = words * 32;
    let seed = 5;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let trial = 0; trial < 40; trial++) {
      const count = new Int32Array(size);
      const edges = [0, 1, 31, 32, 33, 63, 64, 511, 512, size - 2, size - 1];
      for (let k = 0; k < 120; k++) {
        const bit =
          random() < 0.5 ? edges[Math.floor(random() * edges.length)]! : Math.floor(random() * size);
        count[bit]! += 1 + Math.floor(random() * 2);
      }
      for (const minVotes of [2, 3, 5]) {
        const sieve = new Int32Array(3 * words);
        for (let bit = 0; bit < size; bit++) {
          for (let hit = 0; hit < count[bit]!; hit++) {
            // (the bit sets of keys seen once, twice and three times one after another)
            const word = bit >>> 5;
            const flag = 1 << (bit & 31);
            const once = sieve[word]!;
            const twice = sieve[words + word]!;
            sieve[2 * words + word]! |= twice & flag;
            sieve[words + word] = twice | (once & flag);
            sieve[word] = once | flag;
          }
        }
        keepWords(sieve, words, minVotes);
        const at = (bit: number) => count[(bit + size) % size]!;
        const holds = (c: number) => at(c) >= 2 && at(c - 1) + at(c) + at(c + 1) >= Math.min(minVotes, 3);
        const expected: number[] = [];
        const found: number[] = [];
        for (let bit = 0; bit < size; bit++) {
          if (holds(bit - 1) || holds(bit) || holds(bit + 1)) expected.push(bit);
          if ((sieve[bit >>> 5]! >>> (bit & 31)) & 1) found.push(bit);
        }
        expect(found).toEqual(expected);
      }
    }
  });

  it('skips hashes whose bucket is over the stop-list size', () => {
    const cut = 1500;
    const query = songB.subarray(cut * HOP, cut * HOP + 10 * SAMPLE_RATE);
    const local = extractPeaks(query, QUERY_PEAKS);
    const perWarp = WARPS.map((warp) => hashPeaks(local, warp, QUERY_TARGETS));
    const all = collectMatches(perWarp, postings, 0);
    const some = collectMatches(perWarp, postings, 0, 1);
    const none = collectMatches(perWarp, postings, 0, 0);
    expect(all.length).toBeGreaterThan(some.length);
    expect(some.length).toBeGreaterThan(0);
    expect(none.length).toBe(0);
    // What is kept are the hashes found in one entry only.
    for (let i = 0; i < some.length; i++) expect(some.songWarp[i]! >> 5).toBeGreaterThan(0);
  });
});

describe("a window's second song explained by its strongest", () => {
  // Peaks built by hand (frames, log-frequency bins), one every 4 frames or so: song 1 plays; song
  // 2 holds 85 % of song 1's peaks 500 frames further into it (a copy of its loops, as a filler
  // of the nights is); song 3 is music of its own, mixed with song 1 at 60 % of its peaks.
  const random = rng(5);
  const randomPeaks = (frames: number, every: number) => {
    const t: number[] = [];
    const f: number[] = [];
    for (let x = 0; x < frames; x++) {
      if (random() * every >= 1) continue;
      t.push(x);
      f.push(random() * 6 * 32);
    }
    return { t, f };
  };
  const asPeaks = (list: Array<[number, number]>) => {
    const sorted = [...list].sort((x, y) => x[0] - y[0]);
    return {
      t: Int32Array.from(sorted, ([t]) => t),
      f: Float32Array.from(sorted, ([, f]) => f),
      count: sorted.length,
    };
  };
  const one = randomPeaks(3000, 4);
  const onePeaks = one.t.map((t, i): [number, number] => [t, one.f[i]!]);
  const copy = onePeaks.filter(() => random() < 0.85).map(([t, f]): [number, number] => [t + 500, f]);
  const before = randomPeaks(500, 4);
  const three = randomPeaks(3000, 4);
  const threePeaks = three.t.map((t, i): [number, number] => [t, three.f[i]!]);
  const songGrids = new Map<number, PeakGrid>([
    [1, peakGrid(asPeaks(onePeaks))],
    [2, peakGrid(asPeaks([...before.t.map((t, i): [number, number] => [t, before.f[i]!]), ...copy]))],
    [3, peakGrid(asPeaks(threePeaks))],
  ]);
  const start = 1000;
  const inWindow = ([t]: [number, number]) => t >= start && t < start + WINDOW_FRAMES;
  const candidate = (songId: number, offset: number) => ({ songId, warp: 0, offset, votes: 10 });
  const solo = SOLO_FACTOR * MIN_SCORE;

  it("takes a song sharing the strongest one's peaks under the threshold, and no play of one window", () => {
    // the query: song 1's own peaks of the window (song 2 heard 500 frames on, song 3 by chance)
    const query = asPeaks(onePeaks.filter(inWindow));
    const found = detectWindow([candidate(1, 0), candidate(2, 500)], start, query, songGrids, WEAK_SCORE);
    const [a, b] = [1, 2].map((id) => found.find((d) => d.songId === id)!);
    expect(a!.explained).toBeUndefined();
    // song 2 alone would be a play of one window (at the solo score), on song 1's peaks only
    expect(b!.score).toBeGreaterThanOrEqual(solo);
    expect(b!.explained!).toBeLessThan(WEAK_SCORE);
    expect(chainDetections([{ ...b!, explained: undefined }], solo).map((p) => p.songId)).toEqual([2]);
    expect(chainDetections(found, solo).map((p) => p.songId)).toEqual([1]);
  });

  it('keeps the score of a song mixed with the strongest one (a crossfade)', () => {
    // song 1's peaks and 60 % of song 3's from 800 frames earlier in it
    const mixed = threePeaks
      .map(([t, f]): [number, number] => [t + 800, f])
      .filter((p) => inWindow(p) && random() < 0.6);
    const query = asPeaks([...onePeaks.filter(inWindow), ...mixed]);
    const found = detectWindow([candidate(1, 0), candidate(3, -800)], start, query, songGrids, WEAK_SCORE);
    const [a, c] = [1, 3].map((id) => found.find((d) => d.songId === id)!);
    expect(a!.score).toBeGreaterThan(c!.score);
    expect(c!.score).toBeGreaterThanOrEqual(MIN_SCORE);
    expect(ownScoreOf(c!)).toBeGreaterThanOrEqual(0.9 * c!.score);
    // each heard on its own evidence: song 1 a play alone, song 3's window stands as it scores
    const lone = chainDetections(found, c!.score).map((p) => p.songId);
    expect(lone).toEqual([1, 3]);
  });
});
