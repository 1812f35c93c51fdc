// The matcher, on postings built in memory: votes land on the excerpt's true offset, unrelated
// music gets no detection, and consecutive windows of one play chain into one play.
import { describe, expect, it } from 'vitest';
import { hashPeaks } from './hashes.js';
import {
  chainDetections,
  collectMatches,
  confidenceOf,
  detectWindow,
  votesFor,
  WINDOW_HOP,
} from './matcher.js';
import { FRAME_SECONDS, HOP, MIN_VOTES, SAMPLE_RATE, WARPS } from './params.js';
import { extractPeaks } from './peaks.js';
import type { Postings } from './store.js';
import { addNoise, synthSong } from './synth.js';

function index(songs: Array<[number, Float32Array]>): Postings {
  const postings: Postings = new Map();
  for (const [songId, samples] of songs) {
    const h = hashPeaks(extractPeaks(samples));
    for (let i = 0; i < h.count; i++) {
      const list = postings.get(h.hash[i]!) ?? [];
      list.push(songId, h.t[i]!);
      postings.set(h.hash[i]!, list);
    }
  }
  return postings;
}

const queryHashes = (samples: Float32Array) => {
  const peaks = extractPeaks(samples);
  return WARPS.map((warp) => hashPeaks(peaks, warp));
};

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
    const matches = collectMatches(queryHashes(query), postings, 0);
    const detections = detectWindow(matches, 0);
    expect(detections.map((d) => d.songId)).toEqual([8]);
    const [d] = detections;
    expect(WARPS[d!.warp]!.a).toBe(1);
    expect(Math.abs(d!.offset - cut)).toBeLessThanOrEqual(1);
    expect(d!.votes).toBeGreaterThanOrEqual(MIN_VOTES);
  });

  it('places matches at absolute frames when given a segment base', () => {
    const cut = 1000;
    const query = songA.subarray(cut * HOP, cut * HOP + 10 * SAMPLE_RATE);
    const [d] = detectWindow(collectMatches(queryHashes(query), postings, 5000), 5000);
    expect(d!.songId).toBe(7);
    expect(Math.abs(d!.offset - (cut - 5000))).toBeLessThanOrEqual(1);
    expect(d!.first).toBeGreaterThanOrEqual(5000);
  });

  it('detects nothing in music that is not indexed', () => {
    const query = synthSong(33, 10, SAMPLE_RATE);
    expect(detectWindow(collectMatches(queryHashes(query), postings, 0), 0)).toEqual([]);
  });

  it('chains the windows of one play and splits a replay at another position', () => {
    const base = { songId: 7, warp: 0, votes: 20 };
    const plays = chainDetections([
      { ...base, offset: 100, first: 0, last: 600 },
      { ...base, offset: 101, first: WINDOW_HOP, last: WINDOW_HOP + 600 },
      { ...base, offset: 100, first: 2 * WINDOW_HOP, last: 2 * WINDOW_HOP + 600 },
      // the same song again, 30 s into it, later in the night: another play
      { ...base, offset: -20000 + 1875, first: 20000, last: 20600 },
    ]);
    expect(plays.map((p) => [p.songId, p.first, p.last])).toEqual([
      [7, 0, 2 * WINDOW_HOP + 600],
      [7, 20000, 20600],
    ]);
  });

  it('merges pieces of one play heard at inconsistent positions (a repeated chorus) when close', () => {
    const base = { songId: 7, warp: 0, votes: 20 };
    const plays = chainDetections([
      { ...base, offset: 100, first: 0, last: 600 },
      // the chorus's other occurrence, 40 s into the song, heard in the next windows
      { ...base, offset: 100 + Math.round(40 / FRAME_SECONDS), first: WINDOW_HOP, last: WINDOW_HOP + 600 },
      { ...base, offset: 100, first: 3 * WINDOW_HOP, last: 3 * WINDOW_HOP + 600 },
    ]);
    expect(plays.map((p) => [p.songId, p.first, p.last])).toEqual([[7, 0, 3 * WINDOW_HOP + 600]]);
  });

  it('maps votes to confidence and back', () => {
    expect(confidenceOf(MIN_VOTES)).toBeCloseTo(0.5, 6);
    expect(votesFor(0.5)).toBeCloseTo(MIN_VOTES, 6);
    expect(votesFor(confidenceOf(23))).toBeCloseTo(23, 6);
  });
});
