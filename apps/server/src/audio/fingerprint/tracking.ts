/**
 * Track-before-detect across a stream's chunks (docs/performance.md, "Track-before-detect"): a
 * window detection of song S (score WEAK_SCORE and up) is a hypothesis that S plays at that
 * position. In every later 10 s window of the stream (hop WINDOW_HOP) the hypothesis is verified at
 * the position it predicts (verifyCandidate at its warp and the offset its tempo gives), whether or
 * not the window's votes propose S. Its evidence is the scores of its seeds and of its tracked
 * windows of TRACK_FLOOR and up, once they span two windows that share no audio; a hypothesis whose
 * evidence reaches TRACK_BOUND is a play when it is confirmed (a window besides the seed that began
 * it heard its song there at TRACK_CONFIRM_SCORE, MIN_SCORE), and at TRACK_UNCONFIRMED_FACTOR times
 * the bound (180) when not. The bound was chosen on music outside the index (chance hypotheses:
 * strongest evidence 66.0 in 11.01 h) and the tuning nights; since the second chance and neutral
 * tie-breaks chance's evidence reached 113.0 (a margin of 1.06), but none of the 17 chance
 * hypotheses of the 11.01 h is confirmed, while every tracked play of the tuning nights is: 113.0
 * is 1.59 times under 180, confirmed chance none under 120 (docs/performance.md, "Tracked plays
 * confirmed by a window besides their seed").
 *
 * The state between chunks (TrackState) is plain data: the recognition service keeps it per
 * stream, as it keeps the decoded tails, and rebuilds it in order on Retry. trackChunk never
 * changes the state it is given, so a chunk processed twice from the same state finds the same.
 * Each stretch of audio counts once: the windows are a grid of the stream (each verified by the
 * first chunk that holds it whole), a chunk's detections in the tail that the chunk before heard
 * already are no seeds again, and a hypothesis is not verified again in a window its seed heard.
 * A tracked window that a window of the chunk hears better as the same song at another position
 * does not count.
 */
import {
  CORROBORATING_FRAMES,
  confidenceOf,
  type Detection,
  ownScoreOf,
  type PeakGrid,
  peakOffsets,
  TAIL_SECONDS,
  verifyCandidate,
  WINDOW_FRAMES,
  WINDOW_HOP,
} from './matcher.js';
import { FRAME_SECONDS, HOP, MIN_SCORE, PEAK_TIME_RADIUS, RANK_RADIUS, WARPS, WEAK_SCORE } from './params.js';
import type { Peaks } from './peaks.js';

/**
 * The evidence that makes a tracked hypothesis a play: the engine's EVIDENCE_BOUND, 1.8 times the
 * strongest evidence chance gave tracked hypotheses in 11.01 h outside the index (66.0), chosen on
 * the tuning nights (docs/performance.md, "Track-before-detect in the server"). For a confirmed
 * hypothesis (TRACK_CONFIRM_SCORE) only: chance's evidence has since reached 113.0 unconfirmed.
 */
export const TRACK_BOUND = 120;
/**
 * A hypothesis is told as a play only once a window besides the seed that began it heard its song
 * at this score (the window threshold), at the position it predicts: a tracked window (one try, at
 * that position) or another window's detection that agrees with it. The founding seed does not
 * confirm: it is the best of every candidate, key, single-peak offset and second-chance probe a
 * window tried, where chance has most tries. Over 11.01 h of music outside the index (1,000 songs,
 * the server's path) the 17 chance hypotheses with evidence summed up to 113.0 (planetblupi's
 * music005 heard as music008 of the same game: a second-chance seed of 31.0, then tracked windows
 * of 15.0-27.0), 71.0 and 66.0, a margin of 1.06 under TRACK_BOUND; none has a window at 30 besides
 * its seed (the best tracked window is 27.0). On the tuning nights every one of the 137 tracked
 * hypotheses of a song playing that reached 120 has one, none later than by the sum alone: 85 of 87
 * plays either way (docs/performance.md, "Tracked plays confirmed by a window besides their seed").
 * Asking that window to share no audio with the seed lost both plays only tracking finds there; so
 * did counting a window's excess over the floor (the strongest chance 38.0 of such evidence, those
 * plays 66.5).
 */
export const TRACK_CONFIRM_SCORE = MIN_SCORE;
/**
 * A hypothesis no window besides its first seed heard at TRACK_CONFIRM_SCORE is a play from this
 * many times the bound (180): a song masked so deeply that it is heard window after window at 15-29
 * only (services/recognition/recognition-tracking.int.test.ts's song under 20 dB more noise, 2 dB
 * deeper than that test now plays it: windows of 15-26, 194 in 140 s) is still told, and chance's
 * strongest unconfirmed evidence in 11.01 h outside the index (113.0) lies 1.59 times under it, the
 * margin TRACK_BOUND alone had lost
 * (docs/performance.md, "Tracked plays confirmed by a window besides their seed"). No tracked play
 * of the tuning nights needs it.
 */
export const TRACK_UNCONFIRMED_FACTOR = 1.5;
/** The tracked windows that count as evidence (and re-anchor the position): as the chunks' own. */
export const TRACK_FLOOR = WEAK_SCORE;
/** Hypotheses tracked at once per stream (the strongest seeds first). */
export const TRACK_MAX_ALIVE = 8;
/** A hypothesis no window has heard at TRACK_FLOOR for this long is dropped. */
export const TRACK_DROP_SECONDS = 60;

/**
 * How far back from its first seed a new hypothesis is verified (backSeconds: within the chunk's
 * signal, which begins with the 20 s tail of the chunk before), so that the song's windows heard
 * before any reached the seed score count too. 0 in the server: at 60 s it found no play more on
 * the tuning nights and raised the strongest chance evidence outside the index from 66.0 to 101.5
 * (docs/performance.md, "Tracking backwards, and a song heard to its end"); the benchmarks measure it.
 */
export const TRACK_BACK_SECONDS = 0;

/**
 * Whether a new hypothesis seeded by a detection found at no warp (Detection.warpless: the
 * single-peak search and the second chance look at warp 0 only, whatever the song's tempo) is
 * tracked at the warp its seed's window verifies best at (bestSeedWarp) rather than at warp 0: a
 * song played 5 % faster, seeded so, was predicted 8 frames off in the very next window and never
 * verified again (held-out night 1's song 39). A seed whose warp the votes chose keeps it: in heavy
 * noise another warp outscores the true one on a single window by chance (27.5 two percent off
 * against 23 at the true warp in recognition-tracking.int.test.ts). docs/performance.md, "The
 * night misses window by window, and seeds at their best warp".
 */
export const TRACK_SEED_WARPS = true;

/**
 * A seed of a song made of loops may hear its music at another repeat than the one playing (a
 * loop played again: tuning night 2's and held-out night 4's song 14, docs/performance.md, "A song
 * of loops heard at another repeat"). Its position's repeats (repeatsOf: the song's own 10 s there
 * aligned against the song by single peaks, peakOffsets, each offset verified as a candidate is)
 * scoring TRACK_REPEAT_RATIO of the window's own score, at most TRACK_REPEATS of them (the best),
 * none within a window of it, are alternatives: a new seed feeds a live hypothesis that predicts
 * one of them, else it begins a hypothesis at its position and one at each repeat (its score
 * counted in each), and tracking's next windows tell them apart.
 */
export const TRACK_REPEATS = 3;
export const TRACK_REPEAT_RATIO = 0.5;
/**
 * A repeat is not a free try for chance: of a seed's alternatives (siblings: its hypotheses at its
 * position and at its repeats) only the one with most evidence is told (TRACK_SIBLINGS), and a
 * hypothesis begun at a repeat is confirmed (TRACK_CONFIRM_SCORE) only while it leads every sibling
 * by TRACK_SIBLING_MARGIN. TRACK_REPEAT_CONFIRM asks besides for a window at certain music (2: of
 * no repeat in the song, which tells where in the song it is; 1: other than the seed's own
 * position has; 0: any window, as a hypothesis at the seed's position; 3: below). Over 11.01 h of
 * music outside the index (planetblupi's music005 heard as music008 of the same game, a track of
 * loops) a repeat's hypothesis reached 106.0 confirmed under 1 and 0 alone (main: none confirmed,
 * at most 100.5 unconfirmed), none under 2; but mode 2 loses held-out night 2's song 25, which a
 * window at music its song plays four times confirms (docs/performance.md, "Every repeat of a
 * seed's music tracked, with a chance control", "The loop rule's extra held-out play, traced").
 * The margin (with mode 0) keeps it and confirms no chance (docs/performance.md, "Siblings with a
 * margin").
 */
export const TRACK_SIBLINGS = true;
export const TRACK_REPEAT_CONFIRM: 0 | 1 | 2 | 3 = 0;
/**
 * Mode 3 of TRACK_REPEAT_CONFIRM (measured, not the server's): a window at the confirming score
 * confirms a hypothesis begun at a repeat when the same audio, verified where the seed's other
 * alternatives (its own position, its other repeats) have their song at that moment, scores under
 * this ratio of the window's own score there: the room's audio, not the song's own peaks, says the
 * window tells the alternatives apart. Held-out night 2's song 25 (a loop track) is confirmed by a
 * window of 34.5 whose rival scores 23.5 (0.68): kept at 0.75, lost at 0.5; but music outside the
 * index (music005 heard as that song, at the same repeat) has a confirming window of 31.5 whose
 * rival scores 23.5 (0.746), confirmed at 0.75 (docs/performance.md, "The loop rule's extra
 * held-out play, traced").
 */
export const TRACK_RIVAL_RATIO = 0.5;
/**
 * Siblings with a margin: a hypothesis begun at a repeat is confirmed only while every sibling
 * still tracked (the seed's hypotheses at its own position and its other repeats) has under this
 * fraction of its evidence: the room's audio, window after window, fits that alternative and not
 * the others (0: off). Music outside the index heard as a loop track fits two alike: planetblupi's
 * music005 as music008 had 62.5 at a repeat beside 46 at the seed's position, then 106.0 beside
 * 100.5 (0.74, 0.95: confirmed at 0.75 and 0.9 while at 62.5, never at 0.5); held-out night 2's
 * song 25 has 123.5 beside 0 (docs/performance.md, "Siblings with a margin").
 */
export const TRACK_SIBLING_MARGIN = 0.5;

/** Seed and prediction this close (frames) are one hypothesis. */
const SAME_FRAMES = 6;
/** The tempo is refitted on the anchors of the last REFIT_SECONDS, once they span REFIT_MIN_SECONDS. */
const REFIT_FRAMES = Math.round(120 / FRAME_SECONDS);
const REFIT_MIN_FRAMES = Math.round(10 / FRAME_SECONDS);
/** How far the refitted tempo may move from its warp's (the warps are 2% apart). */
const TEMPO_SPAN = 0.015;
/** Frames at a signal's end whose peaks lack context: windows reaching them wait for the next chunk. */
const EDGE_FRAMES = PEAK_TIME_RADIUS + RANK_RADIUS;
/** A window of another song this far before a hypothesis's first peak still shares its music. */
const SHARED_LEAD_FRAMES = Math.round(5 / FRAME_SECONDS);

/** A window that heard a hypothesis's song (stream frames; `ref`: the song's frame at its centre). */
export interface TrackedWindow {
  start: number;
  score: number;
  first: number;
  last: number;
  ref: number;
  /** A seed heard at a repeat of the position its hypothesis has (TRACK_REPEATS): it does not tell that position. */
  atRepeat?: true;
  /**
   * Of a window tracked for a hypothesis begun at a repeat (TRACK_REPEAT_CONFIRM 3): its best score
   * verified where the seed's other alternatives have their song at that moment (-1: none verified).
   */
  rival?: number;
}

export interface Hypothesis {
  songId: number;
  warp: number;
  /** Song frames per stream frame (its tempo). */
  slope: number;
  /** [stream frame of a window's centre, song frame there] of its recent windows at TRACK_FLOOR. */
  anchors: [number, number][];
  /** Start of its first seed's window, and of its last window heard at TRACK_FLOOR. */
  born: number;
  lastGood: number;
  /** The window detections that seeded it (chunks' windows), and its tracked windows at the floor (only those are kept). */
  seeds: TrackedWindow[];
  windows: TrackedWindow[];
  /** The evidence it had when last told as a play (0: never). */
  told: number;
  /**
   * Song frames from its first seed's position to where it has its song (TRACK_REPEATS): 0 at the
   * seed's own position, else a repeat of that position's music.
   */
  repeat: number;
}

/** A stream's tracking between chunks: plain data (stream frames count from the stream's start). */
export interface TrackState {
  /** Stream samples heard: where the last chunk's signal ended. */
  endSample: number;
  /** The next window of the stream's grid to verify. */
  nextWindow: number;
  /** The chunk before heard windows starting up to here: the next chunk's are no seeds again. */
  seededUntil: number;
  hypotheses: Hypothesis[];
  /** Recent window detections of every song (the shared-music rule). */
  heard: { songId: number; window: number; score: number }[];
}

/** A hypothesis told as a play, in seconds from the start of the chunk's signal (TimelinePlay's terms). */
export interface TrackedPlay {
  songId: number;
  startS: number;
  endS: number;
  confidence: number;
  songStartS: number;
  tempo: number;
  songSeconds: number | null;
  /** Its evidence (the benchmarks compare bounds). */
  evidence: number;
  /** Whether a window besides its first seed heard it at the confirming score (confirmedOf). */
  confirmed: boolean;
  /** The song's seconds its counted windows hear from and to (the first's start, the last's end). */
  songFromS: number;
  songToS: number;
}

export interface TrackOptions {
  /** TRACK_BOUND unless given (the benchmarks tell every hypothesis from a lower one). */
  bound?: number;
  floor?: number;
  maxAlive?: number;
  dropSeconds?: number;
  /** TRACK_BACK_SECONDS unless given (0: a hypothesis is verified from its seed on only). */
  backSeconds?: number;
  /** TRACK_SEED_WARPS unless given (false: a seed found at no warp is tracked at warp 0). */
  seedWarps?: boolean;
  /** TRACK_CONFIRM_SCORE unless given (0: every hypothesis is confirmed, as before the rule). */
  confirmScore?: number;
  /** TRACK_UNCONFIRMED_FACTOR unless given. */
  unconfirmedFactor?: number;
  /** TRACK_REPEATS unless given (0: a seed is a hypothesis at its own position only). */
  repeats?: number;
  /** TRACK_REPEAT_RATIO unless given. */
  repeatRatio?: number;
  /** TRACK_SIBLINGS unless given (0: every sibling of a seed may be told). */
  siblings?: number;
  /**
   * TRACK_REPEAT_CONFIRM unless given (0: any window confirms a repeat's hypothesis; 1: one where
   * its seed's position has other music; 2: one at music of no repeat in its song; 3: one whose
   * audio, verified where the seed's other alternatives have their song, scores under
   * rivalRatio of its own score there).
   */
  repeatConfirm?: number;
  /** TRACK_RIVAL_RATIO unless given. */
  rivalRatio?: number;
  /**
   * TRACK_SIBLING_MARGIN unless given (0: off): a hypothesis begun at a repeat is confirmed only
   * while each of its siblings has under this fraction of its evidence.
   */
  siblingMargin?: number;
}

/** Whether a tracked play reaches `bound` (TRACK_BOUND; TRACK_UNCONFIRMED_FACTOR times it unconfirmed). */
export const reachesBound = (
  play: Pick<TrackedPlay, 'evidence' | 'confirmed'>,
  bound: number = TRACK_BOUND,
  factor: number = TRACK_UNCONFIRMED_FACTOR,
) => play.evidence >= (play.confirmed ? bound : bound * factor);

export interface ChunkSignal {
  /** Samples of the signal (the chunk with the tail of the one before). */
  samples: number;
  /** Of them, the tail: samples the stream has heard already (0: the stream begins here). */
  tailSamples: number;
  /** The signal's frames, its verified peaks and its window detections (windowDetections). */
  totalFrames: number;
  peaks: Pick<Peaks, 't' | 'f' | 'count'>;
  detections: readonly Detection[];
  /** Grids of the songs of `detections` and of the state's hypotheses. */
  grids: ReadonlyMap<number, PeakGrid | null>;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const songFramesOf = (grid: PeakGrid) => grid.start.length - 1;

/** Where a hypothesis places its song at stream frame c (a window's centre). */
const predict = (h: Hypothesis, c: number) => {
  const [c0, r0] = h.anchors.at(-1)!;
  return r0 + h.slope * (c - c0);
};

/** The tempo from the anchors of the last REFIT_FRAMES, within TEMPO_SPAN of the warp's. */
function refit(h: Hypothesis): void {
  const lastC = h.anchors.at(-1)![0];
  h.anchors = h.anchors.filter(([c]) => c >= lastC - REFIT_FRAMES);
  const span = lastC - h.anchors[0]![0];
  if (span < REFIT_MIN_FRAMES) return;
  const n = h.anchors.length;
  const mc = h.anchors.reduce((s, [c]) => s + c, 0) / n;
  const mr = h.anchors.reduce((s, [, r]) => s + r, 0) / n;
  let num = 0;
  let den = 0;
  for (const [c, r] of h.anchors) {
    num += (c - mc) * (r - mr);
    den += (c - mc) ** 2;
  }
  const a = WARPS[h.warp]!.a;
  h.slope = Math.min(a * (1 + TEMPO_SPAN), Math.max(a * (1 - TEMPO_SPAN), num / den));
}

/** What a hypothesis counts: its seeds and its tracked windows (all at the floor). */
const partsOf = (h: Pick<Hypothesis, 'seeds' | 'windows'>) => [...h.seeds, ...h.windows];

/**
 * A hypothesis's evidence: its seeds' and tracked windows' scores, once their windows span two
 * that share no audio (as chaining asks); 0 before.
 */
export function evidenceOf(h: Pick<Hypothesis, 'seeds' | 'windows'>): number {
  const counted = partsOf(h);
  const starts = counted.map((w) => w.start);
  if (Math.max(...starts) - Math.min(...starts) < CORROBORATING_FRAMES) return 0;
  return counted.reduce((s, w) => s + w.score, 0);
}

/**
 * Whether a window besides the seed that began the hypothesis (its first) heard its song at `score`
 * (TRACK_CONFIRM_SCORE): a tracked window, or another seed at the position it predicts.
 */
export function confirmedOf(
  h: Pick<Hypothesis, 'seeds' | 'windows'>,
  score = TRACK_CONFIRM_SCORE,
  confirming: (w: TrackedWindow) => boolean = () => true,
): boolean {
  return [...h.seeds.slice(1), ...h.windows].some((w) => w.score >= score && confirming(w));
}

/** Single-peak offsets repeatsOf verifies (each a candidate's verification). */
const REPEAT_OFFSETS = 8;
/** Positions per song whose repeats are kept (the songs' grids hold them, as long as they live). */
const REPEAT_CACHE = 512;

/** The song's own peaks as a query, its frames the grid's (repeatsOf aligns a song with itself). */
const ownPeaks = new WeakMap<PeakGrid, Pick<Peaks, 't' | 'f' | 'count'>>();
function ownPeaksOf(grid: PeakGrid): Pick<Peaks, 't' | 'f' | 'count'> {
  let peaks = ownPeaks.get(grid);
  if (!peaks) {
    const t = new Int32Array(grid.f.length);
    for (let x = 0; x < songFramesOf(grid); x++) t.fill(x, grid.start[x]!, grid.start[x + 1]!);
    peaks = { t, f: grid.f, count: grid.f.length };
    ownPeaks.set(grid, peaks);
  }
  return peaks;
}

/** Results per song (grid) and position, kept while the grid lives. */
const repeatCache = new WeakMap<PeakGrid, Map<string, unknown>>();
function cached<T>(grid: PeakGrid, key: string, compute: () => T): T {
  let cache = repeatCache.get(grid);
  if (!cache) {
    cache = new Map();
    repeatCache.set(grid, cache);
  }
  if (cache.has(key)) return cache.get(key) as T;
  const value = compute();
  if (cache.size >= REPEAT_CACHE) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}

/**
 * The song's own 10 s around its frame `ref` (within the song): their first frame and their score
 * against the song where they are (what a repeat's score is a fraction of). Null in a song shorter
 * than a window.
 */
function ownWindowOf(grid: PeakGrid, ref: number): { from: number; own: number } | null {
  const frames = songFramesOf(grid);
  if (frames < WINDOW_FRAMES) return null;
  const from = Math.min(frames - WINDOW_FRAMES, Math.max(0, Math.round(ref) - Math.round(WINDOW_FRAMES / 2)));
  return cached(grid, `own|${from}`, () => {
    const r = verifyCandidate(ownPeaksOf(grid), from, from + WINDOW_FRAMES, grid, { warp: 0, offset: 0 });
    return { from, own: r.score };
  });
}

/**
 * Where else the song plays the music of its frame `ref` (song frames, best first): the song's 10 s
 * around it aligned against the song by single peaks (peakOffsets), each offset verified as a
 * candidate is; those scoring `ratio` of the 10 s's own score, none within a window of `ref`, at
 * most `count`.
 */
export function repeatsOf(
  grid: PeakGrid,
  ref: number,
  count: number = TRACK_REPEATS,
  ratio: number = TRACK_REPEAT_RATIO,
): number[] {
  if (count <= 0) return [];
  const window = ownWindowOf(grid, ref);
  if (!window || window.own <= 0) return [];
  const at = Math.round(ref);
  return cached(grid, `repeats|${at}|${count}|${ratio}`, () => {
    const query = ownPeaksOf(grid);
    const { from, own } = window;
    const needed = ratio * own;
    const found: { ref: number; score: number }[] = [];
    for (const offset of peakOffsets(query, from, from + WINDOW_FRAMES, grid, 0, REPEAT_OFFSETS)) {
      if (Math.abs(offset) < WINDOW_FRAMES) continue;
      const r = verifyCandidate(query, from, from + WINDOW_FRAMES, grid, { warp: 0, offset }, needed);
      if (r.first < 0 || r.score < needed || Math.abs(r.offset) < WINDOW_FRAMES) continue;
      if (found.some((x) => Math.abs(x.ref - (at + r.offset)) <= SAME_FRAMES)) continue;
      found.push({ ref: at + r.offset, score: r.score });
    }
    return found
      .sort((x, y) => y.score - x.score)
      .slice(0, count)
      .map((x) => x.ref);
  });
}

/**
 * Whether the song's music at its frame `ref` is heard again at its frame `other` (the song's 10 s
 * around `ref` verified there, within a settle's frames, at `ratio` of their own score).
 */
export function repeatsAt(
  grid: PeakGrid,
  ref: number,
  other: number,
  ratio: number = TRACK_REPEAT_RATIO,
): boolean {
  const window = ownWindowOf(grid, ref);
  if (!window || window.own <= 0) return false;
  const offset = Math.round(other) - Math.round(ref);
  if (Math.abs(offset) <= SAME_FRAMES) return true;
  return cached(grid, `at|${window.from}|${offset}|${ratio}`, () => {
    const { from, own } = window;
    const r = verifyCandidate(
      ownPeaksOf(grid),
      from,
      from + WINDOW_FRAMES,
      grid,
      { warp: 0, offset },
      ratio * own,
    );
    return r.first >= 0 && r.score >= ratio * own;
  });
}

/**
 * One chunk's tracking: `previous` is the stream's state after the chunk before (null when the
 * stream begins here, or it was lost: the signal then begins a stream of its own). Returns the
 * state after this chunk and the hypotheses whose evidence reached the bound and grew in this
 * chunk, as plays heard so far (their seeds' and counted windows' span).
 */
export function trackChunk(
  previous: TrackState | null,
  signal: ChunkSignal,
  options: TrackOptions = {},
): { state: TrackState; plays: TrackedPlay[]; verifications: number } {
  const bound = options.bound ?? TRACK_BOUND;
  const floor = options.floor ?? TRACK_FLOOR;
  const maxAlive = options.maxAlive ?? TRACK_MAX_ALIVE;
  const dropFrames = (options.dropSeconds ?? TRACK_DROP_SECONDS) / FRAME_SECONDS;
  const backFrames = (options.backSeconds ?? TRACK_BACK_SECONDS) / FRAME_SECONDS;
  const seedWarps = options.seedWarps ?? TRACK_SEED_WARPS;
  const confirmScore = options.confirmScore ?? TRACK_CONFIRM_SCORE;
  const factor = options.unconfirmedFactor ?? TRACK_UNCONFIRMED_FACTOR;
  const repeatCount = options.repeats ?? TRACK_REPEATS;
  const repeatRatio = options.repeatRatio ?? TRACK_REPEAT_RATIO;
  const siblings = options.siblings === undefined ? TRACK_SIBLINGS : options.siblings > 0;
  const repeatConfirm = options.repeatConfirm ?? TRACK_REPEAT_CONFIRM;
  const rivalRatio = options.rivalRatio ?? TRACK_RIVAL_RATIO;
  const siblingMargin = options.siblingMargin ?? TRACK_SIBLING_MARGIN;
  const continued = previous !== null && signal.tailSamples > 0;
  const state: TrackState = continued
    ? structuredClone(previous)
    : { endSample: signal.tailSamples, nextWindow: 0, seededUntil: -WINDOW_HOP, hypotheses: [], heard: [] };
  // The signal's first sample in the stream, and its frame 0 as a stream frame.
  const signalStart = state.endSample - signal.tailSamples;
  const s = Math.round(signalStart / HOP);
  const half = Math.round(WINDOW_FRAMES / 2);
  const { peaks, grids } = signal;

  // The chunk's window detections, in stream frames; those the chunk before heard are no seeds.
  // (a seed counts its own score, ownScoreOf: a window's second song shares none of the evidence
  // of the song heard strongest there)
  const detections = signal.detections.map((d) => ({
    ...d,
    own: ownScoreOf(d),
    window: d.window + s,
    first: d.first + s,
    last: d.last + s,
    ref: Math.round((d.window + half) * WARPS[d.warp]!.a) + d.offset,
  }));
  state.heard.push(...detections.map((d) => ({ songId: d.songId, window: d.window, score: d.score })));
  const seeds = detections
    .filter((d) => d.window > state.seededUntil + WINDOW_HOP / 2 && d.own >= floor)
    .sort((x, y) => x.window - y.window);

  const alive = state.hypotheses;
  const done: Hypothesis[] = [];
  // The stream's windows this signal holds whole (and clear of its last frames).
  const end = s + signal.totalFrames - EDGE_FRAMES;
  let verifications = 0;

  /**
   * Hypothesis h verified in the stream's window W with its song at `refC` at the window's centre:
   * the window it counts, or null (under the floor, or heard better elsewhere in its song).
   */
  const verifyAt = (h: Hypothesis, W: number, refC: number, grid: PeakGrid): TrackedWindow | null => {
    const a = WARPS[h.warp]!.a;
    const local = W + half - s;
    const r = verifyCandidate(peaks, W - s, W - s + WINDOW_FRAMES, grid, {
      warp: h.warp,
      offset: Math.round(refC) - Math.round(local * a),
    });
    verifications++;
    if (r.score < floor || r.first < 0) return null;
    // A window of the chunk that hears this stretch as the same song at another position, and
    // better, says the music is not where the hypothesis has it (chance in a song after a cut),
    // unless that position is a repeat of the one predicted (a loop played again: the window
    // cannot tell the two apart).
    const elsewhere = detections.some((d) => {
      if (d.songId !== h.songId || Math.abs(d.window - W) >= WINDOW_FRAMES || d.score <= r.score)
        return false;
      const predicted = refC + h.slope * (d.window - W);
      if (Math.abs(d.ref - predicted) <= SAME_FRAMES) return false;
      return !repeatsOf(grid, predicted, repeatCount, repeatRatio).some(
        (x) => Math.abs(x - d.ref) <= SAME_FRAMES,
      );
    });
    if (elsewhere) return null;
    const found: TrackedWindow = {
      start: W,
      score: r.score,
      first: r.first + s,
      last: r.last + s,
      ref: Math.round(local * a) + r.offset,
    };
    // A hypothesis begun at a repeat: the same audio verified where its seed's other alternatives
    // (its own position and its other repeats) have their song now (TRACK_REPEAT_CONFIRM 3).
    if (repeatConfirm === 3 && h.repeat !== 0 && r.score >= confirmScore) {
      const own = h.seeds[0]!.ref - h.repeat;
      const others = [0, ...repeatsOf(grid, own, repeatCount, repeatRatio).map((x) => x - own)].filter(
        (x) => Math.abs(x - h.repeat) > SAME_FRAMES,
      );
      let rival = -1;
      for (const other of others) {
        const at = refC - h.repeat + other;
        if (at < 0 || at > songFramesOf(grid)) continue;
        const v = verifyCandidate(peaks, W - s, W - s + WINDOW_FRAMES, grid, {
          warp: h.warp,
          offset: Math.round(at) - Math.round(local * a),
        });
        verifications++;
        if (v.first >= 0) rival = Math.max(rival, v.score);
      }
      found.rival = rival;
    }
    return found;
  };

  /**
   * A new hypothesis verified backwards from its seed, in the stream's windows before it that the
   * signal holds (up to backFrames, not before its song's start), each re-anchoring the next: the
   * song's windows heard before its seed count as evidence.
   */
  const trackBack = (h: Hypothesis) => {
    const grid = grids.get(h.songId);
    if (!grid || backFrames <= 0) return;
    const seedStart = h.seeds[0]!.start;
    let W = Math.ceil((seedStart - WINDOW_HOP / 2) / WINDOW_HOP) * WINDOW_HOP - WINDOW_HOP;
    for (; W >= s && W >= seedStart - backFrames; W -= WINDOW_HOP) {
      const [c0, r0] = h.anchors[0]!;
      const refC = r0 + h.slope * (W + half - c0);
      if (refC < 0) break;
      const found = verifyAt(h, W, refC, grid);
      if (!found) continue;
      h.windows.push(found);
      h.anchors.unshift([W + half, found.ref]);
    }
    refit(h);
  };

  /**
   * The warp a seed's window verifies its song best at, its position at the window's centre kept
   * (settled there, within verification's ±2 frames): the seed's own unless another scores more.
   * The seed counts its own score still: only the tempo its hypothesis is tracked at changes.
   */
  const bestSeedWarp = (d: (typeof detections)[number]): { warp: number; ref: number } => {
    const grid = grids.get(d.songId);
    let best = { warp: d.warp, ref: d.ref };
    if (!grid) return best;
    const local = d.window - s;
    const c = local + half;
    let bestScore = Number.NEGATIVE_INFINITY;
    // (the seed's own warp first: another must score more, and the bar is set)
    for (const w of [d.warp, ...WARPS.map((_, x) => x).filter((x) => x !== d.warp)]) {
      const a = WARPS[w]!.a;
      const r = verifyCandidate(
        peaks,
        local,
        local + WINDOW_FRAMES,
        grid,
        { warp: w, offset: d.ref - Math.round(c * a) },
        Math.max(floor, bestScore),
      );
      verifications++;
      if (r.first < 0 || r.score <= bestScore) continue;
      bestScore = r.score;
      best = { warp: w, ref: Math.round(c * a) + r.offset };
    }
    return best;
  };

  let next = 0;
  const addSeedsUpTo = (W: number) => {
    while (next < seeds.length && seeds[next]!.window <= W) {
      const d = seeds[next++]!;
      const seed: TrackedWindow = {
        start: d.window,
        score: d.own,
        first: d.first,
        last: d.last,
        ref: d.ref,
      };
      const sc = d.window + half;
      const same = alive.find(
        (h) => h.songId === d.songId && Math.abs(predict(h, sc) - d.ref) <= SAME_FRAMES,
      );
      if (same) {
        same.seeds.push(seed);
        same.anchors.push([sc, d.ref]);
        same.lastGood = Math.max(same.lastGood, d.window);
        refit(same);
        continue;
      }
      const grid = grids.get(d.songId);
      const repeats = grid ? repeatsOf(grid, d.ref, repeatCount, repeatRatio) : [];
      // A live hypothesis that has its song at a repeat of the seed's position: the seed heard
      // its music at another repeat (its position there, not the seed's, anchors nothing).
      const atRepeat = alive.find(
        (h) => h.songId === d.songId && repeats.some((x) => Math.abs(predict(h, sc) - x) <= SAME_FRAMES),
      );
      if (atRepeat) {
        atRepeat.seeds.push({ ...seed, ref: Math.round(predict(atRepeat, sc)), atRepeat: true });
        atRepeat.lastGood = Math.max(atRepeat.lastGood, d.window);
        continue;
      }
      // (a seed whose warp the votes chose keeps it: only one found at no warp has no tempo)
      const { warp, ref } = seedWarps && d.warpless ? bestSeedWarp(d) : d;
      // At its position and at each repeat: alternatives, each counting the seed.
      for (const repeat of [0, ...repeats.map((x) => x - d.ref)]) {
        const born: Hypothesis = {
          songId: d.songId,
          warp,
          slope: WARPS[warp]!.a,
          anchors: [[sc, ref + repeat]],
          born: d.window,
          lastGood: d.window,
          seeds: [{ ...seed, ref: seed.ref + repeat }],
          windows: [],
          told: 0,
          repeat,
        };
        trackBack(born);
        alive.push(born);
      }
    }
    // Bounded: the strongest hypotheses by the best seed they have shown.
    alive.sort(
      (x, y) =>
        Math.max(...y.seeds.map((w) => w.score)) - Math.max(...x.seeds.map((w) => w.score)) ||
        y.lastGood - x.lastGood,
    );
    while (alive.length > maxAlive) done.push(alive.pop()!);
  };

  // The stream's windows this signal holds whole, not verified yet.
  let W = Math.max(state.nextWindow, Math.ceil(s / WINDOW_HOP) * WINDOW_HOP);
  for (; W + WINDOW_FRAMES <= end; W += WINDOW_HOP) {
    // (a seed's window within half a hop of W hears W's audio: it comes first, W is not verified)
    addSeedsUpTo(W + WINDOW_HOP / 2);
    const c = W + half;
    for (let k = alive.length - 1; k >= 0; k--) {
      const h = alive[k]!;
      const grid = grids.get(h.songId);
      const refC = predict(h, c);
      if (!grid || W - h.lastGood > dropFrames || refC > songFramesOf(grid) || refC < 0) {
        done.push(...alive.splice(k, 1));
        continue;
      }
      // Not before its seed, nor again where a seed of it was heard.
      if (W <= h.born || h.seeds.some((x) => Math.abs(x.start - W) <= WINDOW_HOP / 2)) continue;
      const found = verifyAt(h, W, refC, grid);
      if (!found) continue;
      h.windows.push(found);
      h.anchors.push([c, found.ref]);
      h.lastGood = W;
      refit(h);
    }
  }
  addSeedsUpTo(Number.POSITIVE_INFINITY);
  state.nextWindow = Math.max(state.nextWindow, W);
  state.seededUntil = s + Math.max(0, signal.totalFrames - WINDOW_FRAMES);
  state.endSample = signalStart + signal.samples;

  // The hypotheses at the bound (times the factor, unconfirmed) whose evidence grew: plays, unless
  // another song's window heard their stretch at least as well as their best (two songs sharing
  // music: it is that song's).
  const plays: TrackedPlay[] = [];
  const all = [...done, ...alive];
  const evidences = new Map(all.map((h) => [h, evidenceOf(h)]));
  // The seed's other alternatives still tracked (same song, same first seed).
  const siblingsOf = (h: Hypothesis) =>
    all.filter((x) => x !== h && x.songId === h.songId && x.seeds[0]!.start === h.seeds[0]!.start);
  for (const h of all) {
    const evidence = evidences.get(h)!;
    const grid = grids.get(h.songId);
    // Which windows confirm (TRACK_REPEAT_CONFIRM): under 0, the server's, any (the margin below
    // is the control); under 1-3 a hypothesis begun at a repeat is confirmed only where its seed's
    // own position has other music (1), by music of no repeat at all (2), or where the audio tells
    // the alternatives apart (3), and a seed heard at a repeat of its position confirms none.
    const confirming = (w: TrackedWindow) =>
      repeatConfirm <= 0 ||
      (!w.atRepeat &&
        (h.repeat === 0 ||
          !grid ||
          (repeatConfirm === 3
            ? w.rival !== undefined && w.rival < rivalRatio * w.score
            : repeatConfirm > 1
              ? repeatsOf(grid, w.ref, repeatCount, repeatRatio).length === 0
              : !repeatsAt(grid, w.ref, w.ref - h.repeat, repeatRatio))));
    // (siblings with a margin: a repeat's hypothesis leads every alternative of its seed by it)
    const confirmed =
      confirmedOf(h, confirmScore, confirming) &&
      (siblingMargin <= 0 ||
        h.repeat === 0 ||
        siblingsOf(h).every((x) => evidences.get(x)! < siblingMargin * evidence));
    if (!reachesBound({ evidence, confirmed }, bound, factor) || evidence <= h.told) continue;
    // Of a seed's alternatives (at its position and its repeats), only the one with most evidence.
    if (
      siblings &&
      siblingsOf(h).some(
        (x) =>
          evidences.get(x)! > evidence ||
          (evidences.get(x) === evidence && Math.abs(x.repeat) < Math.abs(h.repeat)),
      )
    )
      continue;
    const span = spanOf(h);
    const play = playOf(h, span, grids.get(h.songId), signalStart / HOP);
    const shared = state.heard.some(
      (x) =>
        x.songId !== h.songId &&
        x.score >= span.best.score &&
        x.window >= span.first - SHARED_LEAD_FRAMES &&
        x.window <= span.last + TAIL_SECONDS / FRAME_SECONDS,
    );
    h.told = evidence;
    if (!shared) plays.push({ ...play, evidence, confirmed });
  }
  state.hypotheses = alive;
  // Detections older than every live hypothesis's stretch no longer matter.
  const since = Math.min(
    ...alive.map((h) => Math.min(...partsOf(h).map((w) => w.first))),
    s + signal.totalFrames,
  );
  state.heard = state.heard.filter((x) => x.window >= since - SHARED_LEAD_FRAMES - WINDOW_FRAMES);
  return { state, plays, verifications };
}

/** A hypothesis's best window and the first and last verified peaks of its windows (stream frames). */
function spanOf(h: Hypothesis): { best: TrackedWindow; first: number; last: number } {
  const parts = partsOf(h);
  return {
    best: parts.reduce((x, y) => (y.score > x.score ? y : x)),
    first: Math.min(...parts.map((w) => w.first)),
    last: Math.max(...parts.map((w) => w.last)),
  };
}

/**
 * The play a hypothesis makes, in seconds from stream frame `s` (the signal's start, a fraction of
 * a frame as the stream's samples place it): its windows' verified peaks (`span`), where its song
 * began and ends as its best window hears it, that window's confidence.
 */
function playOf(
  h: Hypothesis,
  { best, first, last }: ReturnType<typeof spanOf>,
  grid: PeakGrid | null | undefined,
  s: number,
) {
  const half = Math.round(WINDOW_FRAMES / 2);
  const songStart = best.start + half - best.ref / h.slope;
  const parts = partsOf(h);
  const from = parts.reduce((x, y) => (y.start < x.start ? y : x));
  const to = parts.reduce((x, y) => (y.start > x.start ? y : x));
  return {
    songId: h.songId,
    startS: round2((first - s) * FRAME_SECONDS),
    endS: round2((last - s) * FRAME_SECONDS + TAIL_SECONDS),
    confidence: round2(confidenceOf(best.score)),
    songStartS: round2((songStart - s) * FRAME_SECONDS),
    tempo: Math.round(h.slope * 1e4) / 1e4,
    songSeconds: grid ? round2(songFramesOf(grid) * FRAME_SECONDS) : null,
    songFromS: round2((from.ref - half * h.slope) * FRAME_SECONDS),
    songToS: round2((to.ref + half * h.slope) * FRAME_SECONDS),
  };
}
