/**
 * The pure part of turning recognised audio into a recording's timeline of plays, kept apart from
 * the database so its rules are tested directly:
 *
 * - a decoded window (the tail of the chunk before + the chunk) maps to wall-clock time piece by
 *   piece, each piece from its own chunk's recorded_at;
 * - detections merge into the plays already known: the same song heard again within
 *   MERGE_GAP_SECONDS of one of its plays extends that play (start = min, end = max, confidence =
 *   max), and a detection that bridges two plays of the same song joins them into one. Anything
 *   else is a new play. Merging a detection twice changes nothing, which makes processing a chunk
 *   again harmless;
 * - the stretches of a chunk that no play covers are what a cloud recogniser may be asked about.
 */

/**
 * Two detections of one song less than this apart are one play (a chunk boundary, a quiet bar, a
 * stretch masked by the crowd). As long as the engine's own chain gap (matcher.ts,
 * MERGE_GAP_FRAMES: 45 s), so a play the engine would keep whole in one signal is not split
 * because its pieces fell into different chunks (docs/performance.md, "Recognition in rooms and
 * nights": 20 s split 8 songs of the held-out nights by gaps of 20-60 s).
 */
export const MERGE_GAP_SECONDS = 45;

/** Confidence of a score 1.5 times the engine's threshold (1 - 0.5^1.5). */
export const WEAK_CONFIDENCE = 0.64;

/** A piece of a decoded window: seconds [startS, endS) of the window begin at `startAtMs`. */
export interface WindowPiece {
  startS: number;
  endS: number;
  startAtMs: number;
}

/** Wall-clock milliseconds of a time in the window (seconds from its first sample). */
export function windowTimeToMs(pieces: readonly WindowPiece[], t: number): number {
  if (pieces.length === 0) throw new Error('a window needs at least one piece');
  let piece = pieces[0]!;
  for (const candidate of pieces) {
    if (t >= candidate.startS) piece = candidate;
  }
  return piece.startAtMs + (t - piece.startS) * 1000;
}

export type Recognizer = 'library' | 'acrcloud' | 'audd';

/** A song heard over a stretch of wall-clock time. */
export interface Detection {
  songId: number;
  startMs: number;
  endMs: number;
  confidence: number | null;
  recognizer: Recognizer;
}

/** A play of the recording being built: stored already (`id`) or new. */
export interface PlaySpan extends Detection {
  id: number | null;
  /** Stored, and its times or confidence changed in this run. */
  changed: boolean;
}

export interface MergeResult {
  plays: PlaySpan[];
  /** Stored plays absorbed into another one (a detection bridged them). */
  removedIds: number[];
}

const maxConfidence = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.max(a, b);

/** Merges detections into plays (see the file comment); the input list is not modified. */
export function mergeDetections(
  existing: readonly PlaySpan[],
  detections: readonly Detection[],
  gapSeconds = MERGE_GAP_SECONDS,
): MergeResult {
  const gapMs = gapSeconds * 1000;
  let plays = existing.map((play) => ({ ...play }));
  const removedIds: number[] = [];
  for (const detection of detections) {
    const touching = plays.filter(
      (play) =>
        play.songId === detection.songId &&
        detection.startMs <= play.endMs + gapMs &&
        detection.endMs >= play.startMs - gapMs,
    );
    if (touching.length === 0) {
      plays.push({ ...detection, id: null, changed: false });
      continue;
    }
    // A weak piece after a gap beside a play of its song (one window barely over the threshold,
    // in another chunk) is more likely chance than the song going on: it does not stretch it.
    const overlaps = touching.some(
      (play) => detection.startMs <= play.endMs && detection.endMs >= play.startMs,
    );
    if (!overlaps && detection.confidence !== null && detection.confidence < WEAK_CONFIDENCE) continue;
    // Keep a stored play when there is one (its id, and what was announced live, stay valid).
    touching.sort((a, b) => (a.id === null ? 1 : 0) - (b.id === null ? 1 : 0) || a.startMs - b.startMs);
    const target = touching[0]!;
    const startMs = Math.min(detection.startMs, ...touching.map((play) => play.startMs));
    const endMs = Math.max(detection.endMs, ...touching.map((play) => play.endMs));
    let confidence = detection.confidence;
    for (const play of touching) confidence = maxConfidence(confidence, play.confidence);
    if (startMs !== target.startMs || endMs !== target.endMs || confidence !== target.confidence) {
      target.startMs = startMs;
      target.endMs = endMs;
      target.confidence = confidence;
      if (target.id !== null) target.changed = true;
    }
    const absorbed = new Set(touching.slice(1));
    for (const play of absorbed) if (play.id !== null) removedIds.push(play.id);
    plays = plays.filter((play) => !absorbed.has(play));
  }
  return { plays, removedIds };
}

/**
 * The stretches of [fromMs, toMs) that no play covers and that last at least `minSeconds`, in
 * order; each as [startMs, endMs).
 */
export function uncoveredStretches(
  plays: readonly { startMs: number; endMs: number }[],
  fromMs: number,
  toMs: number,
  minSeconds: number,
): [number, number][] {
  const covered = plays
    .filter((play) => play.endMs > fromMs && play.startMs < toMs)
    .map((play) => [Math.max(fromMs, play.startMs), Math.min(toMs, play.endMs)] as const)
    .sort((a, b) => a[0] - b[0]);
  const stretches: [number, number][] = [];
  let cursor = fromMs;
  for (const [start, end] of covered) {
    if (start > cursor) stretches.push([cursor, start]);
    cursor = Math.max(cursor, end);
  }
  if (toMs > cursor) stretches.push([cursor, toMs]);
  return stretches.filter(([start, end]) => end - start >= minSeconds * 1000);
}
