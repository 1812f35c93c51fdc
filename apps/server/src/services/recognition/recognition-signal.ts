/**
 * Audio recognised as the server recognises a recording's chunks (recognition-chunk.ts): each
 * chunk with the last TAIL_SECONDS of the one before, the stream's tracking carried from chunk to
 * chunk, and each chunk's plays merged into the timeline (mergeRecognized) as they arrive. A long
 * signal is cut into chunks of SIGNAL_CHUNK_SECONDS, the recorders' length. `wcs recognize` and the
 * DJ import's listening (interop/fingerprint-match.ts) so find the plays the server would, a song
 * heard only through its tracked hypothesis included; no cloud recogniser is asked. Memory is one
 * chunk's recognition, a stretch of the file being decoded and the timeline, whatever the length
 * of the audio.
 */
import { decodeAudio } from '../../audio/decode.js';
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
 * Consecutive pieces of one signal cut into chunks of SIGNAL_CHUNK_SECONDS, the last of 15-45 s
 * (a recorder's chunk, 30 s and a few ms of codec padding, stays one chunk); only a chunk and a
 * half and the piece being cut are held.
 */
export async function* chunksOf(
  pieces: Iterable<Float32Array> | AsyncIterable<Float32Array>,
): AsyncGenerator<Float32Array> {
  const length = SIGNAL_CHUNK_SECONDS * FINGERPRINT_SAMPLE_RATE;
  let pending = new Float32Array(0);
  for await (const piece of pieces) {
    const joined = new Float32Array(pending.length + piece.length);
    joined.set(pending, 0);
    joined.set(piece, pending.length);
    pending = joined;
    while (pending.length >= 1.5 * length) {
      yield pending.subarray(0, length);
      pending = pending.subarray(length);
    }
  }
  if (pending.length > 0) yield pending;
}

/** Seconds of a file decoded at once (ffmpeg seeks to each stretch: the same samples, in step). */
const DECODE_SECONDS = 600;

/**
 * The chunks of audio files heard one after the other as one stream (`wcs recognize --session`),
 * each file cut by chunksOf and decoded DECODE_SECONDS at a time when its chunks are asked for: a
 * recording of hours is never held whole. An undecodable file throws DecodeError.
 */
export async function* fileChunks(
  files: readonly string[],
  ffmpegPath: string,
): AsyncGenerator<Float32Array> {
  const rate = FINGERPRINT_SAMPLE_RATE;
  async function* pieces(file: string) {
    for (let startSeconds = 0; ; startSeconds += DECODE_SECONDS) {
      const piece = await decodeAudio(file, {
        sampleRate: rate,
        ffmpegPath,
        startSeconds,
        durationSeconds: DECODE_SECONDS,
      });
      yield piece;
      // (a second short of the stretch: the resampler may round its length)
      if (piece.length < (DECODE_SECONDS - 1) * rate) return;
    }
  }
  for (const file of files) yield* chunksOf(pieces(file));
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

/** recognizeChunks on one signal, cut as a recorder cuts it (chunksOf). */
export function recognizeSignal(
  db: Db,
  samples: Float32Array,
  options: Pick<RecognitionOptions, 'minConfidence'> = {},
): Promise<SignalPlay[]> {
  return recognizeChunks(db, chunksOf([samples]), options);
}
