import { DecodeError, decodeAudio } from '../../audio/decode.js';
import { FINGERPRINT_SAMPLE_RATE } from '../../audio/fingerprint/index.js';
import type { Db } from '../../db/client.js';
import { recognizeSignal } from '../recognition/recognition-signal.js';

/**
 * The fourth matching rule of a DJ import (docs/interop.md, "Matching"): a track whose file is
 * reachable on this server, inside the library roots, but whose path, content and name found no
 * song, is listened to. A stretch of the file is recognised against the library's index, as a room
 * recording is (recognition/recognition-signal.ts: the server's chunks and tracking): the same
 * recording in another encoding (the DJ's MP3 of the library's FLAC), or under another name, finds
 * its song.
 */

/** Files listened to per import at most; the rest are reported (each costs a decode, ~0.2-0.5 s). */
export const FINGERPRINT_MATCH_LIMIT = 200;
/** Where the stretch starts (past an intro of silence or count-in) and how long it is. */
export const FINGERPRINT_CLIP_START_SECONDS = 30;
export const FINGERPRINT_CLIP_SECONDS = 30;
/** A stretch shorter than this (a file of under 20 s) is too short to be recognised reliably. */
const MIN_CLIP_SECONDS = 10;

export type FingerprintOutcome =
  | { kind: 'found'; songId: number }
  | { kind: 'not_found' }
  | { kind: 'undecodable'; reason: string };

export type FileIdentifier = (realPath: string) => Promise<FingerprintOutcome>;

/**
 * Recognises a stretch of a file against the library's index (read through `db`, which must be
 * the database itself, not a transaction: the index is shared by the process). The song heard
 * longest in the stretch wins, then the most confident; nothing heard is `not_found`.
 */
export function libraryFileIdentifier(db: Db, ffmpegPath: string): FileIdentifier {
  return async (realPath) => {
    try {
      const decode = (startSeconds: number) =>
        decodeAudio(realPath, {
          sampleRate: FINGERPRINT_SAMPLE_RATE,
          ffmpegPath,
          startSeconds,
          durationSeconds: FINGERPRINT_CLIP_SECONDS,
        });
      let samples = await decode(FINGERPRINT_CLIP_START_SECONDS);
      // A short file: its stretch is its beginning.
      if (samples.length < MIN_CLIP_SECONDS * FINGERPRINT_SAMPLE_RATE) samples = await decode(0);
      if (samples.length < MIN_CLIP_SECONDS * FINGERPRINT_SAMPLE_RATE) return { kind: 'not_found' };
      const plays = await recognizeSignal(db, samples);
      const best = bestPlay(plays);
      return best === null ? { kind: 'not_found' } : { kind: 'found', songId: best };
    } catch (error) {
      if (error instanceof DecodeError) return { kind: 'undecodable', reason: error.reason };
      throw error;
    }
  };
}

/** The song heard longest (then most confidently) among a stretch's plays; null when none. */
export function bestPlay(
  plays: readonly { songId: number; startS: number; endS: number; confidence: number }[],
): number | null {
  const heard = new Map<number, { seconds: number; confidence: number }>();
  for (const play of plays) {
    const entry = heard.get(play.songId) ?? { seconds: 0, confidence: 0 };
    entry.seconds += play.endS - play.startS;
    entry.confidence = Math.max(entry.confidence, play.confidence);
    heard.set(play.songId, entry);
  }
  let best: number | null = null;
  let bestEntry: { seconds: number; confidence: number } | null = null;
  for (const [songId, entry] of heard) {
    if (
      !bestEntry ||
      entry.seconds > bestEntry.seconds ||
      (entry.seconds === bestEntry.seconds && entry.confidence > bestEntry.confidence)
    ) {
      best = songId;
      bestEntry = entry;
    }
  }
  return best;
}
