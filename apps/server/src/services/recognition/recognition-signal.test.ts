// How audio reaches recognizeChunks: pieces cut into the recorders' 30 s chunks, the last of
// 15-45 s; a long file decoded a stretch at a time gives the samples a decode of the whole gives.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeAudio } from '../../audio/decode.js';
import { FINGERPRINT_SAMPLE_RATE } from '../../audio/fingerprint/index.js';
import { chunksOf, fileChunks, SIGNAL_CHUNK_SECONDS } from './recognition-signal.js';

const RATE = FINGERPRINT_SAMPLE_RATE;
const ffmpegPath = process.env.FFMPEG_PATH || 'ffmpeg';

/** The chunks' lengths in seconds, of `seconds` of signal given in pieces of `pieceSeconds`. */
async function lengths(seconds: number, pieceSeconds: number): Promise<number[]> {
  const signal = Float32Array.from({ length: Math.round(seconds * RATE) }, (_, i) => i);
  const pieces: Float32Array[] = [];
  for (let from = 0; from < signal.length; from += pieceSeconds * RATE)
    pieces.push(signal.subarray(from, from + pieceSeconds * RATE));
  const chunks: Float32Array[] = [];
  for await (const chunk of chunksOf(pieces)) chunks.push(chunk);
  // In order, every sample once.
  expect(chunks.flatMap((chunk) => [...chunk])).toEqual([...signal]);
  return chunks.map((chunk) => chunk.length / RATE);
}

describe('chunksOf', () => {
  it('cuts 30 s chunks, the last of 15-45 s, whatever the pieces', async () => {
    expect(SIGNAL_CHUNK_SECONDS).toBe(30);
    expect(await lengths(30.25, 30.25)).toEqual([30.25]);
    expect(await lengths(50, 7)).toEqual([30, 20]);
    expect(await lengths(74, 600)).toEqual([30, 44]);
    expect(await lengths(75, 600)).toEqual([30, 30, 15]);
    expect(await lengths(10, 3)).toEqual([10]);
    expect(await lengths(0, 1)).toEqual([]);
  });
});

describe('fileChunks', () => {
  it('decodes a file longer than a stretch in step with a decode of the whole', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-signal-'));
    try {
      const file = path.join(dir, 'long.flac');
      // 11 minutes of chirping noise at 22.05 kHz: two stretches of decoding, resampled.
      execFileSync(ffmpegPath, [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'anoisesrc=color=pink:seed=3:sample_rate=22050:duration=660',
        '-af',
        'volume=0.3',
        file,
      ]);
      const whole = await decodeAudio(file, { sampleRate: RATE, ffmpegPath });
      const chunks: Float32Array[] = [];
      for await (const chunk of fileChunks([file, file], ffmpegPath)) chunks.push(chunk);
      // Two files of 22 chunks each (the last of 30 s: 660 s is 22 whole chunks).
      expect(chunks.map((chunk) => chunk.length)).toEqual(
        Array.from({ length: 44 }, () => SIGNAL_CHUNK_SECONDS * RATE),
      );
      const joined = new Float32Array(whole.length);
      for (const [k, chunk] of chunks.slice(0, 22).entries()) joined.set(chunk, k * chunk.length);
      expect(joined.length).toBe(whole.length);
      // The same samples but for the resampler starting afresh at 600 s (its first few).
      let worst = 0;
      for (let i = 0; i < whole.length; i++) worst = Math.max(worst, Math.abs(whole[i]! - joined[i]!));
      expect(worst).toBeLessThan(0.05);
      const edge = 600 * RATE;
      expect(
        Math.max(
          ...whole.subarray(edge + 64, edge + 8000).map((x, i) => Math.abs(x - joined[edge + 64 + i]!)),
        ),
      ).toBeLessThan(1e-4);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
