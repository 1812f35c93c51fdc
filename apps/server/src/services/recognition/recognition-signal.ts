/**
 * Audio recognised as the server recognises a recording's chunks (recognition-chunk.ts): each
 * chunk with the last TAIL_SECONDS of the one before, the stream's tracking carried from chunk to
 * chunk, and each chunk's plays merged into the timeline (mergeRecognized) as they arrive. A long
 * signal is cut into chunks of about SIGNAL_CHUNK_SECONDS, the recorders' length. `wcs recognize` and the
 * DJ import's listening (interop/fingerprint-match.ts) so find the plays the server would, a song
 * heard only through its tracked hypothesis included; no cloud recogniser is asked. Memory is one
 * chunk's recognition and the timeline, whatever the length of the audio.
 */
import {
  FINGERPRINT_SAMPLE_RATE,
  type RecognitionOptions,
  recognizeStream,
  type TrackState,
} from '../../audio/fingerprint/index.js';
import type { Db } from '../../db/client.js';
import { TAIL_SECONDS } from './recognition-chunk.js';
import { mergeRecognized, type PlaySpan } from './recognition-timeline.js';

/** The chunk length the web recorder and `wcs record` upload by default. */
export const SIGNAL_CHUNK_SECONDS = 30;

/** A song heard, in seconds from the first sample of the audio. */
export interface SignalPlay {
  songId: number;
  startS: number;
  endS: number;
  /** 0-1: its best window's, or its tracked evidence's best window's. */
  confidence: number;
}

/**
 * `samples` cut into chunks of about SIGNAL_CHUNK_SECONDS, of equal lengths (views of it, not
 * copies): a recorder's chunk (30 s and a few ms of codec padding) stays one chunk.
 */
export function chunksOf(samples: Float32Array): Float32Array[] {
  const count = Math.max(1, Math.round(samples.length / (SIGNAL_CHUNK_SECONDS * FINGERPRINT_SAMPLE_RATE)));
  return Array.from({ length: count }, (_, k) =>
    samples.subarray(
      Math.round((k * samples.length) / count),
      Math.round(((k + 1) * samples.length) / count),
    ),
  );
}

/**
 * The plays of the library's songs in consecutive chunks of one stream (mono,
 * FINGERPRINT_SAMPLE_RATE; `chunks` may decode each as it is asked for), in start order.
 * `minConfidence` (default 0.5, the server's) trades misses for false recognitions.
 */
export async function recognizeChunks(
  db: Db,
  chunks: Iterable<Float32Array> | AsyncIterable<Float32Array>,
  options: Pick<RecognitionOptions, 'minConfidence'> = {},
): Promise<SignalPlay[]> {
  const rate = FINGERPRINT_SAMPLE_RATE;
  let plays: PlaySpan[] = [];
  let tracking: TrackState | null = null;
  let tail = new Float32Array(0);
  // Where the chunk begins, in samples from the stream's start.
  let at = 0;
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    const signal = new Float32Array(tail.length + chunk.length);
    signal.set(tail, 0);
    signal.set(chunk, tail.length);
    const found = await recognizeStream(db, signal, { tailSamples: tail.length, tracking }, options);
    tracking = found.tracking;
    const startAtMs = ((at - tail.length) / rate) * 1000;
    at += chunk.length;
    const pieces = [{ startS: 0, endS: signal.length / rate, startAtMs }];
    // One stream from the first sample, heard to this chunk's end (recognition-chunk.ts's terms).
    plays = mergeRecognized(plays, found, pieces, {
      streamStartMs: 0,
      heardUntilMs: (at / rate) * 1000,
    }).plays;
    // The chunk's own last seconds, as the server keeps them (rememberTail).
    tail = chunk.slice(Math.max(0, chunk.length - TAIL_SECONDS * rate));
  }
  return plays
    .sort((a, b) => a.startMs - b.startMs || a.songId - b.songId)
    .map((play) => ({
      songId: play.songId,
      startS: play.startMs / 1000,
      endS: play.endMs / 1000,
      confidence: play.confidence ?? 0,
    }));
}

/** recognizeChunks on one signal, cut about as a recorder cuts it (chunksOf). */
export function recognizeSignal(
  db: Db,
  samples: Float32Array,
  options: Pick<RecognitionOptions, 'minConfidence'> = {},
): Promise<SignalPlay[]> {
  return recognizeChunks(db, chunksOf(samples), options);
}
