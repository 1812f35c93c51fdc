/**
 * One chunk's recognition: the chunk with the last TAIL_SECONDS of the chunk before, decoded at
 * the fingerprint rate, recognised against the library, mapped to wall-clock time and merged into
 * the recording's timeline, with the plays the stream's tracked hypotheses reached; then the
 * stretches nothing covers go to the cloud providers. Decoded tails are kept in memory for the
 * next chunk of the session; the stream's tracking after each chunk is stored with the chunk.
 */
import { DecodeError, decodeAudio } from '../../audio/decode.js';
import {
  FINGERPRINT_SAMPLE_RATE,
  FINGERPRINT_VERSION,
  recognizeStream,
  type TrackState,
} from '../../audio/fingerprint/index.js';
import type { recordingChunks } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import type { CloudRecognizer } from '../../providers/cloud-recognizer.js';
import { queueMetadataLookups } from '../metadata/lookup.js';
import {
  CLOUD_CLIP_SECONDS,
  CLOUD_MIN_STRETCH_SECONDS,
  cutClip,
  identifyClip,
  rms,
  SILENCE_RMS,
  songForMatch,
} from './recognition-cloud.js';
import {
  mergeDetections,
  mergeRecognized,
  type PlaySpan,
  uncoveredStretches,
  type WindowPiece,
} from './recognition-timeline.js';

/** How much of the chunk before is recognised again with each chunk. */
export const TAIL_SECONDS = 20;
/** Chunks further apart than this (a pause, a lost chunk) are not treated as one stream. */
export const CONTINUITY_TOLERANCE_SECONDS = 10;

export type ChunkRow = typeof recordingChunks.$inferSelect;

/** The plays being built, and stored plays absorbed into others on the way. */
export interface Timeline {
  plays: PlaySpan[];
  removedIds: number[];
}

/**
 * Runs `use` with the chunk's file on this machine, from the recordings store: the file itself in
 * the local folder, a temporary copy from object storage (removed after). Any process can so run
 * any chunk's job, whichever process received it. A missing file is a StorageNotFoundError.
 */
export async function withChunkFile<T>(
  deps: AppDeps,
  chunk: ChunkRow,
  use: (file: string) => Promise<T>,
): Promise<T> {
  const local = await deps.storage.recordings.toLocalFile(chunk.filePath);
  try {
    return await use(local.path);
  } finally {
    await local.release();
  }
}

export async function decodeChunk(deps: AppDeps, chunk: ChunkRow): Promise<Float32Array> {
  return withChunkFile(deps, chunk, (file) =>
    // The command line of the upload's check (services/recordings/recordings.ts): one warm line.
    decodeAudio(file, {
      sampleRate: FINGERPRINT_SAMPLE_RATE,
      ffmpegPath: deps.config.ffmpegPath,
      keepWarm: true,
    }),
  );
}

/** The tail cache's key: the store and the chunk's key (its name carries its content hash). */
const tailKey = (deps: AppDeps, chunk: ChunkRow) => `${deps.storage.recordings.location}|${chunk.filePath}`;

/** The last TAIL_SECONDS of a decoded chunk, and the chunk's decoded length. */
export interface ChunkTail {
  samples: Float32Array;
  chunkSeconds: number;
}

/**
 * Tails of recently decoded chunks, so recognising chunk N+1 does not decode chunk N again (about
 * 200 ms of ffmpeg, and a download from object storage). Keyed by store and key: chunk file names
 * carry their content hash. 32 tails of 20 s at
 * 8 kHz are 20 MB at most.
 */
const tailCache = new Map<string, ChunkTail>();
const TAIL_CACHE_SIZE = 32;

export function rememberTail(deps: AppDeps, chunk: ChunkRow, samples: Float32Array): ChunkTail {
  const length = Math.min(samples.length, TAIL_SECONDS * FINGERPRINT_SAMPLE_RATE);
  const tail = {
    samples: samples.slice(samples.length - length),
    chunkSeconds: samples.length / FINGERPRINT_SAMPLE_RATE,
  };
  // The newest entry last; the oldest dropped beyond TAIL_CACHE_SIZE.
  const key = tailKey(deps, chunk);
  tailCache.delete(key);
  tailCache.set(key, tail);
  while (tailCache.size > TAIL_CACHE_SIZE) tailCache.delete(tailCache.keys().next().value!);
  return tail;
}

/** Empties the tail cache (tests: forces the decode of the chunk before, as after a restart). */
export function forgetDecodedTails(): void {
  tailCache.clear();
}

/**
 * A stream's tracking after a chunk (the engine's TrackState: at most 8 hypotheses and the window
 * detections of their stretch, plain data of a few kB) as stored on the chunk's row
 * (`recording_chunks.tracking`), so that the next chunk goes on from it whichever process
 * recognises it, and after a restart. `format` names the engine and the state's shape: a state of
 * another is not read (the chunk then begins the tracking anew, as a stream's first chunk does).
 */
export interface StoredTracking {
  format: string;
  state: TrackState;
}

/**
 * The shape of TrackState (audio/fingerprint/tracking.ts) as stored: raise it when that shape or
 * its meaning changes (`recognition-tracking.int.test.ts` lists the fields it was written for).
 */
export const TRACK_STATE_FORMAT = 2;
const STORED_FORMAT = `track${TRACK_STATE_FORMAT}|${FINGERPRINT_VERSION}`;

export const storedTracking = (state: TrackState): StoredTracking => ({ format: STORED_FORMAT, state });

/** The state stored on a chunk's row, when it is of this engine and shape. */
export function trackingOf(chunk: ChunkRow): TrackState | null {
  const stored = chunk.tracking as StoredTracking | null;
  return stored?.format === STORED_FORMAT ? stored.state : null;
}

export async function tailOf(deps: AppDeps, chunk: ChunkRow): Promise<ChunkTail | null> {
  const cached = tailCache.get(tailKey(deps, chunk));
  if (cached) return cached;
  try {
    return rememberTail(deps, chunk, await decodeChunk(deps, chunk));
  } catch {
    return null; // its own job reports it as undecodable
  }
}

export const decodeReason = (error: unknown) =>
  error instanceof DecodeError
    ? error.message.replace(/^could not decode \S+: /, '')
    : (error as Error).message;

/** What one chunk's recognition found. */
export interface ChunkResult {
  chunk: ChunkRow;
  error: string | null;
  /** The stream's tracking after the chunk (null: not recognised). */
  tracking: TrackState | null;
}

/**
 * When the stream that `chunk` belongs to began: the recorded_at of the first of the chunks
 * before it that follow one another without a pause (within CONTINUITY_TOLERANCE_SECONDS). No
 * play heard in the chunk starts before it.
 */
export function streamStartOf(chunks: readonly ChunkRow[], chunk: ChunkRow): number {
  const byNumber = new Map(chunks.map((row) => [row.chunkNumber, row]));
  let first = chunk;
  for (;;) {
    const before = byNumber.get(first.chunkNumber - 1);
    if (!before) break;
    const beforeEndMs = before.recordedAt.getTime() + before.durationSeconds * 1000;
    if (Math.abs(first.recordedAt.getTime() - beforeEndMs) > CONTINUITY_TOLERANCE_SECONDS * 1000) break;
    first = before;
  }
  return first.recordedAt.getTime();
}

/**
 * How far the stream that `chunk` belongs to has been heard: the end of the last of the chunks
 * that follow one another without a pause from the stream's start, through `chunk`, and on, every
 * one of them in `heard` (chunks whose detections are in the timeline: recognised before, or in
 * this run). Undefined when a chunk before `chunk` in its stream is not heard yet (its plays are
 * not known, so no play may be taken on over it: mergeDetections' heardUntilMs).
 */
export function heardUntilOf(
  chunks: readonly ChunkRow[],
  chunk: ChunkRow,
  heard: ReadonlySet<number>,
): number | undefined {
  const byNumber = new Map(chunks.map((row) => [row.chunkNumber, row]));
  const endOf = (row: ChunkRow) => row.recordedAt.getTime() + row.durationSeconds * 1000;
  const follows = (before: ChunkRow, after: ChunkRow) =>
    Math.abs(after.recordedAt.getTime() - endOf(before)) <= CONTINUITY_TOLERANCE_SECONDS * 1000;
  for (let number = chunk.chunkNumber - 1; ; number--) {
    const before = byNumber.get(number);
    const after = byNumber.get(number + 1)!;
    if (!before || !follows(before, after)) break;
    if (!heard.has(number)) return undefined;
  }
  let last = chunk;
  for (;;) {
    const next = byNumber.get(last.chunkNumber + 1);
    if (!next || !heard.has(next.chunkNumber) || !follows(last, next)) break;
    last = next;
  }
  return endOf(last);
}

/**
 * Recognises one chunk (with the tail of the chunk before) into `timeline`; returns the merged
 * timeline and what happened to the chunk. `streamStartMs` (streamStartOf) bounds where a play
 * heard in it may start; `heardUntilMs` (heardUntilOf) is how far the stream has been heard.
 */
export async function recognizeChunk(
  deps: AppDeps,
  chunk: ChunkRow,
  previous: { chunk: ChunkRow; tail: ChunkTail | null; tracking: TrackState | null } | null,
  samples: Float32Array,
  timeline: Timeline,
  cloud: readonly CloudRecognizer[],
  streamStartMs: number = chunk.recordedAt.getTime(),
  heardUntilMs?: number,
): Promise<{ timeline: Timeline; error: string | null; tracking: TrackState }> {
  const rate = FINGERPRINT_SAMPLE_RATE;
  const chunkStartMs = chunk.recordedAt.getTime();
  const chunkSeconds = samples.length / rate;
  let tail: Float32Array = new Float32Array(0);
  const pieces: WindowPiece[] = [];
  if (previous?.tail && previous.tail.samples.length > 0) {
    const previousEndMs = previous.chunk.recordedAt.getTime() + previous.tail.chunkSeconds * 1000;
    if (Math.abs(chunkStartMs - previousEndMs) <= CONTINUITY_TOLERANCE_SECONDS * 1000) {
      tail = previous.tail.samples;
      pieces.push({
        startS: 0,
        endS: tail.length / rate,
        startAtMs: previousEndMs - (tail.length / rate) * 1000,
      });
    }
  }
  const tailSeconds = tail.length / rate;
  pieces.push({ startS: tailSeconds, endS: tailSeconds + chunkSeconds, startAtMs: chunkStartMs });
  const window = new Float32Array(tail.length + samples.length);
  window.set(tail, 0);
  window.set(samples, tail.length);

  // The stream's tracking goes on from the chunk before when this chunk continues it.
  const tracking = tail.length > 0 && previous ? previous.tracking : null;
  const found = await recognizeStream(deps.db, window, { tailSamples: tail.length, tracking });
  let merged = mergeRecognized(timeline.plays, found, pieces, { streamStartMs, heardUntilMs });
  let removedIds = [...timeline.removedIds, ...merged.removedIds];

  // Stretches of this chunk that nothing covers: the cloud providers' turn.
  const errors: string[] = [];
  if (cloud.length > 0) {
    const chunkEndMs = chunkStartMs + chunkSeconds * 1000;
    const stretches = uncoveredStretches(merged.plays, chunkStartMs, chunkEndMs, CLOUD_MIN_STRETCH_SECONDS);
    for (const [startMs, endMs] of stretches) {
      const from = ((startMs - chunkStartMs) / 1000) * rate;
      const to = ((endMs - chunkStartMs) / 1000) * rate;
      if (rms(samples, from, to) < SILENCE_RMS) continue;
      const middleS = (startMs + endMs) / 2 / 1000 - chunkStartMs / 1000;
      const clipStart = Math.max(0, middleS - CLOUD_CLIP_SECONDS / 2);
      let clip: Buffer;
      try {
        clip = await withChunkFile(deps, chunk, (file) =>
          cutClip(deps.config.ffmpegPath, file, clipStart, CLOUD_CLIP_SECONDS),
        );
      } catch (error) {
        errors.push((error as Error).message);
        continue;
      }
      const outcome = await identifyClip(cloud, clip);
      errors.push(...outcome.errors);
      if (!outcome.match) continue;
      // A song the library lacks: looked up in the metadata services in the background.
      const songId = await songForMatch(deps.db, outcome.match, (created) =>
        queueMetadataLookups(deps, [created]),
      );
      const next = mergeDetections(
        merged.plays,
        [{ songId, startMs, endMs, confidence: outcome.match.score, recognizer: outcome.match.provider }],
        { streamStartMs, heardUntilMs },
      );
      merged = next;
      removedIds = [...removedIds, ...next.removedIds];
    }
  }
  return {
    timeline: { plays: merged.plays, removedIds },
    error: errors.length > 0 ? [...new Set(errors)].join('; ') : null,
    tracking: found.tracking,
  };
}
