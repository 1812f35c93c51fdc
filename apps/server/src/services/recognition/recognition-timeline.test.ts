/** The timeline rules: window times, merging detections into plays, uncovered stretches. */
import { describe, expect, it } from 'vitest';
import {
  type Detection,
  mergeDetections,
  type PlaySpan,
  uncoveredStretches,
  windowTimeToMs,
} from './recognition-timeline.js';

const s = (seconds: number) => seconds * 1000;
const detection = (songId: number, start: number, end: number, confidence = 0.5): Detection => ({
  songId,
  startMs: s(start),
  endMs: s(end),
  confidence,
  recognizer: 'library',
});
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
    const { plays, removedIds } = mergeDetections([stored(1, 7, 0, 30)], [detection(8, 32, 60, 0.9)]);
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
    const apart = mergeDetections([stored(1, 7, 0, 60)], [detection(7, 110, 130, 0.8)]);
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
