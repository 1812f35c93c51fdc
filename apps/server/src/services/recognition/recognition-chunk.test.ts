/**
 * Where a chunk's stream began (the bound of where a play heard in it may start), and how far it
 * has been heard (the bound of how far a play is taken on to its song's end).
 */
import { describe, expect, it } from 'vitest';
import { type ChunkRow, heardUntilOf, streamStartOf } from './recognition-chunk.js';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 27, 21) + seconds * 1000);
const chunk = (chunkNumber: number, start: number, duration = 30) =>
  ({ chunkNumber, recordedAt: at(start), durationSeconds: duration }) as ChunkRow;

describe('streamStartOf', () => {
  it('goes back over chunks that follow one another, and stops at a pause or a missing chunk', () => {
    const chunks = [chunk(0, 0), chunk(1, 30), chunk(2, 61), chunk(3, 200), chunk(4, 230), chunk(6, 290)];
    expect(streamStartOf(chunks, chunks[2]!)).toBe(at(0).getTime());
    // 200 s after a chunk that ended at 91 s: a pause, a new stream.
    expect(streamStartOf(chunks, chunks[4]!)).toBe(at(200).getTime());
    // Chunk 5 never arrived.
    expect(streamStartOf(chunks, chunks[5]!)).toBe(at(290).getTime());
    expect(streamStartOf(chunks, chunks[0]!)).toBe(at(0).getTime());
  });
});

describe('heardUntilOf', () => {
  const end = (seconds: number) => at(seconds).getTime();
  const chunks = [chunk(0, 0), chunk(1, 30), chunk(2, 61), chunk(3, 91), chunk(4, 200), chunk(5, 230)];

  it('runs on from the chunk over the heard chunks that follow it, to a pause or an unheard chunk', () => {
    expect(heardUntilOf(chunks, chunks[1]!, new Set([0, 1]))).toBe(end(60));
    // Chunk 2 was recognised before chunk 1 (its plays are in the timeline).
    expect(heardUntilOf(chunks, chunks[1]!, new Set([0, 1, 2, 3, 4]))).toBe(end(121));
    expect(heardUntilOf(chunks, chunks[4]!, new Set([4, 5]))).toBe(end(260));
  });

  it('is unknown while a chunk before it in its stream is not heard', () => {
    expect(heardUntilOf(chunks, chunks[2]!, new Set([0, 2]))).toBeUndefined();
    // A pause before chunk 4: what came before is another stream.
    expect(heardUntilOf(chunks, chunks[4]!, new Set([4]))).toBe(end(230));
  });
});
