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
});
