import { describe, expect, it } from 'vitest';
import { indexSignal, memorySource, recognizeWith } from './index.js';
import { emptyIndex, mergeIndex } from './memory-index.js';
import { SAMPLE_RATE } from './params.js';
import { addNoise, synthSong } from './synth.js';

describe('recognition and the event loop', () => {
  it('gives timers and I/O a turn between its windows, and still finds the song', async () => {
    const song = synthSong(41, 60, SAMPLE_RATE);
    const { peaks, hashes } = indexSignal(song);
    const source = memorySource(
      mergeIndex(emptyIndex(), new Set(), [{ songId: 5, revision: 1, hashes }]),
      new Map([[5, peaks]]),
    );
    // 50 s: a 30 s chunk with the 20 s tail of the one before, as the server recognises it.
    const chunk = addNoise(song.subarray(5 * SAMPLE_RATE, 55 * SAMPLE_RATE), 6, 2);
    let turns = 0;
    let done = false;
    const tick = () => {
      turns += 1;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const found = await recognizeWith(source, chunk);
    done = true;
    expect(found.map((play) => play.songId)).toEqual([5]);
    // Nine 10 s windows, 5 s apart: each one's lookup and its verification get a turn of their own.
    expect(turns).toBeGreaterThanOrEqual(2 * 9 - 1);
  });
});
