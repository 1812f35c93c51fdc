/**
 * The capture with real ffmpeg: chunks of the asked length from a synthesised file, a clean stop
 * that closes and lists the last partial chunk, and a clear failure for a missing ALSA device.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { decodeAudio } from '../audio/decode.js';
import { sniffAudioContainer } from '../audio/sniff.js';
import { chunkFiles, tempDir, waitFor } from '../test/recorder-support.js';
import { startCapture } from './capture.js';
import { runRecorder } from './recorder.js';
import { LIST_FILE, parseSegmentList } from './spool.js';

const execFileAsync = promisify(execFile);

/**
 * A test's budget: its ffmpeg runs take seconds each on a loaded two-core machine (the recorder's
 * tests took 5-11 s at a load of 15), not vitest's 30 s.
 */
const HEAVY_TEST_MS = 120_000;
describe('capture', { timeout: HEAVY_TEST_MS }, () => {
  it('cuts a synthesised file into Ogg Opus chunks of the asked length', async () => {
    const dir = tempDir('wcs-capture-');
    const input = path.join(dir, 'input.wav');
    // 7 s of a tone under pink noise, stereo 44.1 kHz: the capture makes it mono 48 kHz.
    await execFileAsync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=f=523:d=7:sample_rate=44100',
      '-f',
      'lavfi',
      '-i',
      'anoisesrc=color=pink:d=7:a=0.1:sample_rate=44100',
      '-filter_complex',
      'amix=inputs=2,aformat=channel_layouts=stereo',
      input,
    ]);
    const out = path.join(dir, 'session');
    fs.mkdirSync(out);
    const exit = await startCapture({
      source: { kind: 'input', spec: input, realtime: false },
      dir: out,
      chunkSeconds: 2,
    }).exited;
    expect(exit).toMatchObject({ code: 0, unasked: true });

    expect(chunkFiles(out)).toEqual([
      'chunk-000000.ogg',
      'chunk-000001.ogg',
      'chunk-000002.ogg',
      'chunk-000003.ogg',
    ]);
    const listed = parseSegmentList(fs.readFileSync(path.join(out, LIST_FILE), 'utf8'));
    expect([...listed.keys()]).toEqual([0, 1, 2, 3]);
    const lengths = [2, 2, 2, 1];
    for (const [i, name] of chunkFiles(out).entries()) {
      const file = path.join(out, name);
      expect(sniffAudioContainer(fs.readFileSync(file).subarray(0, 16))).toBe('ogg');
      const entry = listed.get(i)!;
      expect(entry.start).toBeCloseTo(i * 2, 3);
      expect(entry.end - entry.start).toBeCloseTo(lengths[i]!, 1);
      const decoded = await decodeAudio(file, { sampleRate: 48_000 });
      // Opus drops its 6.5 ms of priming at the start of each chunk.
      expect(Math.abs(decoded.length / 48_000 - lengths[i]!)).toBeLessThan(0.02);
      const { stdout } = await execFileAsync('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_name,channels,sample_rate,bit_rate',
        '-of',
        'json',
        file,
      ]);
      expect(JSON.parse(stdout).streams[0]).toMatchObject({
        codec_name: 'opus',
        channels: 1,
        sample_rate: '48000',
      });
    }
    // Not silence: the tone and the noise made it through.
    const first = await decodeAudio(path.join(out, 'chunk-000000.ogg'), { sampleRate: 48_000 });
    const rms = Math.sqrt(first.reduce((sum, x) => sum + x * x, 0) / first.length);
    expect(rms).toBeGreaterThan(0.01);
  });

  it('on stop closes the last, partial chunk and lists it', async () => {
    const dir = tempDir('wcs-capture-');
    const capture = startCapture({
      source: { kind: 'input', spec: 'lavfi:sine=f=440', realtime: true },
      dir,
      chunkSeconds: 1,
    });
    await waitFor(() => chunkFiles(dir).length >= 3, 15_000, 'three chunks');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const exit = await capture.stop(10_000);
    expect(exit.unasked).toBe(false);
    const files = chunkFiles(dir);
    const listed = parseSegmentList(fs.readFileSync(path.join(dir, LIST_FILE), 'utf8'));
    expect([...listed.keys()]).toEqual(files.map((_, i) => i));
    const last = listed.get(files.length - 1)!;
    expect(last.end - last.start).toBeGreaterThan(0);
    expect(last.end - last.start).toBeLessThan(1.01);
    const decoded = await decodeAudio(path.join(dir, files.at(-1)!), { sampleRate: 48_000 });
    expect(Math.abs(decoded.length / 48_000 - (last.end - last.start))).toBeLessThan(0.02);
  });

  it('reports a missing ALSA device as a failed capture (exit 1), naming arecord -L', async () => {
    const spoolDir = tempDir('wcs-spool-');
    const lines: string[] = [];
    const result = await runRecorder(
      {
        // Nothing listens there: the device fails before any upload is tried.
        server: 'http://127.0.0.1:9',
        token: 'wcs_never-sent-nothing-listens',
        spoolDir,
        source: { kind: 'alsa', device: 'hw:CARD=WcsNoSuchCard,DEV=0' },
        chunkSeconds: 30,
        drainMs: 0,
        log: (line) => lines.push(line),
      },
      new AbortController().signal,
    );
    expect(result.exitCode).toBe(1);
    expect(result.capture.unasked).toBe(true);
    expect(lines.join('\n')).toMatch(
      /capture failed \(ffmpeg exit \d+\): .+\(list the devices with "arecord -L"\)/,
    );
    expect(lines.at(-1)).toBe('stopped: 0 chunks uploaded, nothing left to send');
    // The empty session folder does not linger.
    expect(fs.readdirSync(spoolDir)).toEqual([]);
  });
});
