import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../cli/index.js';
import { ANALYSIS_VERSION } from './index.js';
import { chordProgression, drumPattern, mix, wavFile } from './test-signals.js';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-analyze-cli-'));
  const song = mix(
    drumPattern({ bpm: 92, seconds: 20, gain: 0.3 }),
    chordProgression(['D', 'G', 'A7', 'D'], 20),
  );
  await fs.writeFile(path.join(dir, 'song.wav'), wavFile(song));
  await fs.writeFile(path.join(dir, 'broken.mp3'), 'not audio');
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

/** Runs `wcs <args>` in this process and returns what it printed on stdout, line by line. */
async function run(args: string[]): Promise<{ lines: string[]; exitCode: number | undefined }> {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => lines.push(line));
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  const before = process.exitCode;
  try {
    await buildProgram().parseAsync(['node', 'wcs', ...args]);
    return { lines, exitCode: process.exitCode as number | undefined };
  } finally {
    process.exitCode = before;
    log.mockRestore();
    error.mockRestore();
  }
}

describe('wcs analyze', () => {
  it('prints one JSON line per file with the asked fields, storing nothing', async () => {
    const file = path.join(dir, 'song.wav');
    const { lines, exitCode } = await run(['analyze', '--json', file]);
    expect(exitCode).toBeUndefined();
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0]!);
    expect(Object.keys(result).sort()).toEqual(
      [
        'analysis_version',
        'bpm',
        'bpm_alt',
        'danceability',
        'energy',
        'file',
        'key',
        'key_confidence',
        'key_uncertain',
        'valence',
      ].sort(),
    );
    expect(result.file).toBe(file);
    expect(Math.abs(result.bpm - 92)).toBeLessThanOrEqual(1);
    expect(result.key).toBe('D major');
    expect(result.analysis_version).toBe(ANALYSIS_VERSION);
  });

  it('reports an unreadable file on its own line, goes on with the rest, and exits 1', async () => {
    const broken = path.join(dir, 'broken.mp3');
    const { lines, exitCode } = await run(['analyze', '--json', broken, path.join(dir, 'song.wav')]);
    expect(lines).toHaveLength(2);
    const failed = JSON.parse(lines[0]!);
    expect(failed.file).toBe(broken);
    expect(failed.error).toMatch(/could not decode .*broken\.mp3/);
    expect(JSON.parse(lines[1]!).key).toBe('D major');
    expect(exitCode).toBe(1);
  });

  it('prints a readable line without --json', async () => {
    const { lines } = await run(['analyze', path.join(dir, 'song.wav')]);
    expect(lines[0]).toMatch(
      /song\.wav: \d+\.\d BPM \(or \d+\.\d\), D major \(10B\), energy \d+, danceability \d+, valence \d+/,
    );
  });
});
