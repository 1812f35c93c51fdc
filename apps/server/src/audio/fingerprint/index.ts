/**
 * The fingerprint engine's public face: index a song's file and recognise the songs heard in a
 * stretch of mono samples (services/library/fingerprints.ts decides which songs to index). How it works
 * (peaks → pair hashes → offset votes under tempo/speed warps → verification against the song's
 * peaks) is in README.md beside this file.
 */
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { DecodeError, decodeAudio } from '../decode.js';
import { HASH_SPACE, type Hashes, hashPeaks, probeHashes } from './hashes.js';
import {
  type Candidate,
  CORROBORATING_FRAMES,
  chainDetections,
  confidenceOf,
  type Detection,
  detectWindow,
  firstAtOrAfter,
  indexCandidates,
  type PeakGrid,
  peakDetections,
  peakGrid,
  probeDetections,
  scoreFor,
  strengthOf,
  TAIL_SECONDS,
  WINDOW_FRAMES,
  WINDOW_HOP,
} from './matcher.js';
import { currentIndex, type InvertedIndex } from './memory-index.js';
import {
  EVIDENCE_BOUND,
  FFT_SIZE,
  FRAME_SECONDS,
  HOP,
  MAX_DT,
  MIN_SCORE,
  PEAK_SONGS,
  PEAK_TIME_RADIUS,
  POOL_MARGIN,
  POOL_WINDOWS,
  QUERY_PEAKS,
  QUERY_TARGETS,
  QUERY_VERIFY_PEAKS,
  RANK_RADIUS,
  REFERENCE_PEAKS,
  SAMPLE_RATE,
  SOLO_FACTOR,
  STOP_FACTOR,
  STOP_MIN,
  VERIFY_PEAKS,
  FINGERPRINT_VERSION as VERSION,
  WARPS,
  WEAK_SCORE,
} from './params.js';
import { extractPeakSets, keepDensity, type Peaks } from './peaks.js';
import { loadSongPeaks, markFingerprintError, poolOf, replaceSongFingerprints } from './store.js';
import { TRACK_BOUND, type TrackedPlay, type TrackOptions, type TrackState, trackChunk } from './tracking.js';

export {
  reachesBound,
  TRACK_BOUND,
  TRACK_UNCONFIRMED_FACTOR,
  type TrackedPlay,
  type TrackState,
} from './tracking.js';

export const FINGERPRINT_VERSION: string = VERSION;
export const FINGERPRINT_SAMPLE_RATE: number = SAMPLE_RATE;

/** A song heard: seconds from the start of the given samples; crossfades may overlap. */
export interface TimelinePlay {
  songId: number;
  startS: number;
  endS: number;
  /** 0-1; 0.5 is the engine's own threshold of "heard". */
  confidence: number;
  /**
   * Where the song's own start (its position 0) lies, in seconds from the start of the samples, as
   * its best window hears it (negative when the song began before them): a play whose first
   * seconds were masked or lie before the samples began earlier than `startS`.
   */
  songStartS: number;
  /** The song's seconds per second of the samples (1.03: played 3% faster). */
  tempo: number;
  /**
   * The song's length as indexed (its peaks' last frame), when the source told it (withSongSeconds):
   * its end lies at songStartS + songSeconds / tempo.
   */
  songSeconds?: number | null;
}

export interface FingerprintDeps {
  db: Db;
  config: Pick<Config, 'ffmpegPath'>;
}

/**
 * What the index stores of a signal at FINGERPRINT_SAMPLE_RATE: its peaks for verification
 * ('band' whitening, VERIFY_PEAKS) and the pair hashes of its REFERENCE_PEAKS ('bin' whitening,
 * returned too for the benchmarks' fillers).
 */
export function indexSignal(samples: Float32Array): { peaks: Peaks; hashedPeaks: Peaks; hashes: Hashes } {
  const { hashed, verified } = extractPeakSets(samples, REFERENCE_PEAKS, VERIFY_PEAKS);
  return { peaks: verified, hashedPeaks: hashed, hashes: referenceHashes(hashed) };
}

/** The hashes the index keeps of a song's hashed peaks (at REFERENCE_PEAKS or denser). */
export function referenceHashes(hashedPeaks: Peaks): Hashes {
  return hashPeaks(keepDensity(hashedPeaks, REFERENCE_PEAKS));
}

/**
 * Decodes a song's file, hashes it and replaces its entries in the index; marks the song
 * fingerprinted with the current version. An undecodable file sets songs.fingerprint_error and
 * rethrows the DecodeError; a file with nothing to hash (silence, under a second) records why.
 */
export async function fingerprintSong(
  deps: FingerprintDeps,
  song: { songId: number; filePath: string },
): Promise<{ hashCount: number; durationS: number }> {
  let samples: Float32Array;
  try {
    samples = await decodeAudio(song.filePath, {
      sampleRate: SAMPLE_RATE,
      ffmpegPath: deps.config.ffmpegPath,
    });
  } catch (error) {
    if (error instanceof DecodeError) await markFingerprintError(deps.db, song.songId, error.message);
    throw error;
  }
  const durationS = samples.length / SAMPLE_RATE;
  const { peaks, hashes } = indexSignal(samples);
  if (hashes.count === 0) {
    await markFingerprintError(
      deps.db,
      song.songId,
      `no fingerprints: ${durationS.toFixed(1)} s of audio without audible content to index`,
    );
    return { hashCount: 0, durationS };
  }
  await replaceSongFingerprints(deps.db, song.songId, hashes, peaks, FINGERPRINT_VERSION);
  return { hashCount: hashes.count, durationS };
}

/** Lets timers and I/O run (a macrotask turn), as an awaited resolved promise does not. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether a window's detections hear a song at `keyScore` (the window threshold). */
const heardIn = (list: readonly Detection[], keyScore: number) => list.some((d) => d.score >= keyScore);

/** Window starts analysed per lookup (a minute of signal): bounds memory on long recordings. */
const SEGMENT_FRAMES = WINDOW_HOP * 12;

/**
 * The songs of the index heard in `samples` (mono, FINGERPRINT_SAMPLE_RATE), in start order.
 * Empty when nothing in the library is heard. `minConfidence` (default 0.5, the calibrated
 * threshold) trades misses for false recognitions.
 */
export async function recognizeTimeline(
  db: Db,
  samples: Float32Array,
  options: { minConfidence?: number } = {},
): Promise<TimelinePlay[]> {
  const index = await currentIndex(db);
  return recognizeWith({ index, gridsOf: (songIds) => cachedGrids(db, index, songIds) }, samples, options);
}

/**
 * Peaks of the songs recognition proposed lately, per database, least recently used first, as the
 * grids verification reads (built once, not once per chunk): the songs of a night are proposed
 * again chunk after chunk, and each read from PostgreSQL costs milliseconds. An entry holds for
 * the song's revision in the index it was read with. 128 MB holds every song's peaks up to about
 * 1,600 songs (warmPeakCache fills it when the server starts); beyond, a query's chance
 * candidates are read from the database.
 */
const PEAK_CACHE_BYTES = 128 * 2 ** 20;
interface PeakCache {
  entries: Map<number, { revision: number; grid: PeakGrid }>;
  bytes: number;
}
const peakCaches = new WeakMap<object, PeakCache>();
const bytesOf = (grid: PeakGrid) => grid.start.byteLength + grid.f.byteLength;

function peakCacheOf(db: Db): PeakCache {
  const pool = poolOf(db);
  let cache = peakCaches.get(pool);
  if (!cache) {
    cache = { entries: new Map(), bytes: 0 };
    peakCaches.set(pool, cache);
  }
  return cache;
}

async function cachedGrids(
  db: Db,
  index: Pick<InvertedIndex, 'revisions'>,
  songIds: readonly number[],
): Promise<Map<number, PeakGrid>> {
  const cache = peakCacheOf(db);
  const found = new Map<number, PeakGrid>();
  const missing: number[] = [];
  for (const id of songIds) {
    const entry = cache.entries.get(id);
    if (entry && entry.revision === index.revisions.get(id)) {
      cache.entries.delete(id);
      cache.entries.set(id, entry);
      found.set(id, entry.grid);
    } else missing.push(id);
  }
  const loaded = await loadSongPeaks(db, missing);
  for (const [id, peaks] of loaded) {
    const grid = peakGrid(peaks);
    found.set(id, grid);
    const revision = index.revisions.get(id);
    if (revision === undefined) continue;
    const old = cache.entries.get(id);
    if (old) cache.bytes -= bytesOf(old.grid);
    cache.entries.delete(id);
    cache.entries.set(id, { revision, grid });
    cache.bytes += bytesOf(grid);
  }
  for (const [id, entry] of cache.entries) {
    if (cache.bytes <= PEAK_CACHE_BYTES) break;
    cache.entries.delete(id);
    cache.bytes -= bytesOf(entry.grid);
  }
  return found;
}

/**
 * Reads the peaks of the songs of `index` (currentIndex) into the peak cache, by batches, until
 * every song's are there or the cache is full: what the server does once its index is loaded, so
 * that recognition seldom waits for PostgreSQL. Returns the songs cached.
 */
export async function warmPeakCache(
  db: Db,
  index: Pick<InvertedIndex, 'revisions'>,
  batch = 50,
): Promise<number> {
  const cache = peakCacheOf(db);
  const ids = [...index.revisions.keys()].filter((id) => !cache.entries.has(id));
  for (let from = 0; from < ids.length; from += batch) {
    // Stop before the least recently used entries would be evicted by the warm-up itself.
    if (cache.bytes > PEAK_CACHE_BYTES * 0.9) break;
    await cachedGrids(db, index, ids.slice(from, from + batch));
  }
  return cache.entries.size;
}

/**
 * What recognition reads: the inverted index of hashes, and the peaks of the songs it proposes as
 * grids (peakGrid), which a source builds once per song and keeps.
 */
export interface RecognitionSource {
  index: Pick<InvertedIndex, 'offsets' | 'entries' | 'frameBits' | 'pieceSong' | 'pieceBase' | 'size'>;
  gridsOf(songIds: readonly number[]): Promise<Map<number, PeakGrid>>;
}

/** A source with every song's peaks in memory, each made a grid once (the benchmarks' engine alone). */
export function memorySource(
  index: RecognitionSource['index'],
  peaksById: ReadonlyMap<number, Pick<Peaks, 't' | 'f' | 'count'>>,
): RecognitionSource {
  const grids = new Map([...peaksById].map(([id, peaks]) => [id, peakGrid(peaks)]));
  return {
    index,
    gridsOf: async (ids) => new Map(ids.filter((id) => grids.has(id)).map((id) => [id, grids.get(id)!])),
  };
}

/**
 * The score a play that no second window corroborates needs in a signal of `totalFrames`: in one
 * long enough for two windows that share no audio, SOLO_FACTOR times `minScore`; in a shorter one
 * (a query of 10-20 s), `minScore`.
 */
export const soloScoreFor = (totalFrames: number, minScore: number = MIN_SCORE): number =>
  totalFrames >= CORROBORATING_FRAMES + WINDOW_FRAMES ? SOLO_FACTOR * minScore : minScore;

/** Frames of a signal of `length` samples (each a full FFT_SIZE, HOP apart). */
const framesOf = (length: number) => (length < FFT_SIZE ? 0 : Math.floor((length - FFT_SIZE) / HOP) + 1);

/**
 * The window detections of `samples` and its length in frames: every window's candidates verified
 * down to `windowScore` at their songs' best keys, and at their other keys down to `keyScore`
 * (the window threshold: detectWindow), and in the windows no song is heard in at `keyScore`
 * their second chance (probeDetections; `secondChance` false only for the benchmarks'
 * comparisons): what recognizeWith chains into plays (the benchmarks record them); and the
 * signal's verified peaks (absolute frames), which tracking verifies its hypotheses against.
 */
export async function windowDetections(
  source: RecognitionSource,
  samples: Float32Array,
  windowScore: number,
  keyScore: number = Math.max(windowScore, MIN_SCORE),
  secondChance = true,
  pool = true,
): Promise<{ detections: Detection[]; totalFrames: number; peaks: Pick<Peaks, 't' | 'f' | 'count'> }> {
  const { index } = source;
  const maxBucket = Math.max(STOP_MIN, (STOP_FACTOR * index.size) / HASH_SPACE);
  const totalFrames = framesOf(samples.length);
  // Windows every WINDOW_HOP frames, plus one ending with the signal (a short signal: one window).
  const starts: number[] = [];
  for (let start = 0; start + WINDOW_FRAMES < totalFrames; start += WINDOW_HOP) starts.push(start);
  const lastStart = Math.max(0, totalFrames - WINDOW_FRAMES);
  if (totalFrames > 0 && starts.at(-1) !== lastStart) starts.push(lastStart);
  const detections: Detection[] = [];
  // The verified peaks of each segment's own frames (past its end, the next segment's; the last
  // segment with windows keeps all of its own).
  const peakT: Int32Array[] = [];
  const peakF: Float32Array[] = [];
  // Songs' peak grids, loaded once per call for the candidates that need them.
  const grids = new Map<number, PeakGrid | null>();
  // Segments of SEGMENT_FRAMES window starts, analysed with the frames their windows need after
  // them (and the targets of their last anchors, and the rank context of their last peaks), so
  // memory stays bounded on long recordings.
  for (let segStart = 0; segStart < totalFrames; segStart += SEGMENT_FRAMES) {
    const windows = starts.filter((start) => start >= segStart && start < segStart + SEGMENT_FRAMES);
    if (windows.length === 0) continue;
    const to = Math.min(
      totalFrames,
      windows.at(-1)! + WINDOW_FRAMES + MAX_DT + PEAK_TIME_RADIUS + RANK_RADIUS,
    );
    const segment = samples.subarray(segStart * HOP, Math.min(samples.length, (to - 1) * HOP + FFT_SIZE));
    // The peaks looked up (hashed) and the denser ones verified, from one spectrogram.
    const { hashed, verified: local } = extractPeakSets(segment, QUERY_PEAKS, QUERY_VERIFY_PEAKS);
    const perWarp = WARPS.map((warp) => hashPeaks(hashed, warp, QUERY_TARGETS));
    const candidates: Candidate[][] = [];
    for (const start of windows) {
      // One window's lookup at a time, then the event loop's turn: recognising a 30 s chunk at
      // 10,000 songs is a few hundred ms of CPU, which would otherwise hold every request behind it.
      await yieldToEventLoop();
      candidates.push(indexCandidates(perWarp, index, segStart, start, maxBucket));
    }
    const missing = [...new Set(candidates.flat().map((c) => c.songId))].filter((id) => !grids.has(id));
    const loaded = await source.gridsOf(missing);
    for (const id of missing) grids.set(id, loaded.get(id) ?? null);
    // The segment's peaks at absolute frames.
    const query = { t: local.t.map((t) => t + segStart), f: local.f, count: local.count };
    const segEnd = segStart + SEGMENT_FRAMES;
    const own = starts.at(-1)! >= segEnd ? firstAtOrAfter(query.t, query.count, segEnd) : query.count;
    peakT.push(query.t.subarray(0, own));
    peakF.push(query.f.subarray(0, own));
    const found: Detection[][] = [];
    for (const [w, start] of windows.entries()) {
      await yieldToEventLoop();
      found.push(detectWindow(candidates[w]!, start, query, grids, windowScore, keyScore));
    }
    // A second chance for the windows no song is heard in (probeDetections): their candidates
    // from the segment's pairs looked up at the hashes a room's small moves give them, at no warp.
    const unheard = found.flatMap((list, w) => (heardIn(list, keyScore) ? [] : [w]));
    if (secondChance && unheard.length > 0) {
      const probes = [probeHashes(hashed, QUERY_TARGETS)];
      const second = new Map<number, Candidate[]>();
      for (const w of unheard) {
        await yieldToEventLoop();
        second.set(w, indexCandidates(probes, index, segStart, windows[w]!, maxBucket));
      }
      const more = [...new Set([...second.values()].flat().map((c) => c.songId))].filter(
        (id) => !grids.has(id),
      );
      const read = await source.gridsOf(more);
      for (const id of more) grids.set(id, read.get(id) ?? null);
      for (const [w, list] of second) {
        await yieldToEventLoop();
        const heard = probeDetections(list, windows[w]!, query, grids, keyScore);
        // (a song heard so replaces its weak detection of the window: one detection a song)
        const songs = new Set(heard.map((d) => d.songId));
        found[w] = [...found[w]!.filter((d) => !songs.has(d.songId)), ...heard];
      }
    }
    // The segment's candidate pool (POOL_WINDOWS) aligned by single peaks in the windows still unheard.
    if (pool) await pooledDetections(candidates, windows, found, query, grids, windowScore, keyScore);
    for (const list of found) detections.push(...list);
  }
  const count = peakT.reduce((n, t) => n + t.length, 0);
  const t = new Int32Array(count);
  const f = new Float32Array(count);
  for (let k = 0, at = 0; k < peakT.length; at += peakT[k]!.length, k++) {
    t.set(peakT[k]!, at);
    f.set(peakF[k]!, at);
  }
  return { detections, totalFrames, peaks: { t, f, count } };
}

/**
 * A segment's candidate pool: the songs that are candidates (pairs) in POOL_WINDOWS or more of the
 * segment's `windows`, aligned by single peaks (peakDetections, at no warp) in each window where
 * no song is heard at `keyScore` (`found`: each window's detections, second chance included, added
 * to in place), besides the window's own first PEAK_SONGS candidate songs (searched already) and
 * the songs it heard weakly. A detection needs `windowScore` plus POOL_MARGIN and is reported less
 * it: in a long signal a seed tracking follows at the song's position (tracking.ts).
 */
async function pooledDetections(
  candidates: readonly (readonly Candidate[])[],
  windows: readonly number[],
  found: Detection[][],
  query: Pick<Peaks, 't' | 'f' | 'count'>,
  grids: ReadonlyMap<number, PeakGrid | null>,
  windowScore: number,
  keyScore: number,
  margin: number = POOL_MARGIN,
  minWindows: number = POOL_WINDOWS,
): Promise<void> {
  const windowsOf = new Map<number, number>();
  for (const list of candidates)
    for (const id of new Set(list.map((c) => c.songId))) windowsOf.set(id, (windowsOf.get(id) ?? 0) + 1);
  const pooled = [...windowsOf].filter(([, n]) => n >= minWindows).map(([id]) => id);
  if (pooled.length === 0) return;
  for (const [w, start] of windows.entries()) {
    const heard = found[w]!;
    if (heardIn(heard, keyScore)) continue;
    const own = [...new Set(candidates[w]!.map((c) => c.songId))].slice(0, PEAK_SONGS);
    // (no key of theirs in this window: every offset of the song is searched)
    const songs = pooled
      .filter((id) => !own.includes(id) && !heard.some((d) => d.songId === id))
      .map((songId) => ({ songId, warp: -1, offset: 0, votes: 0 }));
    if (songs.length === 0) continue;
    // (a window's search at a time, then the event loop's turn, as windowDetections' own loops)
    await yieldToEventLoop();
    for (const d of peakDetections(songs, start, query, grids, windowScore + margin, { songs: songs.length }))
      heard.push({ ...d, score: d.score - margin, window: start, warpless: true });
  }
}

/**
 * Whether a signal of `totalFrames` can hold two windows that share no audio: only then can a
 * play be corroborated or gather evidence, and weak windows are worth verifying.
 */
const holdsTwoWindows = (totalFrames: number) => totalFrames >= CORROBORATING_FRAMES + WINDOW_FRAMES;

/** What recognition asks of a play; `evidenceBound` and `secondChance` only for the benchmarks. */
export interface RecognitionOptions {
  /** 0.5 by default, the calibrated threshold: trades misses for false recognitions. */
  minConfidence?: number;
  /** EVIDENCE_BOUND at minConfidence 0.5 unless given. */
  evidenceBound?: number;
  /** False: no second chance for the windows no song is heard in (the benchmarks' comparisons). */
  secondChance?: boolean;
}

/** The window score recognition verifies down to in a signal of `totalFrames`. */
export function windowScoreFor(totalFrames: number, options: RecognitionOptions = {}): number {
  const minScore = scoreFor(options.minConfidence ?? 0.5);
  return holdsTwoWindows(totalFrames) ? (WEAK_SCORE * minScore) / MIN_SCORE : minScore;
}

/**
 * The plays of a signal of `totalFrames` frames (`seconds` long) from its window detections
 * (windowDetections at windowScoreFor): chained, kept by the window threshold, corroboration or
 * evidence, in seconds from the signal's start.
 */
export function timelineOf(
  detections: readonly Detection[],
  totalFrames: number,
  seconds: number,
  options: RecognitionOptions = {},
): TimelinePlay[] {
  const minScore = scoreFor(options.minConfidence ?? 0.5);
  // The evidence bound scales with the threshold asked for (MIN_SCORE at confidence 0.5).
  const bounds = {
    minScore,
    evidenceBound: ((options.evidenceBound ?? EVIDENCE_BOUND) * minScore) / MIN_SCORE,
  };
  return chainDetections(detections, soloScoreFor(totalFrames, minScore), bounds).map((play) => ({
    songId: play.songId,
    startS: round2(play.first * FRAME_SECONDS),
    endS: round2(Math.min(seconds, play.last * FRAME_SECONDS + TAIL_SECONDS)),
    confidence: round2(confidenceOf(strengthOf(play, bounds))),
    songStartS: round2(play.songStart * FRAME_SECONDS),
    tempo: Math.round(play.tempo * 1e4) / 1e4,
  }));
}

/** recognizeTimeline on a given index and peak source (the benchmark's in-process measurements). */
export async function recognizeWith(
  source: RecognitionSource,
  samples: Float32Array,
  options: RecognitionOptions = {},
): Promise<TimelinePlay[]> {
  const totalFrames = framesOf(samples.length);
  const { detections } = await windowDetections(
    source,
    samples,
    windowScoreFor(totalFrames, options),
    scoreFor(options.minConfidence ?? 0.5),
    options.secondChance ?? true,
  );
  return playsWithLengths(source, timelineOf(detections, totalFrames, samples.length / SAMPLE_RATE, options));
}

/** The plays with their songs' lengths, from the grids verification read (cached: nothing more). */
async function playsWithLengths(source: RecognitionSource, plays: TimelinePlay[]): Promise<TimelinePlay[]> {
  if (plays.length === 0) return plays;
  const grids = await source.gridsOf([...new Set(plays.map((play) => play.songId))]);
  return withSongSeconds(plays, (songId) => {
    const grid = grids.get(songId);
    return grid ? grid.start.length - 1 : undefined;
  });
}

/** A chunk of a stream recognised: its plays, the tracked hypotheses told as plays, and the tracking. */
export interface StreamRecognition {
  plays: TimelinePlay[];
  /** The window detections the plays were chained from (the benchmarks record them). */
  detections: Detection[];
  /** The signal's frames (the detections' windows lie in them), and its verified peaks. */
  totalFrames: number;
  peaks: Pick<Peaks, 't' | 'f' | 'count'>;
  /** Seconds from the start of `samples` (negative: heard in chunks before). */
  tracked: TrackedPlay[];
  tracking: TrackState;
  /** Verifications tracking made (hypotheses × windows). */
  verifications: number;
}

/**
 * One chunk of a stream (`samples`: the chunk, after `tailSamples` of the chunk before) recognised
 * as recognizeTimeline does, and its hypotheses tracked on from `tracking`, the stream's state after
 * the chunk before (null: the stream begins here, or its state was lost). The same arguments give
 * the same result: nothing of `tracking` is changed.
 */
export async function recognizeStream(
  db: Db,
  samples: Float32Array,
  stream: { tailSamples: number; tracking: TrackState | null },
  options: RecognitionOptions = {},
): Promise<StreamRecognition> {
  const index = await currentIndex(db);
  return recognizeStreamWith(
    { index, gridsOf: (songIds) => cachedGrids(db, index, songIds) },
    samples,
    stream,
    {},
    options,
  );
}

/**
 * recognizeStream on a given index and peak source (the benchmarks'); `track` for their sweeps.
 * Another `minConfidence` than 0.5 scales the tracking's bound as timelineOf scales the evidence
 * bound, and its confirming score is the window threshold at that confidence (`wcs recognize
 * --min-confidence`).
 */
export async function recognizeStreamWith(
  source: RecognitionSource,
  samples: Float32Array,
  stream: { tailSamples: number; tracking: TrackState | null },
  track: TrackOptions = {},
  options: RecognitionOptions = {},
): Promise<StreamRecognition> {
  const totalFrames = framesOf(samples.length);
  const minScore = scoreFor(options.minConfidence ?? 0.5);
  const { detections, peaks } = await windowDetections(
    source,
    samples,
    windowScoreFor(totalFrames, options),
    minScore,
    options.secondChance ?? true,
  );
  const plays = await playsWithLengths(
    source,
    timelineOf(detections, totalFrames, samples.length / SAMPLE_RATE, options),
  );
  const songIds = new Set([
    ...detections.map((d) => d.songId),
    ...(stream.tracking?.hypotheses.map((h) => h.songId) ?? []),
  ]);
  const grids = await source.gridsOf([...songIds]);
  const {
    state,
    plays: tracked,
    verifications,
  } = trackChunk(
    stream.tracking,
    { samples: samples.length, tailSamples: stream.tailSamples, totalFrames, peaks, detections, grids },
    { bound: (TRACK_BOUND * minScore) / MIN_SCORE, confirmScore: minScore, ...track },
  );
  return { plays, detections, totalFrames, peaks, tracked, tracking: state, verifications };
}

/**
 * The plays with their songs' lengths (`framesOf`: a song's frames, its last peak's + 1, as
 * peakGrid counts them), so the timeline knows where each song ends as heard.
 */
export function withSongSeconds(
  plays: readonly TimelinePlay[],
  framesOf: (songId: number) => number | undefined,
): TimelinePlay[] {
  return plays.map((play) => {
    const frames = framesOf(play.songId);
    return { ...play, songSeconds: frames === undefined ? null : round2(frames * FRAME_SECONDS) };
  });
}

const round2 = (x: number) => Math.round(x * 100) / 100;
