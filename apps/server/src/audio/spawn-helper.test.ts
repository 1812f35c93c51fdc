import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProgramStartError, runProgram, runProgramCollect, startSpawnHelper } from './spawn-helper.js';

describe('spawn helper', () => {
  it('runs a program in another process and returns its output, status and stderr', async () => {
    const helper = startSpawnHelper();
    expect(helper.pid).not.toBe(process.pid);
    const script =
      'process.stdout.write(String(process.ppid)); process.stderr.write("warned"); process.exit(3)';
    const result = await runProgramCollect(process.execPath, ['-e', script]);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('warned');
    // The program's parent is the helper, not this process: this one never forked.
    expect(Number(result.stdout.toString())).toBe(helper.pid);
  });

  it('streams output larger than one pipe read, byte for byte', async () => {
    const script =
      'const b = Buffer.alloc(3_000_000); for (let i = 0; i < b.length; i++) b[i] = i % 251; process.stdout.write(b)';
    const chunks: Uint8Array[] = [];
    const exit = await runProgram(process.execPath, ['-e', script], (data) => chunks.push(data));
    expect(exit.code).toBe(0);
    expect(chunks.length).toBeGreaterThan(1);
    const all = Buffer.concat(chunks);
    expect(all.length).toBe(3_000_000);
    expect(all.every((value, i) => value === i % 251)).toBe(true);
  });

  it('hands collected output over whole, in one message, however many reads it took', async () => {
    const script =
      'const b = Buffer.alloc(3_000_000); for (let i = 0; i < b.length; i++) b[i] = i % 251; process.stdout.write(b)';
    const chunks: Uint8Array[] = [];
    const exit = await runProgram(process.execPath, ['-e', script], (data) => chunks.push(data), {
      collect: true,
    });
    expect(exit.code).toBe(0);
    expect(chunks.length).toBe(1);
    expect(chunks[0]!.length).toBe(3_000_000);
    expect(Buffer.from(chunks[0]!).every((value, i) => value === i % 251)).toBe(true);
  });

  it('runs several programs at once, each with its own output', async () => {
    const results = await Promise.all(
      [1, 2, 3].map((n) =>
        runProgramCollect(process.execPath, [
          '-e',
          `setTimeout(() => process.stdout.write('${n}'), ${40 - n * 10})`,
        ]),
      ),
    );
    expect(results.map((r) => r.stdout.toString())).toEqual(['1', '2', '3']);
  });

  it('rejects with ProgramStartError (ENOENT) for a program that does not exist', async () => {
    const error = await runProgramCollect('/nonexistent/ffmpeg', ['-version']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProgramStartError);
    expect((error as ProgramStartError).code).toBe('ENOENT');
  });

  it('fails the runs in flight when the helper dies, and starts a new one for the next run', async () => {
    const helper = startSpawnHelper();
    const running = runProgramCollect(process.execPath, ['-e', 'setTimeout(() => {}, 5000)']);
    helper.kill('SIGKILL');
    await expect(running).rejects.toThrow(/helper process that runs ffmpeg stopped/);
    const next = await runProgramCollect(process.execPath, ['-e', 'process.stdout.write("again")']);
    expect(next.stdout.toString()).toBe('again');
    expect(startSpawnHelper().pid).not.toBe(helper.pid);
  });

  it('writes stdin to the program and closes it', async () => {
    const script =
      'let s = ""; process.stdin.on("data", (d) => (s += d)); process.stdin.on("end", () => process.stdout.write(s.toUpperCase()))';
    const result = await runProgramCollect(process.execPath, ['-e', script], { stdin: 'hello\n' });
    expect(result.stdout.toString()).toBe('HELLO\n');
  });

  it('keeps programs of a command line started ahead, and a run takes one of them', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wcs-warm-'));
    const log = path.join(dir, 'starts');
    try {
      // Each program notes its start in the log, then answers what it reads with its start time.
      const script = `const fs = require('node:fs'); const started = Date.now(); fs.appendFileSync(${JSON.stringify(log)}, 'x'); let s = ''; process.stdin.on('data', (d) => (s += d)); process.stdin.on('end', () => process.stdout.write(started + ' ' + s))`;
      const args = ['-e', script];
      const starts = async () => (await fs.readFile(log, 'utf8').catch(() => '')).length;
      const first = await runProgramCollect(process.execPath, args, { stdin: 'one', keepWarm: true });
      expect(first.stdout.toString()).toMatch(/^\d+ one$/);
      // After the first run, two more start and wait for their input.
      const deadline = Date.now() + 20_000;
      while ((await starts()) < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await starts()).toBe(3);
      const asked = Date.now();
      const second = await runProgramCollect(process.execPath, args, { stdin: 'two', keepWarm: true });
      const [startedAt, text] = second.stdout.toString().split(' ');
      expect(text).toBe('two');
      // The program that ran had started before it was asked for.
      expect(Number(startedAt)).toBeLessThan(asked);
      // Without keepWarm nothing is taken from the warm ones: a new program starts.
      const cold = await runProgramCollect(process.execPath, args, { stdin: 'three' });
      expect(Number(cold.stdout.toString().split(' ')[0])).toBeGreaterThanOrEqual(asked);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
