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

/** Warm programs kept per command line (see runProgram's `keepWarm`). */
const WARM_PER_LINE = 2;
/** Command lines kept warm at once; the least recently used one's programs are ended. */
const WARM_LINES = 2;
/** A command line not run for this long has its warm programs ended. */
const WARM_IDLE_MS = 10 * 60_000;

type HelperMessage =
  | { id: number; data: Uint8Array }
  | { id: number; exit: ProgramExit; output?: Uint8Array }
  | { id: number; error: { message: string; code?: string } };

// The helper's whole program (CommonJS, no imports of ours: it runs the same from dist and under
// the test runner). One message per stdout chunk, then the exit (or the start error); a run that
// collects its output gets it whole with the exit, in one message.
const HELPER_SOURCE = `
const { spawn } = require('node:child_process');
// Warm programs: started ahead, blocked reading their stdin, one list per command line.
const warm = new Map();
const WARM_PER_LINE = ${WARM_PER_LINE};
const WARM_LINES = ${WARM_LINES};
const WARM_IDLE_MS = ${WARM_IDLE_MS};
function startProgram(command, args, withStdin) {
  const child = spawn(command, args, { stdio: [withStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  // Output, end and errors are held until a run claims the program.
  const program = { child, owner: null, held: [], stderr: '' };
  const deliver = (event) => { if (program.owner) program.owner(event); else program.held.push(event); };
  child.stdout.on('data', (data) => deliver({ data }));
  child.stderr.on('data', (chunk) => { program.stderr = (program.stderr + chunk.toString('utf8')).slice(-4000); });
  child.on('error', (error) => deliver({ error: { message: error.message, code: error.code } }));
  child.on('close', (code, signal) => deliver({ exit: { code, signal, stderr: program.stderr } }));
  if (withStdin) child.stdin.on('error', () => {});
  return program;
}
function claim(program, id, collect) {
  let done = false;
  const output = [];
  const handle = (event) => {
    if (done) return;
    if (event.data) {
      if (collect) output.push(event.data);
      else process.send({ id, data: event.data });
      return;
    }
    done = true;
    if (event.error) process.send({ id, error: event.error });
    else if (collect) process.send({ id, exit: event.exit, output: Buffer.concat(output) });
    else process.send({ id, exit: event.exit });
  };
  program.owner = handle;
  for (const event of program.held.splice(0)) handle(event);
}
function topUp(line) {
  const entry = warm.get(line.key);
  if (!entry) return;
  entry.programs = entry.programs.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
  while (entry.programs.length < WARM_PER_LINE) {
    try { entry.programs.push(startProgram(line.command, line.args, true)); } catch { return; }
  }
}
function takeWarm(command, args) {
  const key = JSON.stringify([command, args]);
  let entry = warm.get(key);
  if (entry) warm.delete(key);
  else entry = { programs: [], timer: null };
  warm.set(key, entry); // the most recently used line last
  for (const [oldKey, old] of warm) {
    if (warm.size <= WARM_LINES) break;
    warm.delete(oldKey);
    clearTimeout(old.timer);
    for (const p of old.programs) p.child.kill();
  }
  clearTimeout(entry.timer);
  entry.timer = setTimeout(() => {
    warm.delete(key);
    for (const p of entry.programs) p.child.kill();
  }, WARM_IDLE_MS);
  entry.timer.unref();
  let program;
  while (entry.programs.length > 0 && !program) {
    const candidate = entry.programs.shift();
    if (candidate.child.exitCode === null && candidate.child.signalCode === null) program = candidate;
    else candidate.child.kill();
  }
  return { key, command, args, program };
}
process.on('message', ({ id, command, args, stdin, keepWarm, collect }) => {
  let program;
  let line;
  try {
    if (keepWarm) {
      line = takeWarm(command, args);
      program = line.program;
    }
    program ??= startProgram(command, args, stdin !== undefined);
  } catch (error) {
    process.send({ id, error: { message: error.message, code: error.code } });
    return;
  }
  claim(program, id, collect);
  if (stdin !== undefined && program.child.stdin) program.child.stdin.end(stdin);
  // The next program of this line starts once this one is done, so it never competes with it.
  if (line) program.child.on('close', () => topUp(line));
});
process.on('disconnect', () => {
  for (const entry of warm.values()) for (const p of entry.programs) p.child.kill();
  process.exit(0);
});
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
    if ('output' in message && message.output) run.onStdout(message.output);
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

/** How a program is run. */
export interface RunOptions {
  /** Written to the program's stdin, which is then closed (without it stdin is /dev/null). */
  stdin?: string;
  /**
   * Keep programs of this exact command line started ahead, blocked reading their stdin (needs
   * `stdin`): the run takes one and writes its input, and the next starts after the run. Starting
   * ffmpeg is about half of decoding a 30 s chunk (about 60 ms of a 0.15 s decode on an idle
   * core, 100 ms of 0.25 s under load: the dynamic linker loads some 200 libraries), and an
   * upload waits for that decode (services/recordings/recordings.ts). At most WARM_PER_LINE
   * programs for each of the WARM_LINES most recent lines, ended after WARM_IDLE_MS unused and
   * with the helper.
   */
  keepWarm?: boolean;
  /**
   * The output comes whole, with the exit, in one message (runProgramCollect): this process then
   * handles one message per run, not one per pipe read (a 30 s chunk decoded at 8 kHz is 960 kB,
   * 15 reads). Each message is a turn of the event loop, and a recognition running in this
   * process takes a window between turns (audio/fingerprint/index.ts), so an upload waited for
   * up to one window per read.
   */
  collect?: boolean;
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
  options: RunOptions = {},
): Promise<ProgramExit> {
  const child = startSpawnHelper();
  const id = nextId++;
  return new Promise<ProgramExit>((resolve, reject) => {
    runs.set(id, { onStdout, resolve, reject });
    idleWhenDone(child);
    const message = {
      id,
      command,
      args: [...args],
      stdin: options.stdin,
      keepWarm: options.keepWarm,
      collect: options.collect,
    };
    child.send(message, (error) => {
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
  options: RunOptions = {},
): Promise<ProgramExit & { stdout: Buffer }> {
  const chunks: Uint8Array[] = [];
  const exit = await runProgram(command, args, (data) => chunks.push(data), { ...options, collect: true });
  return { ...exit, stdout: Buffer.concat(chunks) };
}
