import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sineWav } from '../test/audio.js';
import { DecodeError, decodeAudio, decodeWholeAudio } from './decode.js';
import { ProgramStartError } from './spawn-helper.js';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-decode-'));
  await fs.writeFile(path.join(dir, 'a.wav'), sineWav(2, 440, 8000));
  await fs.writeFile(path.join(dir, 'b.wav'), sineWav(1, 880, 8000));
  await fs.writeFile(path.join(dir, 'broken.mp3'), 'not audio at all');
  // A WAV header that promises samples, and none after it.
  await fs.writeFile(path.join(dir, 'empty.wav'), sineWav(1, 440, 8000).subarray(0, 44));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe('decodeAudio', () => {
  it('decodes and resamples to mono float samples of the asked rate', async () => {
    const samples = await decodeAudio(path.join(dir, 'a.wav'), { sampleRate: 11025 });
    expect(samples.length).toBeGreaterThan(11025 * 2 - 50);
    expect(samples.length).toBeLessThan(11025 * 2 + 50);
    const peak = samples.reduce((max, value) => Math.max(max, Math.abs(value)), 0);
    expect(peak).toBeGreaterThan(0.3);
    expect(peak).toBeLessThan(0.4);
  });

  it('joins several files in order, and honours start and duration', async () => {
    const joined = await decodeAudio([path.join(dir, 'a.wav'), path.join(dir, 'b.wav')], {
      sampleRate: 8000,
    });
    expect(joined.length).toBe(24000);
    const part = await decodeAudio(path.join(dir, 'a.wav'), {
      sampleRate: 8000,
      startSeconds: 0.5,
      durationSeconds: 1,
    });
    expect(part.length).toBe(8000);
  });

  it('names the file and the reason when the audio cannot be read', async () => {
    const failure = decodeAudio(path.join(dir, 'broken.mp3'), { sampleRate: 8000 });
    await expect(failure).rejects.toBeInstanceOf(DecodeError);
    await expect(failure).rejects.toThrow(/broken\.mp3/);
    await expect(
      decodeAudio(path.join(dir, 'a.wav'), { sampleRate: 8000, ffmpegPath: '/nonexistent/ffmpeg' }),
    ).rejects.toThrow(/ffmpeg was not found/);
  });
});

describe('decodeWholeAudio (the upload check)', () => {
  it('gives the same samples as decodeAudio', async () => {
    const file = path.join(dir, 'a.wav');
    const checked = await decodeWholeAudio(file, { sampleRate: 8000 });
    expect(checked).toEqual(await decodeAudio(file, { sampleRate: 8000 }));
  });

  it("refuses what is not audio, and a file without samples, as the file's fault", async () => {
    await expect(decodeWholeAudio(path.join(dir, 'broken.mp3'), { sampleRate: 8000 })).rejects.toBeInstanceOf(
      DecodeError,
    );
    await expect(decodeWholeAudio(path.join(dir, 'empty.wav'), { sampleRate: 8000 })).rejects.toThrow(
      /no audio samples/,
    );
  });

  it('gives the same samples and the same reasons from a warm ffmpeg (keepWarm)', async () => {
    // A name with a quote and a space: the concat list must quote it.
    const odd = path.join(dir, "it's a.wav");
    await fs.copyFile(path.join(dir, 'a.wav'), odd);
    const cold = await decodeWholeAudio(odd, { sampleRate: 8000 });
    expect(cold.length).toBe(16000);
    for (let run = 0; run < 3; run++) {
      expect(await decodeWholeAudio(odd, { sampleRate: 8000, keepWarm: true })).toEqual(cold);
    }
    const reasons = await Promise.all(
      [false, true].map((keepWarm) =>
        decodeWholeAudio(path.join(dir, 'broken.mp3'), { sampleRate: 8000, keepWarm }).catch(
          (error: DecodeError) => error.reason,
        ),
      ),
    );
    expect(reasons[1]).toBe(reasons[0]);
    expect(reasons[0]).toMatch(/broken\.mp3/);
    expect(reasons[0]).not.toMatch(/concat|pipe:/);
    await expect(
      decodeWholeAudio(path.join(dir, 'a.wav'), {
        sampleRate: 8000,
        keepWarm: true,
        ffmpegPath: '/nonexistent/ffmpeg',
      }),
    ).rejects.toBeInstanceOf(ProgramStartError);
  });

  it('decodes again cold when a warm ffmpeg was killed while it waited', async () => {
    // An ffmpeg whose warm runs (reading their list from stdin) die by a signal once given work.
    const fake = path.join(dir, 'dying-ffmpeg.sh');
    await fs.writeFile(
      fake,
      '#!/bin/sh\ncase "$*" in *concat*) read line; kill -9 $$;; esac\nexec ffmpeg "$@"\n',
      {
        mode: 0o755,
      },
    );
    const file = path.join(dir, 'a.wav');
    const samples = await decodeWholeAudio(file, { sampleRate: 8000, keepWarm: true, ffmpegPath: fake });
    expect(samples).toEqual(await decodeWholeAudio(file, { sampleRate: 8000 }));
  });

  it("says a missing ffmpeg is the server's fault (ProgramStartError), not the file's", async () => {
    await expect(
      decodeWholeAudio(path.join(dir, 'a.wav'), { sampleRate: 8000, ffmpegPath: '/nonexistent/ffmpeg' }),
    ).rejects.toBeInstanceOf(ProgramStartError);
  });
});
