/** The timeline rules: window times, merging detections into plays, uncovered stretches. */
import { describe, expect, it } from 'vitest';
import {
  type Detection,
  libraryDetections,
  mergeDetections,
  type PlaySpan,
  trackedDetections,
  uncoveredStretches,
  windowTimeToMs,
} from './recognition-timeline.js';

const s = (seconds: number) => seconds * 1000;
/** The rules other than the end's: no gap filled (see 'where a play ends'). */
const noFill = { fillSeconds: 0 };
const detection = (songId: number, start: number, end: number, confidence = 0.5): Detection => ({
  songId,
  startMs: s(start),
  endMs: s(end),
  confidence,
  recognizer: 'library',
});
/** A library detection that hears its song as begun at `songStart`. */
const heard = (
  songId: number,
  start: number,
  end: number,
  songStart: number,
  confidence = 0.8,
): Detection => ({
  ...detection(songId, start, end, confidence),
  songStartMs: s(songStart),
});
const spans = (plays: readonly PlaySpan[]) =>
  plays.map((play) => [play.id, play.songId, play.startMs / 1000, play.endMs / 1000]);
const stored = (id: number, songId: number, start: number, end: number, confidence = 0.5): PlaySpan => ({
  ...detection(songId, start, end, confidence),
  id,
  changed: false,
});

describe('windowTimeToMs', () => {
  it('maps each piece from its own start, also across a gap between chunks', () => {
    const pieces = [
      { startS: 0, endS: 20, startAtMs: s(1000) },
      { startS: 20, endS: 50, startAtMs: s(1025) },
    ];
    expect(windowTimeToMs(pieces, 0)).toBe(s(1000));
    expect(windowTimeToMs(pieces, 19.5)).toBe(s(1019.5));
    expect(windowTimeToMs(pieces, 20)).toBe(s(1025));
    expect(windowTimeToMs(pieces, 50)).toBe(s(1055));
  });
});

describe('mergeDetections', () => {
  it('adds a new song as a new play', () => {
    const { plays, removedIds } = mergeDetections([stored(1, 7, 0, 30)], [detection(8, 32, 60, 0.9)], noFill);
    expect(plays.map((play) => [play.id, play.songId, play.startMs, play.endMs])).toEqual([
      [1, 7, s(0), s(30)],
      [null, 8, s(32), s(60)],
    ]);
    expect(removedIds).toEqual([]);
  });

  it('extends a play that continues across a chunk boundary, keeping the highest confidence', () => {
    const { plays } = mergeDetections([stored(1, 7, 10, 30, 0.8)], [detection(7, 25, 60, 0.6)]);
    expect(plays).toEqual([{ ...stored(1, 7, 10, 60, 0.8), changed: true }]);
  });

  it('joins detections a short gap apart but not a repeat of the song much later', () => {
    const { plays } = mergeDetections(
      [stored(1, 7, 0, 30)],
      [detection(7, 45, 70, 0.8), detection(7, 200, 230)],
    );
    expect(plays.map((play) => [play.id, play.startMs, play.endMs])).toEqual([
      [1, s(0), s(70)],
      [null, s(200), s(230)],
    ]);
  });

  it("bridges a gap as long as the engine's chain gap (45 s): a masked stretch between chunks", () => {
    // 40 s without the song (a crowd cheering over it), then heard again in a later chunk: one
    // play, as the engine keeps it in one signal. 50 s is a new play.
    const { plays } = mergeDetections([stored(1, 7, 0, 60)], [detection(7, 100, 130, 0.8)]);
    expect(plays.map((play) => [play.id, play.startMs, play.endMs])).toEqual([[1, s(0), s(130)]]);
    const apart = mergeDetections([stored(1, 7, 0, 60)], [detection(7, 110, 130, 0.8)], noFill);
    expect(apart.plays.map((play) => [play.id, play.startMs, play.endMs])).toEqual([
      [1, s(0), s(60)],
      [null, s(110), s(130)],
    ]);
  });

  it('does not stretch a play over a gap with a weak piece of its song (chance), but joins an overlapping one', () => {
    const { plays } = mergeDetections([stored(1, 7, 0, 30)], [detection(7, 40, 50, 0.55)]);
    expect(plays.map((play) => [play.id, play.startMs, play.endMs])).toEqual([[1, s(0), s(30)]]);
    const joined = mergeDetections([stored(1, 7, 0, 30)], [detection(7, 25, 50, 0.55)]);
    expect(joined.plays.map((play) => [play.id, play.startMs, play.endMs])).toEqual([[1, s(0), s(50)]]);
  });

  it('is idempotent: the same detections merged again change nothing', () => {
    const first = mergeDetections([], [detection(7, 0, 30, 0.7), detection(8, 28, 60, 0.9)]);
    const asStored = first.plays.map((play, index) => ({ ...play, id: index + 1 }));
    const second = mergeDetections(asStored, [detection(7, 0, 30, 0.7), detection(8, 28, 60, 0.9)]);
    expect(second.plays).toEqual(asStored);
    expect(second.removedIds).toEqual([]);
  });

  it('a detection bridging two plays of one song joins them and drops the later one', () => {
    const { plays, removedIds } = mergeDetections(
      [stored(1, 7, 0, 30), stored(2, 7, 80, 100)],
      [detection(7, 40, 75, 0.95)],
    );
    expect(plays).toEqual([{ ...stored(1, 7, 0, 100, 0.95), changed: true }]);
    expect(removedIds).toEqual([2]);
  });

  it('lets a crossfade overlap: two songs at once stay two plays', () => {
    const { plays } = mergeDetections([], [detection(7, 0, 40), detection(8, 35, 80)]);
    expect(plays).toHaveLength(2);
  });
});

describe('mergeDetections: where a play starts, from its song position', () => {
  it('starts a play where its song began when its first seconds were not heard', () => {
    // Heard from 100 s at 60 s into the song (the first minute masked): the play started at 40 s.
    const { plays } = mergeDetections([], [heard(7, 100, 130, 40)]);
    expect(spans(plays)).toEqual([[null, 7, 40, 130]]);
    // Heard from its start: half a second earlier.
    expect(spans(mergeDetections([], [heard(7, 100, 130, 99.5)]).plays)).toEqual([[null, 7, 99.5, 130]]);
    // Without the song's start (a cloud match), the first window as before.
    expect(spans(mergeDetections([], [detection(7, 100, 130)]).plays)).toEqual([[null, 7, 100, 130]]);
  });

  it('bounds that start by the play before it, less a crossfade, and by the stream’s start', () => {
    const before = stored(1, 5, 0, 70);
    const { plays } = mergeDetections([before], [heard(7, 100, 130, 40)]);
    expect(spans(plays)).toEqual([
      [1, 5, 0, 70],
      [null, 7, 60, 130],
    ]);
    expect(spans(mergeDetections([], [heard(7, 100, 130, 40)], { streamStartMs: s(55) }).plays)).toEqual([
      [null, 7, 55, 130],
    ]);
    // A play before that overlaps the detection itself never pushes its start later.
    expect(spans(mergeDetections([stored(1, 5, 0, 125)], [heard(7, 100, 130, 40)]).plays)).toEqual([
      [1, 5, 0, 125],
      [null, 7, 100, 130],
    ]);
    expect(spans(mergeDetections([], [heard(7, 100, 130, 40)], { songStarts: false }).plays)).toEqual([
      [null, 7, 100, 130],
    ]);
  });

  it('moves a stored play’s start earlier when a later detection hears where its song began', () => {
    const { plays } = mergeDetections([stored(1, 7, 100, 130)], [heard(7, 125, 160, 70)]);
    expect(plays).toEqual([{ ...stored(1, 7, 70, 160, 0.8), changed: true }]);
  });
});

describe('mergeDetections: one play or two, from the song position', () => {
  it('joins a play whose song was heard going on after a long unheard stretch', () => {
    // 0-60 s, then nothing for 90 s (masked), then heard again 150 s into the song: one play.
    const { plays } = mergeDetections([stored(1, 7, 0, 60)], [heard(7, 150, 180, 1)]);
    expect(spans(plays)).toEqual([[1, 7, 0, 180]]);
    // The same gap heard at a position the play had not reached yet: a new play.
    expect(spans(mergeDetections([stored(1, 7, 0, 60)], [heard(7, 150, 180, 120)], noFill).plays)).toEqual([
      [1, 7, 0, 60],
      [null, 7, 120, 180],
    ]);
    expect(
      spans(mergeDetections([stored(1, 7, 0, 60)], [heard(7, 150, 180, 1)], { continuity: false }).plays),
    ).toEqual([
      [1, 7, 0, 60],
      [null, 7, 50, 180],
    ]);
  });

  it('does not join across a play of another song heard in between', () => {
    const { plays } = mergeDetections(
      [stored(1, 7, 0, 60), stored(2, 8, 70, 140)],
      [heard(7, 150, 180, 1)],
      noFill,
    );
    expect(spans(plays)).toEqual([
      [1, 7, 0, 60],
      [2, 8, 70, 140],
      [null, 7, 130, 180],
    ]);
  });

  it('allows the tempo’s error: a second and 2% of the song’s position', () => {
    // Heard 200 s into the song: its start may be seen up to 5 s off.
    expect(spans(mergeDetections([stored(1, 7, 0, 60)], [heard(7, 204, 230, 4.5)]).plays)).toEqual([
      [1, 7, 0, 230],
    ]);
    expect(spans(mergeDetections([stored(1, 7, 0, 60)], [heard(7, 206, 230, 6)]).plays)).toHaveLength(2);
  });

  it('lets a weak piece at the position the play had reached stretch it', () => {
    const { plays } = mergeDetections([stored(1, 7, 0, 30)], [heard(7, 40, 50, 0, 0.55)]);
    expect(spans(plays)).toEqual([[1, 7, 0, 50]]);
  });

  it('keeps a song played again from its beginning as a second play, even right after the first', () => {
    const { plays } = mergeDetections([stored(1, 7, 0, 200)], [heard(7, 212, 240, 205)], noFill);
    expect(spans(plays)).toEqual([
      [1, 7, 0, 200],
      [null, 7, 205, 240],
    ]);
    // Heard 5 s before the start its best window tells (a loop heard at a later repeat): the
    // song went on, not played again.
    expect(spans(mergeDetections([stored(1, 7, 0, 200)], [heard(7, 198, 240, 203)], noFill).plays)).toEqual([
      [1, 7, 0, 240],
    ]);
    // Heard 30 s into the song after the gap: the song went on, not played again.
    expect(spans(mergeDetections([stored(1, 7, 0, 200)], [heard(7, 212, 240, 182)]).plays)).toEqual([
      [1, 7, 0, 240],
    ]);
  });

  it('is idempotent with the song’s start too', () => {
    const detections = [heard(5, 0, 70, 0), heard(7, 100, 130, 40), heard(7, 150, 200, 41)];
    const first = mergeDetections([], detections);
    const asStored = first.plays.map((play, index) => ({ ...play, id: index + 1 }));
    const second = mergeDetections(asStored, detections);
    expect(second.plays).toEqual(asStored);
    expect(spans(asStored)).toEqual([
      [1, 5, 0, 70],
      [2, 7, 60, 200],
    ]);
  });
});

describe('mergeDetections: where a play ends', () => {
  it('ends a library play where the next one starts when at most 60 s of nothing lie between', () => {
    // Song 7 last heard at 100 s (its last bars under the crowd), song 8 from 140 s: 7 ran on.
    const { plays } = mergeDetections([stored(1, 7, 0, 100)], [heard(8, 150, 200, 140)]);
    expect(spans(plays)).toEqual([
      [1, 7, 0, 140],
      [null, 8, 140, 200],
    ]);
    expect(plays[0]!.changed).toBe(true);
    // 70 s between: room for a song nobody recognised; the end stays where the song was heard.
    expect(spans(mergeDetections([stored(1, 7, 0, 100)], [heard(8, 180, 220, 170)]).plays)).toEqual([
      [1, 7, 0, 100],
      [null, 8, 170, 220],
    ]);
    expect(
      spans(mergeDetections([stored(1, 7, 0, 100)], [heard(8, 150, 200, 140)], { fillSeconds: 0 }).plays),
    ).toEqual([
      [1, 7, 0, 100],
      [null, 8, 140, 200],
    ]);
  });

  it('fills no gap that another play covers in part, nor a cloud play’s', () => {
    const cloud: PlaySpan = { ...stored(2, 9, 90, 120), recognizer: 'acrcloud' };
    const { plays } = mergeDetections([stored(1, 7, 0, 100), cloud], [heard(8, 150, 200, 140)]);
    expect(spans(plays)).toEqual([
      [1, 7, 0, 100],
      [2, 9, 90, 120],
      [null, 8, 140, 200],
    ]);
  });

  it('fills idempotently', () => {
    const first = mergeDetections([stored(1, 7, 0, 100)], [heard(8, 150, 200, 140), heard(9, 230, 260, 225)]);
    const again = mergeDetections(first.plays, [heard(8, 150, 200, 140), heard(9, 230, 260, 225)]);
    expect(spans(again.plays)).toEqual(spans(first.plays));
    expect(spans(first.plays)).toEqual([
      [1, 7, 0, 140],
      [null, 8, 140, 225],
      [null, 9, 225, 260],
    ]);
  });
});

describe('mergeDetections: a play ends where its song ends', () => {
  /** A library detection that also tells where its song ends as heard. */
  const heardTo = (songId: number, start: number, end: number, songStart: number, songEnd: number) => ({
    ...heard(songId, start, end, songStart),
    songEndMs: s(songEnd),
  });

  it('fills no further than its song lasts: a missed song of under a minute is left uncovered', () => {
    // Song 7 heard to 100 s, its song ends at 112 s; song 8 heard from 160 s: a song nobody
    // recognised played from 112 to 160 s.
    const { plays } = mergeDetections([], [heardTo(7, 10, 100, 5, 112), heard(8, 165, 200, 160)]);
    expect(spans(plays)).toEqual([
      [null, 7, 5, 112],
      [null, 8, 160, 200],
    ]);
  });

  it('runs into the next play by a crossfade, not past its song’s end', () => {
    // The next song heard from its start at 104 s while song 7's last 10 s fade out under it.
    expect(spans(mergeDetections([], [heardTo(7, 10, 95, 5, 130), heard(8, 110, 200, 104)]).plays)).toEqual([
      [null, 7, 5, 114],
      [null, 8, 104, 200],
    ]);
    // Its song ends at 108 s, 4 s into the next play.
    expect(spans(mergeDetections([], [heardTo(7, 10, 95, 5, 108), heard(8, 110, 200, 104)]).plays)).toEqual([
      [null, 7, 5, 108],
      [null, 8, 104, 200],
    ]);
  });

  it('keeps its song’s end with the play, so a later chunk fills a stored play as far', () => {
    const first = mergeDetections([], [heardTo(7, 10, 100, 5, 112)]);
    expect(first.plays[0]!.songEndMs).toBe(s(112));
    const asStored = first.plays.map((play) => ({ ...play, id: 1 }));
    const { plays } = mergeDetections(asStored, [heard(8, 165, 200, 160)]);
    expect(spans(plays)).toEqual([
      [1, 7, 5, 112],
      [null, 8, 160, 200],
    ]);
    expect(plays[0]!.changed).toBe(true);
    // Without the rule (or the song's end unknown), to the next play's start, as before.
    expect(spans(mergeDetections(asStored, [heard(8, 165, 200, 160)], { songEnds: false }).plays)).toEqual([
      [1, 7, 5, 160],
      [null, 8, 160, 200],
    ]);
  });

  it('takes the song’s end from the engine’s play: its start and its length at the tempo heard', () => {
    const pieces = [{ startS: 0, endS: 50, startAtMs: s(1000) }];
    const [found] = libraryDetections(
      [{ songId: 7, startS: 20, endS: 50, confidence: 0.8, songStartS: -30, tempo: 1.04, songSeconds: 104 }],
      pieces,
    );
    expect(found!.songStartMs).toBe(s(970));
    expect(found!.songEndMs).toBe(s(1070));
    const [unknown] = libraryDetections(
      [{ songId: 7, startS: 20, endS: 50, confidence: 0.8, songStartS: -30, tempo: 1.04 }],
      pieces,
    );
    expect(unknown!.songEndMs).toBeNull();
  });
});

describe('mergeDetections: a play’s end across a longer gap, from its song’s end', () => {
  const heardTo = (songId: number, start: number, end: number, songStart: number, songEnd: number) => ({
    ...heard(songId, start, end, songStart),
    songEndMs: s(songEnd),
  });

  it('takes a play on to its song’s end when nothing is heard after it, once the stream is heard past that end', () => {
    // Song 7 last heard at 100 s, its song ends at 130 s; nothing heard after it (a song outside
    // the library, or its last bars under the crowd).
    const detections = [heardTo(7, 10, 100, 5, 130)];
    expect(spans(mergeDetections([], detections, { heardUntilMs: s(170) }).plays)).toEqual([
      [null, 7, 5, 130],
    ]);
    // The stream not heard far enough past that end yet (a play found in the next chunk could
    // still start before it), or not known: the end stays where the song was heard.
    expect(spans(mergeDetections([], detections, { heardUntilMs: s(150) }).plays)).toEqual([
      [null, 7, 5, 100],
    ]);
    expect(spans(mergeDetections([], detections).plays)).toEqual([[null, 7, 5, 100]]);
    // A stored play is taken on by a later chunk's merge, which hears nothing of it.
    const { plays } = mergeDetections([{ ...stored(1, 7, 5, 100), songEndMs: s(130) }], [], {
      heardUntilMs: s(170),
    });
    expect(spans(plays)).toEqual([[1, 7, 5, 130]]);
    expect(plays[0]!.changed).toBe(true);
  });

  it('also before a play more than 60 s later, and idempotently', () => {
    const detections = [heardTo(7, 10, 100, 5, 150), heard(8, 175, 220, 170)];
    const first = mergeDetections([], detections, { heardUntilMs: s(220) });
    expect(spans(first.plays)).toEqual([
      [null, 7, 5, 150],
      [null, 8, 170, 220],
    ]);
    expect(spans(mergeDetections(first.plays, detections, { heardUntilMs: s(220) }).plays)).toEqual(
      spans(first.plays),
    );
  });

  it('leaves a play heard to within 10 s of its song’s end, more than 60 s before it, or clearly', () => {
    // 8 s left: the DJ faded it out there.
    expect(spans(mergeDetections([], [heardTo(7, 10, 100, 5, 108)], { heardUntilMs: s(300) }).plays)).toEqual(
      [[null, 7, 5, 100]],
    );
    // 70 s left: more likely cut short by the DJ, and where is not known.
    expect(spans(mergeDetections([], [heardTo(7, 10, 100, 5, 170)], { heardUntilMs: s(300) }).plays)).toEqual(
      [[null, 7, 5, 100]],
    );
    // A song that came through clearly (confidence 0.97) and then went unheard for 30 s stopped
    // there: a DJ's cut before a song outside the library.
    const clear = { ...heardTo(7, 10, 100, 5, 130), confidence: 0.97 };
    expect(spans(mergeDetections([], [clear], { heardUntilMs: s(300) }).plays)).toEqual([[null, 7, 5, 100]]);
    // Nor with the rule off, or the song's end unknown.
    expect(
      spans(
        mergeDetections([], [heardTo(7, 10, 100, 5, 130)], { heardUntilMs: s(300), reachSeconds: 0 }).plays,
      ),
    ).toEqual([[null, 7, 5, 100]]);
    expect(spans(mergeDetections([], [heard(7, 10, 100, 5)], { heardUntilMs: s(300) }).plays)).toEqual([
      [null, 7, 5, 100],
    ]);
  });

  it('takes no play on that another play covers in part, nor a cloud play', () => {
    const overlapping = heard(8, 95, 110, 95);
    expect(
      spans(mergeDetections([], [heardTo(7, 10, 100, 5, 130), overlapping], { heardUntilMs: s(300) }).plays),
    ).toEqual([
      [null, 7, 5, 100],
      [null, 8, 95, 110],
    ]);
    const cloud: PlaySpan = { ...stored(2, 9, 10, 100), recognizer: 'acrcloud', songEndMs: s(130) };
    expect(spans(mergeDetections([cloud], [], { heardUntilMs: s(300) }).plays)).toEqual([[2, 9, 10, 100]]);
  });
});

describe('trackedDetections', () => {
  // A tracked play of song 7 heard 20-80 s into a window that began at 100 s, its song begun at 15 s.
  const tracked = {
    songId: 7,
    startS: 20,
    endS: 80,
    confidence: 0.6,
    songStartS: 15,
    tempo: 1,
    songSeconds: 200,
  };
  const pieces = [{ startS: 0, endS: 50, startAtMs: s(100) }];

  it("tells its song's start and end where the timeline has no play of its song near it", () => {
    const [d] = trackedDetections([stored(1, 8, 100, 200)], [tracked], pieces);
    expect(d).toMatchObject({
      songId: 7,
      startMs: s(120),
      endMs: s(180),
      songStartMs: s(115),
      songEndMs: s(315),
    });
    // A play of the song more than MERGE_GAP_SECONDS before it: the same.
    expect(trackedDetections([stored(1, 7, 0, 74)], [tracked], pieces)[0]!.songStartMs).toBe(s(115));
  });

  it('leaves the start to a play of its song that overlaps it or lies within MERGE_GAP_SECONDS', () => {
    for (const play of [stored(1, 7, 150, 300), stored(1, 7, 0, 76), stored(1, 7, 60, 130)]) {
      const [d] = trackedDetections([play], [tracked], pieces);
      expect(d!.songStartMs).toBeNull();
      expect(d).toMatchObject({ startMs: s(120), endMs: s(180), songEndMs: s(315) });
    }
  });
});

describe('uncoveredStretches', () => {
  it('lists the gaps of at least the minimum length', () => {
    const plays = [
      { startMs: s(10), endMs: s(20) },
      { startMs: s(18), endMs: s(30) },
      { startMs: s(55), endMs: s(70) },
    ];
    expect(uncoveredStretches(plays, 0, s(100), 20)).toEqual([
      [s(30), s(55)],
      [s(70), s(100)],
    ]);
    expect(uncoveredStretches(plays, 0, s(100), 5)).toEqual([
      [0, s(10)],
      [s(30), s(55)],
      [s(70), s(100)],
    ]);
    expect(uncoveredStretches([], 0, s(30), 20)).toEqual([[0, s(30)]]);
  });
});
