import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  decodedChunkCount,
  forgetDecodedChunks,
  keepDecodedChunk,
  takeDecodedChunk,
} from './decoded-chunks.js';

const samples = (length: number, value = 0.5) => new Float32Array(length).fill(value);

afterEach(() => {
  forgetDecodedChunks();
  vi.useRealTimers();
});

describe('decoded chunks kept for their recognition', () => {
  it('hands a chunk out once, for its store and key and rate only', () => {
    const kept = samples(8000);
    keepDecodedChunk('/data/recordings', '1/00000-abc.webm', kept, 8000);
    expect(takeDecodedChunk('/other/store', '1/00000-abc.webm', 8000)).toBeUndefined();
    expect(takeDecodedChunk('/data/recordings', '1/00001-abc.webm', 8000)).toBeUndefined();
    expect(takeDecodedChunk('/data/recordings', '1/00000-abc.webm', 8000)).toBe(kept);
    expect(takeDecodedChunk('/data/recordings', '1/00000-abc.webm', 8000)).toBeUndefined();
    keepDecodedChunk('/data/recordings', '2/00000-def.webm', kept, 8000);
    // Samples at another rate are not what the caller asked for: dropped, never returned.
    expect(takeDecodedChunk('/data/recordings', '2/00000-def.webm', 11025)).toBeUndefined();
    expect(decodedChunkCount()).toBe(0);
  });

  it('keeps at most 32 chunks and 8,000,000 samples, dropping the oldest', () => {
    for (let n = 0; n < 40; n += 1) keepDecodedChunk('s', `k${n}`, samples(1000), 8000);
    expect(decodedChunkCount()).toBe(32);
    expect(takeDecodedChunk('s', 'k7', 8000)).toBeUndefined();
    expect(takeDecodedChunk('s', 'k8', 8000)).toBeDefined();
    forgetDecodedChunks();
    for (let n = 0; n < 3; n += 1) keepDecodedChunk('s', `big${n}`, samples(3_000_000), 8000);
    expect(decodedChunkCount()).toBe(2);
    expect(takeDecodedChunk('s', 'big0', 8000)).toBeUndefined();
    // One chunk over the whole bound is not kept at all.
    keepDecodedChunk('s', 'huge', samples(8_000_001), 8000);
    expect(takeDecodedChunk('s', 'huge', 8000)).toBeUndefined();
  });

  it('drops a chunk not taken within five minutes (its job ran in another process)', () => {
    vi.useFakeTimers({ now: new Date('2026-11-26T22:00:00Z') });
    keepDecodedChunk('s', 'old', samples(10), 8000);
    vi.setSystemTime(new Date('2026-11-26T22:04:59Z'));
    keepDecodedChunk('s', 'newer', samples(10), 8000);
    vi.setSystemTime(new Date('2026-11-26T22:05:01Z'));
    expect(takeDecodedChunk('s', 'old', 8000)).toBeUndefined();
    expect(takeDecodedChunk('s', 'newer', 8000)).toBeDefined();
  });
});
