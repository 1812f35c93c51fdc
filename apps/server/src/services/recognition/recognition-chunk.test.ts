/** Where a chunk's stream began: the bound of where a play heard in it may start. */
import { describe, expect, it } from 'vitest';
import { type ChunkRow, streamStartOf } from './recognition-chunk.js';

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
