/**
 * Runs short-lived programs (ffmpeg) from a small helper process instead of forking this one.
 *
 * Node starts a child with fork() + exec(). After a fork, every page of the parent's memory is
 * copy-on-write until written again, and on these machines (a virtual machine, where each page
 * fault is dear) a process that holds the recognition index (hundreds of MB) and decodes a chunk
 * before each recognition paid for it on every chunk: a 10 s query at 1,000 songs took 38 ms in a
 * process that had not forked and 85-118 ms in the 4-6 queries after a fork (1,700-3,000 minor
 * page faults each, measured). The helper is a bare Node process started once, while this process
 * is still small; it forks the programs, and their output comes back over its IPC channel as it
 * is produced (so memory is the same as reading the program's pipe directly).
 *
 * The helper ends with this process (its channel closes) and never keeps it alive while idle; if
 * it dies, the runs in flight fail and the next run starts a new one.
 */
import { type ChildProcess, spawn } from 'node:child_process';

/** How a program run ended. */
export interface ProgramExit {
  /** Exit status; null when a signal ended it. */
  code: number | null;
  signal: string | null;
  /** The last 4,000 characters it wrote to stderr. */
  stderr: string;
}

/** The program could not be started (code ENOENT: not found). */
export class ProgramStartError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'ProgramStartError';
  }
}

type HelperMessage =
  | { id: number; data: Uint8Array }
  | { id: number; exit: ProgramExit }
  | { id: number; error: { message: string; code?: string } };

// The helper's whole program (CommonJS, no imports of ours: it runs the same from dist and under
// the test runner). One message per stdout chunk, then the exit (or the start error).
const HELPER_SOURCE = `
const { spawn } = require('node:child_process');
process.on('message', ({ id, command, args }) => {
  let done = false;
  const finish = (message) => { if (!done) { done = true; process.send(message); } };
  let child;
  try {
    child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    finish({ id, error: { message: error.message, code: error.code } });
    return;
  }
  let stderr = '';
  child.stdout.on('data', (data) => { if (!done) process.send({ id, data }); });
  child.stderr.on('data', (chunk) => { stderr = (stderr + chunk.toString('utf8')).slice(-4000); });
  child.on('error', (error) => finish({ id, error: { message: error.message, code: error.code } }));
  child.on('close', (code, signal) => finish({ id, exit: { code, signal, stderr } }));
});
process.on('disconnect', () => process.exit(0));
`;

interface Run {
  onStdout: (data: Uint8Array) => void;
  resolve: (exit: ProgramExit) => void;
  reject: (error: Error) => void;
}

let helper: ChildProcess | undefined;
const runs = new Map<number, Run>();
let nextId = 1;

function startHelper(): ChildProcess {
  const child = spawn(process.execPath, ['-e', HELPER_SOURCE], {
    // execArgv of this process (a test runner's, a debugger's) are not passed on.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  child.on('message', (message: HelperMessage) => {
    const run = runs.get(message.id);
    if (!run) return;
    if ('data' in message) {
      run.onStdout(message.data);
      return;
    }
    runs.delete(message.id);
    idleWhenDone(child);
    if ('exit' in message) run.resolve(message.exit);
    else run.reject(new ProgramStartError(message.error.message, message.error.code));
  });
  const lost = (reason: string) => {
    if (helper === child) helper = undefined;
    for (const [id, run] of runs) {
      runs.delete(id);
      run.reject(new Error(`the helper process that runs ffmpeg ${reason}`));
    }
  };
  child.on('exit', (code, signal) => lost(`stopped (${signal ?? `status ${code}`})`));
  child.on('error', (error) => lost(`failed: ${error.message}`));
  idleWhenDone(child);
  return child;
}

/** An idle helper does not keep this process alive; one with runs in flight does. */
function idleWhenDone(child: ChildProcess): void {
  const channel = child.channel as { ref(): void; unref(): void } | undefined;
  if (runs.size === 0) {
    child.unref();
    channel?.unref();
  } else {
    child.ref();
    channel?.ref();
  }
}

/**
 * Starts the helper now, if it is not running: a process about to grow (the server before it
 * loads the recognition index) forks while it is small. Runs start it anyway when needed.
 */
export function startSpawnHelper(): ChildProcess {
  helper ??= startHelper();
  return helper;
}

/**
 * Runs `command args` through the helper: stdout goes to `onStdout` as it comes, stderr is kept
 * (its end). Resolves with the exit, whatever the status; rejects with ProgramStartError when the
 * program could not start, or with an Error when the helper itself was lost.
 */
export function runProgram(
  command: string,
  args: readonly string[],
  onStdout: (data: Uint8Array) => void,
): Promise<ProgramExit> {
  const child = startSpawnHelper();
  const id = nextId++;
  return new Promise<ProgramExit>((resolve, reject) => {
    runs.set(id, { onStdout, resolve, reject });
    idleWhenDone(child);
    child.send({ id, command, args: [...args] }, (error) => {
      if (!error || !runs.has(id)) return;
      runs.delete(id);
      idleWhenDone(child);
      reject(new Error(`the helper process that runs ffmpeg could not be reached: ${error.message}`));
    });
  });
}

/** Runs a program through the helper and collects its stdout (for short outputs: a clip, a chunk). */
export async function runProgramCollect(
  command: string,
  args: readonly string[],
): Promise<ProgramExit & { stdout: Buffer }> {
  const chunks: Uint8Array[] = [];
  const exit = await runProgram(command, args, (data) => chunks.push(data));
  return { ...exit, stdout: Buffer.concat(chunks) };
}
