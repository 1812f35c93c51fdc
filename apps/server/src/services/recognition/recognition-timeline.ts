/**
 * The pure part of turning recognised audio into a recording's timeline of plays, kept apart from
 * the database so its rules are tested directly:
 *
 * - a decoded window (the tail of the chunk before + the chunk) maps to wall-clock time piece by
 *   piece, each piece from its own chunk's recorded_at;
 * - detections merge into the plays already known: the same song heard again within
 *   MERGE_GAP_SECONDS of one of its plays, or later at the position the play had reached by then
 *   (the song went on, unheard between, whatever the gap), extends that play (start = min,
 *   end = max, confidence = max), and a detection that bridges two plays of the same song joins
 *   them into one. A song heard again from its beginning after its play ended is played again: a
 *   new play. Anything else is a new play. Merging a detection twice changes nothing, which makes
 *   processing a chunk again harmless;
 * - a library play starts where its song began as heard (the song's position taken back at its
 *   tempo), not at its first window: its first seconds may have been masked by the crowd, or lie
 *   in chunks heard before. That start is bounded by the stream's start and by the end of the play
 *   before it, less a crossfade; when at most FILL_SECONDS of nothing lie before the next play, it
 *   ends where its song ends as heard (its start as heard + its length at the tempo heard) or a
 *   crossfade into the next play, whichever comes first (where the next play starts when the
 *   song's end is unknown); when more than that follows, it ends where its song ends if that lies
 *   10-60 s after it was last heard, the stream has been heard past it and the song did not come
 *   through so clearly that its silence means it stopped (REACH_SECONDS, REACH_MAX_CONFIDENCE);
 * - the stretches of a chunk that no play covers are what a cloud recogniser may be asked about.
 */
import type { TimelinePlay } from '../../audio/fingerprint/index.js';

/**
 * Two detections of one song less than this apart are one play (a chunk boundary, a quiet bar, a
 * stretch masked by the crowd). As long as the engine's own chain gap (matcher.ts,
 * MERGE_GAP_FRAMES: 45 s), so a play the engine would keep whole in one signal is not split
 * because its pieces fell into different chunks (docs/performance.md, "Recognition in rooms and
 * nights": 20 s split 8 songs of the held-out nights by gaps of 20-60 s).
 */
export const MERGE_GAP_SECONDS = 45;

/**
 * How far the song's start as heard by two detections of one continuous play may differ: a
 * second, and the tempo's error (the warps' steps, docs: fingerprint README step 3) over the
 * position the start is taken back from.
 */
export const CONTINUITY_SECONDS = 1;
export const CONTINUITY_PER_SECOND = 0.02;

/** How much a play may overlap the play before it at its start (a DJ's crossfade). */
export const CROSSFADE_SECONDS = 10;

/**
 * A library play whose song is last heard at most this long before the next play starts, with
 * nothing heard between, ends where that play starts: its last seconds were masked, or too quiet
 * under the crowd (a fade-out), and no song fits in so short a stretch.
 */
export const FILL_SECONDS = 60;

/**
 * A library play followed by more than FILL_SECONDS of nothing, whose song's end as heard lies more
 * than REACH_MIN_SECONDS and at most REACH_SECONDS after where it was last heard, ends at its
 * song's end: its last bars were masked or faded under the crowd, as a fill's are, but the next
 * thing played is nothing the library knows (docs/performance.md, "A play's end across a longer
 * gap": chosen on the tuning nights). A play heard to within REACH_MIN_SECONDS of its end ended
 * there (the DJ faded it out); one last heard more than REACH_SECONDS before its end was more
 * likely cut short by the DJ, and where is not known. The stream must have been heard
 * REACH_HEARD_SECONDS past that end first (the chunks are recognised with 20 s of the one before):
 * no play found later can then start before it, less a crossfade.
 */
export const REACH_SECONDS = 60;
export const REACH_MIN_SECONDS = 10;
export const REACH_HEARD_SECONDS = 30;
/**
 * Nor is a play taken on whose confidence reaches this (its best window, or its evidence over a
 * chunk, four times the window threshold: 1 - 0.5^4): a song that came through that clearly would
 * not go unheard for 10 s and more while it played, so its silence means it stopped (a DJ's cut
 * before a song outside the library).
 */
export const REACH_MAX_CONFIDENCE = 0.9375;

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
  /**
   * The library's detections: when the song's own start (its position 0) was, as heard (the
   * engine's songStartS); at or before startMs for a song played from its beginning.
   */
  songStartMs?: number | null;
  /**
   * The library's plays: when the song's own end (its last indexed second) comes, as heard: its
   * start as heard and its length at the tempo heard (TimelinePlay's songStartS, songSeconds and
   * tempo). Null when unknown.
   */
  songEndMs?: number | null;
}

/** The engine's plays of a decoded window (its `pieces`) as library detections in wall-clock time. */
export function libraryDetections(
  found: readonly TimelinePlay[],
  pieces: readonly WindowPiece[],
): Detection[] {
  return found.map((play) => ({
    songId: play.songId,
    startMs: Math.round(windowTimeToMs(pieces, play.startS)),
    endMs: Math.round(windowTimeToMs(pieces, Math.max(play.startS, play.endS))),
    confidence: Math.min(1, Math.max(0, play.confidence)),
    recognizer: 'library',
    songStartMs: Math.round(windowTimeToMs(pieces, play.songStartS)),
    songEndMs:
      play.songSeconds != null && play.songSeconds > 0 && play.tempo > 0
        ? Math.round(windowTimeToMs(pieces, play.songStartS + play.songSeconds / play.tempo))
        : null,
  }));
}

/**
 * The plays the engine's tracking told (recognizeStream's `tracked`, in the window's seconds) as
 * library detections, merged after the chunk's own: a song the timeline has a play of already,
 * overlapping or within MERGE_GAP_SECONDS, keeps the start that play tells (the chunks' windows
 * placed it; a tracked play's start comes from one window, docs/performance.md,
 * "Track-before-detect").
 */
export function trackedDetections(
  plays: readonly Pick<Detection, 'songId' | 'startMs' | 'endMs'>[],
  tracked: readonly TimelinePlay[],
  pieces: readonly WindowPiece[],
): Detection[] {
  return libraryDetections(tracked, pieces).map((detection) =>
    plays.some(
      (play) =>
        play.songId === detection.songId &&
        play.startMs <= detection.endMs &&
        play.endMs >= detection.startMs - MERGE_GAP_SECONDS * 1000,
    )
      ? { ...detection, songStartMs: null }
      : detection,
  );
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

export interface MergeOptions {
  /** MERGE_GAP_SECONDS unless given (the benchmarks' sweeps). */
  gapSeconds?: number;
  /** The start of the stream the detections were heard in: no play starts before it. */
  streamStartMs?: number;
  /** Whether a library play starts where its song began as heard (true). */
  songStarts?: boolean;
  /** Whether a detection later at the position a play had reached by then joins it (true). */
  continuity?: boolean;
  crossfadeSeconds?: number;
  /** FILL_SECONDS unless given (0: a play ends where its song was last heard). */
  fillSeconds?: number;
  /**
   * Whether a library play whose song's end is known fills towards that end rather than to the
   * next play's start: no further than its song lasts, and into the next play by a crossfade at
   * most (true).
   */
  songEnds?: boolean;
  /**
   * Where the stream has been heard to (the end of the last chunk recognised with every chunk of
   * the stream before it): a play followed by more than the fill's gap of nothing is taken on to
   * its song's end only once the stream has been heard past it (REACH_SECONDS). Unknown: no such
   * play is taken on.
   */
  heardUntilMs?: number;
  /** REACH_SECONDS unless given (0: no play is taken on across a longer gap). */
  reachSeconds?: number;
  /** REACH_MIN_SECONDS unless given. */
  reachMinSeconds?: number;
  /** REACH_MAX_CONFIDENCE unless given. */
  reachMaxConfidence?: number;
}

/** Seconds of the song already played when a detection was first heard (0 when unknown). */
const positionS = (detection: Detection) =>
  detection.songStartMs == null ? 0 : Math.max(0, (detection.startMs - detection.songStartMs) / 1000);

/**
 * Whether `detection` hears `play`'s song where that play had got to by then: its song began no
 * later than the play did (within CONTINUITY_SECONDS and the tempo's error), and it is heard
 * after the play started. A play's start is at or after where its song began, whatever bounded
 * it, so this holds for every later stretch of one continuous play, and for no replay.
 */
const continues = (play: PlaySpan, detection: Detection) =>
  detection.songStartMs != null &&
  detection.startMs >= play.startMs &&
  detection.songStartMs <=
    play.startMs + 1000 * (CONTINUITY_SECONDS + CONTINUITY_PER_SECOND * positionS(detection));

/**
 * Whether `detection` hears `play`'s song played again: from its first seconds (within a
 * crossfade of its beginning), and its song began after the play was last heard. A detection
 * heard before the song's start it tells (more than CONTINUITY_SECONDS) heard a loop at another
 * of its repeats, not a beginning: no replay.
 */
const replays = (play: PlaySpan, detection: Detection, crossfadeMs: number) =>
  detection.songStartMs != null &&
  detection.songStartMs >= play.endMs &&
  detection.startMs >= detection.songStartMs - CONTINUITY_SECONDS * 1000 &&
  detection.startMs - detection.songStartMs <= crossfadeMs;

/** Merges detections into plays (see the file comment); the input list is not modified. */
export function mergeDetections(
  existing: readonly PlaySpan[],
  detections: readonly Detection[],
  {
    gapSeconds = MERGE_GAP_SECONDS,
    streamStartMs = Number.NEGATIVE_INFINITY,
    songStarts = true,
    continuity = true,
    crossfadeSeconds = CROSSFADE_SECONDS,
    fillSeconds = FILL_SECONDS,
    songEnds = true,
    heardUntilMs,
    reachSeconds = REACH_SECONDS,
    reachMinSeconds = REACH_MIN_SECONDS,
    reachMaxConfidence = REACH_MAX_CONFIDENCE,
  }: MergeOptions = {},
): MergeResult {
  const gapMs = gapSeconds * 1000;
  const crossfadeMs = crossfadeSeconds * 1000;
  let plays = existing.map((play) => ({ ...play }));
  const removedIds: number[] = [];
  for (const detection of detections) {
    // A play of another song heard wholly between a play and the detection: the song did not
    // go on unheard there, whatever its position says.
    const between = (play: PlaySpan) =>
      plays.some(
        (other) =>
          other.songId !== play.songId && other.startMs >= play.endMs && other.endMs <= detection.startMs,
      );
    const touching = plays.filter(
      (play) =>
        play.songId === detection.songId &&
        ((detection.startMs <= play.endMs + gapMs &&
          detection.endMs >= play.startMs - gapMs &&
          !replays(play, detection, crossfadeMs)) ||
          (continuity && continues(play, detection) && !between(play))),
    );
    // Where the song began, as heard: bounded by the stream's start and the end of the play
    // before it (less a crossfade), and never after the detection itself.
    let startMs = detection.startMs;
    if (songStarts && detection.songStartMs != null && detection.songStartMs < detection.startMs) {
      let bound = streamStartMs;
      for (const play of plays) {
        if (!touching.includes(play) && play.startMs < detection.startMs)
          bound = Math.max(bound, play.endMs - crossfadeMs);
      }
      startMs = Math.min(detection.startMs, Math.max(detection.songStartMs, bound));
    }
    if (touching.length === 0) {
      const { songStartMs: _, ...span } = detection;
      plays.push({ ...span, startMs, id: null, changed: false });
      continue;
    }
    // A weak piece after a gap beside a play of its song (one window barely over the threshold,
    // in another chunk) is more likely chance than the song going on: it does not stretch it,
    // unless it hears the song where the play had got to.
    const overlaps = touching.some(
      (play) => detection.startMs <= play.endMs && detection.endMs >= play.startMs,
    );
    const weak = detection.confidence !== null && detection.confidence < WEAK_CONFIDENCE;
    if (
      !overlaps &&
      weak &&
      !(continuity && touching.some((play) => continues(play, detection) && !between(play)))
    )
      continue;
    // Keep a stored play when there is one (its id, and what was announced live, stay valid).
    touching.sort((a, b) => (a.id === null ? 1 : 0) - (b.id === null ? 1 : 0) || a.startMs - b.startMs);
    const target = touching[0]!;
    startMs = Math.min(startMs, ...touching.map((play) => play.startMs));
    const endMs = Math.max(detection.endMs, ...touching.map((play) => play.endMs));
    let confidence = detection.confidence;
    for (const play of touching) confidence = maxConfidence(confidence, play.confidence);
    // Where its song ends: the latest any of its detections tells (a window that heard a loop at
    // a later repeat tells too early an end).
    let songEndMs = detection.songEndMs ?? null;
    for (const play of touching)
      if (play.songEndMs != null) songEndMs = Math.max(songEndMs ?? play.songEndMs, play.songEndMs);
    if (
      startMs !== target.startMs ||
      endMs !== target.endMs ||
      confidence !== target.confidence ||
      (songEndMs !== null && songEndMs !== target.songEndMs)
    ) {
      target.startMs = startMs;
      target.endMs = endMs;
      target.confidence = confidence;
      if (songEndMs !== null) target.songEndMs = songEndMs;
      if (target.id !== null) target.changed = true;
    }
    const absorbed = new Set(touching.slice(1));
    for (const play of absorbed) if (play.id !== null) removedIds.push(play.id);
    plays = plays.filter((play) => !absorbed.has(play));
  }
  if (fillSeconds > 0)
    fillGaps(plays, fillSeconds * 1000, songEnds ? crossfadeMs : null, {
      heardUntilMs: heardUntilMs ?? Number.NEGATIVE_INFINITY,
      reachMs: songEnds ? reachSeconds * 1000 : 0,
      reachMinMs: reachMinSeconds * 1000,
      maxConfidence: reachMaxConfidence,
    });
  return { plays, removedIds };
}

/**
 * One decoded window's recognition (the engine's recognizeStream: its plays, and those its
 * tracking told) merged into the timeline's plays, mapped to wall-clock time by the window's
 * `pieces`: the window's own plays first, then the tracked ones (trackedDetections). What the
 * server does with each chunk (recognition-chunk.ts) and `wcs recognize` and the DJ import with a
 * whole signal (recognition-signal.ts).
 */
export function mergeRecognized(
  existing: readonly PlaySpan[],
  found: { plays: readonly TimelinePlay[]; tracked: readonly TimelinePlay[] },
  pieces: readonly WindowPiece[],
  options: MergeOptions = {},
): MergeResult {
  const own = mergeDetections(existing, libraryDetections(found.plays, pieces), options);
  // Songs the window's own plays did not make plays of, found by tracking them (after them).
  if (found.tracked.length === 0) return own;
  const tracked = mergeDetections(own.plays, trackedDetections(own.plays, found.tracked, pieces), options);
  return { plays: tracked.plays, removedIds: [...own.removedIds, ...tracked.removedIds] };
}

/**
 * Ends each library play where the next play starts when that is at most `fillMs` after the
 * play's end and no other play is heard between (FILL_SECONDS). With `crossfadeMs` (not null), a
 * play whose song's end is known (songEndMs) ends there instead when that comes first, and else
 * runs into the next play by the crossfade: a song ends where it ends, however soon the next one
 * is heard, and its last seconds fade out under the next one's first. When more than `fillMs` of
 * nothing follow (or nothing yet), a play under `maxConfidence` whose song ends more than
 * `reachMinMs` and at most `reachMs` after it ends there, once the stream has been heard past it
 * (REACH_SECONDS, REACH_MAX_CONFIDENCE).
 */
function fillGaps(
  plays: PlaySpan[],
  fillMs: number,
  crossfadeMs: number | null,
  reach: { heardUntilMs: number; reachMs: number; reachMinMs: number; maxConfidence: number },
): void {
  for (const play of plays) {
    if (play.recognizer !== 'library') continue;
    let nextStartMs = Number.POSITIVE_INFINITY;
    let covered = false;
    for (const other of plays) {
      if (other === play) continue;
      if (other.startMs >= play.endMs) nextStartMs = Math.min(nextStartMs, other.startMs);
      else if (other.endMs > play.endMs) covered = true;
    }
    if (covered) continue;
    let endMs: number;
    if (nextStartMs - play.endMs <= fillMs) {
      endMs =
        crossfadeMs !== null && play.songEndMs != null
          ? Math.min(play.songEndMs, nextStartMs + crossfadeMs)
          : nextStartMs;
    } else {
      if (crossfadeMs === null || play.songEndMs == null) continue;
      if (play.confidence !== null && play.confidence >= reach.maxConfidence) continue;
      const unheardMs = play.songEndMs - play.endMs;
      if (unheardMs <= reach.reachMinMs || unheardMs > reach.reachMs) continue;
      endMs = Math.min(play.songEndMs, nextStartMs + crossfadeMs);
      if (reach.heardUntilMs < endMs + REACH_HEARD_SECONDS * 1000) continue;
    }
    if (endMs <= play.endMs) continue;
    play.endMs = endMs;
    if (play.id !== null) play.changed = true;
  }
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
