/**
 * Does a file hold the song a queue entry waits for? By its tags first (title and artist, as the
 * library compares them), and, where the song was heard in a room recording, by recognising that
 * stretch of the recording against the file alone: the fingerprint engine
 * (audio/fingerprint/index.ts) with an index of this one file, so a cover, a remix or another
 * song under the same tags is told apart from the version the room heard.
 */
import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { decodeAudio } from '../../audio/decode.js';
import {
  FINGERPRINT_SAMPLE_RATE,
  indexSignal,
  memorySource,
  reachesBound,
  recognizeStreamWith,
  type StreamRecognition,
} from '../../audio/fingerprint/index.js';
import { emptyIndex, mergeIndex } from '../../audio/fingerprint/memory-index.js';
import { plays, recordingChunks, recordings } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { songSearchKey } from '../../text.js';
import { decodeChunk } from '../recognition/recognition-chunk.js';

/**
 * Longest stretch recognised: two minutes. A play only tracking found (a song masked under the
 * room, heard window after window at 15-29) is heard once its tracked windows sum to 180
 * (heardConfidence): 45 s and more of its windows after a seed, which the stretch must hold. Of 24
 * plays of a song at -17 and -18 dB (scripts/bench/download-check.mjs: 4 rooms' noise, plays ending
 * at 120, 130, 140 s) its file was heard in 11 middle minutes before; now in 13 middle minutes, 20
 * middle 90 s, 23 middle two minutes, and no more in 150 s, where a file of another song of the
 * same game was heard once more (docs/performance.md, "A downloaded file heard by the recognition
 * that found its play"). 4-5 chunks of 30 s to decode.
 */
export const MAX_STRETCH_SECONDS = 120;
/** Shorter stretches hold too few windows for the engine to say anything (audio/fingerprint/README.md). */
export const MIN_STRETCH_SECONDS = 12;
/** Stretches tried per song: a second one speaks when the first one's chunk is gone. */
const STRETCHES_TRIED = 2;

/** Where a song was heard in a room recording (wall-clock times of its play). */
export interface RecordingStretch {
  recordingId: number;
  playId: number;
  startMs: number;
  endMs: number;
}

export const sameTags = (
  tags: { title: string | null; artist: string | null },
  song: { title: string; artist: string },
): boolean =>
  tags.title !== null &&
  tags.artist !== null &&
  songSearchKey(tags.title, tags.artist) === songSearchKey(song.title, song.artist);

/** The song's plays heard in recordings, longest first: the stretches that can prove a file. */
export async function recordingStretches(
  deps: Pick<AppDeps, 'db'>,
  songId: number,
  limit = STRETCHES_TRIED,
): Promise<RecordingStretch[]> {
  const rows = await deps.db
    .select({
      id: plays.id,
      recordingId: plays.recordingId,
      startedAt: plays.startedAt,
      endedAt: plays.endedAt,
    })
    .from(plays)
    .where(and(eq(plays.songId, songId), isNotNull(plays.recordingId), isNotNull(plays.endedAt)))
    .orderBy(desc(sql`${plays.endedAt} - ${plays.startedAt}`), desc(plays.confidence), asc(plays.id))
    .limit(limit);
  return rows
    .filter((row) => row.endedAt!.getTime() - row.startedAt.getTime() >= MIN_STRETCH_SECONDS * 1000)
    .map((row) => ({
      recordingId: row.recordingId!,
      playId: row.id,
      startMs: row.startedAt.getTime(),
      endMs: row.endedAt!.getTime(),
    }));
}

/**
 * The stretch's audio at the fingerprint rate: its middle MAX_STRETCH_SECONDS at most, cut from
 * the chunks that hold it; null when its chunks are gone or undecodable.
 */
export async function decodeStretch(deps: AppDeps, stretch: RecordingStretch): Promise<Float32Array | null> {
  const middle = (stretch.startMs + stretch.endMs) / 2;
  const half = Math.min(stretch.endMs - stretch.startMs, MAX_STRETCH_SECONDS * 1000) / 2;
  const fromMs = middle - half;
  const toMs = middle + half;
  const chunks = await deps.db
    .select()
    .from(recordingChunks)
    .where(eq(recordingChunks.recordingId, stretch.recordingId))
    .orderBy(asc(recordingChunks.chunkNumber));
  const rate = FINGERPRINT_SAMPLE_RATE;
  const parts: Float32Array[] = [];
  for (const chunk of chunks) {
    const chunkStart = chunk.recordedAt.getTime();
    const chunkEnd = chunkStart + chunk.durationSeconds * 1000;
    if (chunkEnd <= fromMs || chunkStart >= toMs) continue;
    let samples: Float32Array;
    try {
      samples = await decodeChunk(deps, chunk);
    } catch {
      return null;
    }
    const from = Math.max(0, Math.round(((fromMs - chunkStart) / 1000) * rate));
    const to = Math.min(samples.length, Math.round(((toMs - chunkStart) / 1000) * rate));
    if (to > from) parts.push(samples.subarray(from, to));
  }
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  if (total < MIN_STRETCH_SECONDS * rate) return null;
  const joined = new Float32Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** The file decoded at the fingerprint rate, indexed alone (about 10 MB of memory for 5 minutes). */
export interface FileIndex {
  durationS: number;
  heardIn(stretch: Float32Array): Promise<number | null>;
}

const ONLY_SONG = 1;

/**
 * What the check hears of the file (song ONLY_SONG) in a stretch recognised against it alone: the
 * confidence of its best play, null when none. A play of the stretch's windows as before; a play
 * its tracking told (a song the room was heard playing only through its tracked hypothesis) once
 * its evidence reaches TRACK_BOUND × TRACK_UNCONFIRMED_FACTOR (180: audio/fingerprint/tracking.ts),
 * confirmed or not. The library's 120 for a confirmed hypothesis rests on chance's hypotheses never
 * having a window at the threshold besides their seed over 11.01 h of music outside an index of
 * 1,000 songs (docs/performance.md, "Tracked plays confirmed by a window besides their seed"). One
 * song in the index gives chance fewer songs to propose, but a file is checked against music that
 * may share its composer and instruments, where chance's tracked windows score higher: over 2,194
 * pairs of one game's tracks (each file against the middle two minutes of another), a pair no
 * window heard reached 129.5 confirmed (freedroidrpg's NewTutorialStage as Bleostrada), and at
 * other stretch lengths 181-209.5 (warzone2100's tracks, which may share themes). The masked songs
 * the check must hear gather 200-415 (docs/performance.md, "A downloaded file heard by the
 * recognition that found its play").
 */
export function heardConfidence(found: Pick<StreamRecognition, 'plays' | 'tracked'>): number | null {
  const heard = [
    ...found.plays.filter((play) => play.songId === ONLY_SONG),
    ...found.tracked.filter(
      (play) => play.songId === ONLY_SONG && reachesBound({ evidence: play.evidence, confirmed: false }),
    ),
  ];
  return heard.length > 0 ? Math.max(...heard.map((play) => play.confidence)) : null;
}

/**
 * A signal at the fingerprint rate indexed alone as song ONLY_SONG, in memory: the source the
 * check recognises stretches against (`empty` when it has no hash to find).
 */
export function fileSource(samples: Float32Array): {
  source: ReturnType<typeof memorySource>;
  empty: boolean;
} {
  const { peaks, hashes } = indexSignal(samples);
  const index = mergeIndex(emptyIndex(), new Set(), [{ songId: ONLY_SONG, revision: 1, hashes }]);
  return { source: memorySource(index, new Map([[ONLY_SONG, peaks]])), empty: hashes.count === 0 };
}

/**
 * Indexes one file by itself; `heardIn` returns the engine's confidence, or null when not heard
 * (heardConfidence). The stretch is recognised as the server recognises a recording's chunk
 * (recognizeStreamWith, what recognizeStream runs on the library: recognition-chunk.ts), the
 * stretch one chunk that begins a stream, its tracking included. One signal, not cut again into
 * 30 s chunks with their tails (recognition-signal.ts's loop): its window plays are exactly those
 * the check gave before (recognizeWith's), and in docs/performance.md's measurement one signal
 * heard more (23 of 24 two-minute stretches, the chunk loop 20).
 */
export async function indexFile(file: string, ffmpegPath: string): Promise<FileIndex> {
  const samples = await decodeAudio(file, { sampleRate: FINGERPRINT_SAMPLE_RATE, ffmpegPath });
  const { source, empty } = fileSource(samples);
  return {
    durationS: samples.length / FINGERPRINT_SAMPLE_RATE,
    async heardIn(stretch) {
      if (empty) return null;
      return heardConfidence(await recognizeStreamWith(source, stretch, { tailSamples: 0, tracking: null }));
    },
  };
}

/** What the recording says about a file meant for a song. */
export type StretchVerdict =
  | { kind: 'heard'; stretch: RecordingStretch; confidence: number }
  | { kind: 'not_heard'; stretch: RecordingStretch }
  /** The song was never heard in a recording whose audio is still here: the tags decide. */
  | { kind: 'no_stretch' };

/** Recognises the song's recording stretches against the file (indexed once by the caller). */
export async function verifyByStretch(
  deps: AppDeps,
  songId: number,
  file: FileIndex,
): Promise<StretchVerdict> {
  let tried: RecordingStretch | null = null;
  for (const stretch of await recordingStretches(deps, songId)) {
    const audio = await decodeStretch(deps, stretch);
    if (!audio) continue;
    tried = stretch;
    const confidence = await file.heardIn(audio);
    if (confidence !== null) return { kind: 'heard', stretch, confidence };
  }
  return tried ? { kind: 'not_heard', stretch: tried } : { kind: 'no_stretch' };
}

/** "the recording of 21 Nov 2026 at 20:31" for messages. */
export async function describeStretch(deps: Pick<AppDeps, 'db'>, stretch: RecordingStretch): Promise<string> {
  const [row] = await deps.db
    .select({ filename: recordings.filename })
    .from(recordings)
    .where(eq(recordings.id, stretch.recordingId));
  const at = new Date(stretch.startMs).toISOString().slice(0, 16).replace('T', ' ');
  return `recording ${stretch.recordingId}${row ? ` (${row.filename})` : ''} at ${at} UTC`;
}
