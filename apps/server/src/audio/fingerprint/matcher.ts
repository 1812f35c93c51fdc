/**
 * The matcher: a query's hashes (under every warp) looked up in the index vote for
 * (song, warp, time offset); a song is heard in a 10 s window when enough votes agree on one
 * offset (±1 frame). Windows that hear the same song at a consistent position in the song chain
 * into one play, whose start and end are the first and last matching landmarks. Random hits of
 * songs that are not playing spread over many offsets and stay far below the vote threshold.
 */
import type { Hashes } from './hashes.js';
import { FRAME_SECONDS, MAX_DT, MIN_VOTES, WARPS } from './params.js';
import type { Postings } from './store.js';

/** A song heard in one window. */
export interface Detection {
  songId: number;
  warp: number;
  /** Reference frame minus warped query frame. */
  offset: number;
  votes: number;
  /** First and last query frames (absolute) of the agreeing landmarks. */
  first: number;
  last: number;
}

export const WINDOW_FRAMES = Math.round(10 / FRAME_SECONDS);
export const WINDOW_HOP = Math.round(5 / FRAME_SECONDS);

const OFFSET_BIAS = 2 ** 22;
const keyOf = (songId: number, warp: number, offset: number) =>
  (songId * 64 + warp) * 2 ** 23 + offset + OFFSET_BIAS;

interface Match {
  key: number;
  /** Absolute query frame of the anchor. */
  t: number;
}

/**
 * Every index hit of the query, per warp. `hashesPerWarp[w]` are the query hashes under WARPS[w];
 * `frameBase` is added to their frames (a segment's place in the whole signal).
 */
export function collectMatches(
  hashesPerWarp: readonly Hashes[],
  postings: Postings,
  frameBase: number,
): Match[] {
  const matches: Match[] = [];
  for (let w = 0; w < hashesPerWarp.length; w++) {
    const { hash, t, count } = hashesPerWarp[w]!;
    const a = WARPS[w]!.a;
    for (let i = 0; i < count; i++) {
      const list = postings.get(hash[i]!);
      if (!list) continue;
      const tq = frameBase + t[i]!;
      const warped = Math.round(tq * a);
      for (let p = 0; p < list.length; p += 2) {
        matches.push({ key: keyOf(list[p]!, w, list[p + 1]! - warped), t: tq });
      }
    }
  }
  matches.sort((x, y) => x.t - y.t);
  return matches;
}

/** The best-voted detection per song in the frames [start, start + WINDOW_FRAMES). */
export function detectWindow(matches: readonly Match[], start: number, minVotes = MIN_VOTES): Detection[] {
  const end = start + WINDOW_FRAMES;
  // Votes are distinct anchor frames: the triplets of one anchor (or of one chord's notes at the
  // same instant) agree with each other by construction and count once.
  const counts = new Map<number, number>();
  const lastFrame = new Map<number, number>();
  // matches are sorted by t: binary search the window's first match.
  let lo = 0;
  let hi = matches.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (matches[mid]!.t < start) lo = mid + 1;
    else hi = mid;
  }
  const first = lo;
  for (let i = first; i < matches.length && matches[i]!.t < end; i++) {
    const { key, t } = matches[i]!;
    if (lastFrame.get(key) === t) continue;
    lastFrame.set(key, t);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const best = new Map<number, { key: number; votes: number }>();
  for (const [key, count] of counts) {
    const votes = count + (counts.get(key - 1) ?? 0) + (counts.get(key + 1) ?? 0);
    if (votes < minVotes) continue;
    const songId = Math.floor(key / 2 ** 23 / 64);
    const current = best.get(songId);
    if (!current || votes > current.votes || (votes === current.votes && key < current.key)) {
      best.set(songId, { key, votes });
    }
  }
  const detections: Detection[] = [];
  for (const [songId, { key, votes }] of best) {
    let firstT = Number.POSITIVE_INFINITY;
    let lastT = Number.NEGATIVE_INFINITY;
    for (let i = first; i < matches.length && matches[i]!.t < end; i++) {
      const k = matches[i]!.key;
      if (k >= key - 1 && k <= key + 1) {
        firstT = Math.min(firstT, matches[i]!.t);
        lastT = Math.max(lastT, matches[i]!.t);
      }
    }
    const warp = Math.floor(key / 2 ** 23) % 64;
    const offset = (key % 2 ** 23) - OFFSET_BIAS;
    detections.push({ songId, warp, offset, votes, first: firstT, last: lastT });
  }
  return detections;
}

export interface Play {
  songId: number;
  /** Query frames of the first and last agreeing landmark. */
  first: number;
  last: number;
  /** Best window's votes. */
  votes: number;
  warp: number;
}

/** Frames between two windows of one play before it counts as played again. */
const MAX_GAP_FRAMES = Math.round(20 / FRAME_SECONDS);

/** Chains window detections of the same song at a consistent song position into plays. */
export function chainDetections(detections: readonly Detection[]): Play[] {
  const sorted = [...detections].sort((x, y) => x.songId - y.songId || x.first - y.first);
  const plays: Play[] = [];
  let open: (Play & { offset: number; a: number }) | undefined;
  for (const d of sorted) {
    const a = WARPS[d.warp]!.a;
    if (open && open.songId === d.songId && d.first - open.last <= MAX_GAP_FRAMES) {
      // Position in the song at d.first, as predicted by the play so far and as seen by d.
      const predicted = open.offset + open.a * d.first;
      const seen = d.offset + a * d.first;
      const tolerance = 1 / FRAME_SECONDS + 0.01 * Math.abs(d.first - open.last);
      if (Math.abs(predicted - seen) <= tolerance) {
        open.first = Math.min(open.first, d.first);
        open.last = Math.max(open.last, d.last);
        if (d.votes > open.votes) {
          open.votes = d.votes;
          open.warp = d.warp;
        }
        open.offset = d.offset;
        open.a = a;
        continue;
      }
    }
    if (open) plays.push(stripOpen(open));
    open = {
      songId: d.songId,
      first: d.first,
      last: d.last,
      votes: d.votes,
      warp: d.warp,
      offset: d.offset,
      a,
    };
  }
  if (open) plays.push(stripOpen(open));
  return mergeNearPlays(plays).sort((x, y) => x.first - y.first || x.songId - y.songId);
}

/** Plays of one song closer than this are one play (a DJ does not replay a song within it). */
const MERGE_GAP_FRAMES = Math.round(45 / FRAME_SECONDS);

/**
 * Merges plays of the same song that overlap or lie less than MERGE_GAP_FRAMES apart, whatever
 * their positions: a chorus heard at the position of its other occurrence, or a stretch too
 * noisy for any window, must not split one play into several.
 */
function mergeNearPlays(plays: Play[]): Play[] {
  const sorted = [...plays].sort((x, y) => x.songId - y.songId || x.first - y.first);
  const merged: Play[] = [];
  for (const play of sorted) {
    const last = merged.at(-1);
    if (last && last.songId === play.songId && play.first - last.last <= MERGE_GAP_FRAMES) {
      last.last = Math.max(last.last, play.last);
      if (play.votes > last.votes) {
        last.votes = play.votes;
        last.warp = play.warp;
      }
    } else merged.push({ ...play });
  }
  return merged;
}

function stripOpen(play: Play): Play {
  return { songId: play.songId, first: play.first, last: play.last, votes: play.votes, warp: play.warp };
}

/** Confidence 0-1 of a vote count: 0.5 at the threshold, 0.75 at twice it, near 1 beyond. */
export const confidenceOf = (votes: number): number => 1 - 0.5 ** (votes / MIN_VOTES);

/** The vote count a confidence stands for (inverse of confidenceOf). */
export const votesFor = (confidence: number): number =>
  confidence <= 0
    ? 1
    : confidence >= 1
      ? Number.POSITIVE_INFINITY
      : Math.max(1, (-MIN_VOTES * Math.log(1 - confidence)) / Math.LN2);

/** Seconds a play's last anchor lies before the end of the last landmark it hashes. */
export const TAIL_SECONDS = (MAX_DT / 2) * FRAME_SECONDS;
