import { resolve } from 'node:path';
import { ProgramStartError, runProgram, runProgramCollect } from './spawn-helper.js';

export interface DecodeOptions {
  /** Output sample rate in Hz (ffmpeg resamples; soxr when available is not required). */
  sampleRate: number;
  /** The ffmpeg binary (config.ffmpegPath). */
  ffmpegPath?: string;
  /** Start this many seconds into the file. */
  startSeconds?: number;
  /** Decode at most this many seconds. */
  durationSeconds?: number;
  /**
   * 'mix' (default): the channels averaged. 'first': the first channel alone, for a mix whose
   * channels cancel when averaged (one channel phase-inverted, a tracker's "surround").
   */
  channels?: 'mix' | 'first';
  /**
   * Decode with an ffmpeg started ahead of time (spawn-helper.ts, `keepWarm`): for the decodes on
   * a request's path (an uploaded chunk's check) and the job that follows with the same command
   * line. ffmpeg then reads the file's name from its stdin, through its concat demuxer, which
   * opens the file as `-i file` would and gives the same samples.
   */
  keepWarm?: boolean;
}

/** ffmpeg could not read the audio: a clear reason for the song or recording, never a crash. */
export class DecodeError extends Error {
  constructor(
    readonly file: string,
    /** ffmpeg's words, without the file's path (safe to show a client). */
    readonly reason: string,
  ) {
    super(`could not decode ${file}: ${reason}`);
    this.name = 'DecodeError';
  }
}

/**
 * The last lines ffmpeg wrote to stderr, which name the problem (codec, missing file...). A warm
 * decode's lines about its concat list are left out and its input named as the file, so both
 * ways of decoding give one reason. The addresses in "[mp3 @ 0x55...]" mean nothing to a reader.
 */
function stderrReason(stderr: string, file: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('[concat @'))
    .map((line) => (line.startsWith(`${WARM_INPUT}:`) ? file + line.slice(WARM_INPUT.length) : line))
    .map((line) => line.replace(/^\[([^\]]*?) @ 0x[0-9a-f]+\]/, '[$1]'));
  return lines.slice(-2).join(' / ') || 'ffmpeg produced no audio';
}

/** Where a warm ffmpeg reads its concat list of one file. */
const WARM_INPUT = 'pipe:0';

/**
 * ffmpeg's input arguments for `file`, and what to write to its stdin. Warm: a concat list of the
 * one file, read from stdin (the list's syntax quotes with '...' and escapes a quote as '\'';
 * a name with a line break cannot be listed and is decoded cold).
 */
function inputOf(file: string, keepWarm: boolean): { args: string[]; stdin?: string } {
  if (!keepWarm || /[\r\n]/.test(file)) return { args: ['-i', file] };
  const url = `file:${resolve(file)}`.replaceAll("'", "'\\''");
  return {
    // -safe 0: the list names an absolute path. The whitelist lets the list (pipe) open the file.
    args: ['-f', 'concat', '-safe', '0', '-protocol_whitelist', 'file,pipe', '-i', WARM_INPUT],
    stdin: `file '${url}'\n`,
  };
}

/**
 * Decodes one or more files, in order, to one mono 32-bit float signal at `sampleRate` (channels
 * averaged). Several files are concatenated as if they were one stream (the chunks of a recording).
 */
export async function decodeAudio(
  files: string | readonly string[],
  options: DecodeOptions,
): Promise<Float32Array> {
  const list = typeof files === 'string' ? [files] : [...files];
  if (list.length === 0) return new Float32Array(0);
  const parts: Float32Array[] = [];
  for (const file of list) parts.push(await decodeOne(file, options));
  if (parts.length === 1) return parts[0]!;
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const joined = new Float32Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

async function decodeOne(file: string, options: DecodeOptions): Promise<Float32Array> {
  try {
    return await decodeOrStartError(file, options);
  } catch (error) {
    if (!(error instanceof ProgramStartError)) throw error;
    const ffmpeg = options.ffmpegPath ?? 'ffmpeg';
    throw new DecodeError(
      file,
      error.code === 'ENOENT'
        ? `ffmpeg was not found (${ffmpeg}); install it or set FFMPEG_PATH`
        : error.message,
    );
  }
}

/** decodeOne, but a ffmpeg that cannot start is a ProgramStartError (the server's fault). */
async function decodeOrStartError(file: string, options: DecodeOptions): Promise<Float32Array> {
  const ffmpeg = options.ffmpegPath ?? 'ffmpeg';
  const run = (warm: boolean) => {
    const args = ['-hide_banner', '-nostdin', '-loglevel', 'error'];
    if (options.startSeconds) args.push('-ss', String(options.startSeconds));
    const input = inputOf(file, warm);
    args.push(...input.args);
    if (options.durationSeconds !== undefined) args.push('-t', String(options.durationSeconds));
    args.push(
      '-vn',
      ...(options.channels === 'first' ? ['-af', 'pan=mono|c0=c0'] : ['-ac', '1']),
      '-ar',
      String(options.sampleRate),
      '-f',
      'f32le',
      '-acodec',
      'pcm_f32le',
      'pipe:1',
    );
    // Through the spawn helper: forking this process (which may hold the recognition index) costs
    // page faults on every recognition that follows (spawn-helper.ts).
    return runProgramCollect(ffmpeg, args, { stdin: input.stdin, keepWarm: input.stdin !== undefined });
  };
  let exit = await run(options.keepWarm === true);
  // A warm ffmpeg ended by a signal died waiting (killed while idle, as an operator's `pkill` or
  // the kernel's OOM killer would): that says nothing of the file, which is decoded again cold
  // rather than refused (an upload would otherwise answer 415 for a good chunk).
  if (options.keepWarm === true && exit.signal !== null) exit = await run(false);
  if (exit.code !== 0) throw new DecodeError(file, stderrReason(exit.stderr, file));
  const bytes = exit.stdout;
  const usable = bytes.byteLength - (bytes.byteLength % 4);
  // Copy into an aligned buffer: the collected bytes may start at any byte offset.
  const samples = new Float32Array(usable / 4);
  new Uint8Array(samples.buffer).set(bytes.subarray(0, usable));
  return samples;
}

/**
 * Decodes the whole file as `decodeAudio` does and refuses a file without samples: the check of an
 * uploaded chunk, whose samples then serve its recognition (no second decode). A file whose first
 * bytes look like audio but whose content is not (a WebM header followed by anything else) fails
 * here with DecodeError, where a check of its magic bytes alone would pass it. Throws
 * ProgramStartError when ffmpeg cannot be started.
 */
export async function decodeWholeAudio(file: string, options: DecodeOptions): Promise<Float32Array> {
  const samples = await decodeOrStartError(file, options);
  if (samples.length === 0) throw new DecodeError(file, 'it holds no audio samples');
  return samples;
}

/** The rate `measureDecodableAudio` decodes at: enough to count samples, cheap to carry. */
const PROBE_RATE = 2000;

/**
 * Decodes the whole file (at a low rate, mono, nothing kept) and returns how many seconds of audio
 * it holds, or throws DecodeError with ffmpeg's reason. A file whose first bytes look like audio
 * but whose content is not (a WebM header followed by anything else) fails here, where a check of
 * its magic bytes alone would pass it. About 0.1 s for a 30 s Opus chunk. Throws ProgramStartError
 * when ffmpeg cannot be started.
 */
export async function measureDecodableAudio(file: string, ffmpegPath = 'ffmpeg'): Promise<number> {
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-i', file, '-map', '0:a:0'];
  args.push('-ac', '1', '-ar', String(PROBE_RATE), '-f', 's16le', '-acodec', 'pcm_s16le', 'pipe:1');
  let bytes = 0;
  // A ProgramStartError (ffmpeg missing) goes to the caller: the server's fault, not the file's.
  const exit = await runProgram(ffmpegPath, args, (data) => {
    bytes += data.byteLength;
  });
  if (exit.code !== 0) throw new DecodeError(file, stderrReason(exit.stderr, file));
  if (bytes === 0) throw new DecodeError(file, 'it holds no audio samples');
  return bytes / 2 / PROBE_RATE;
}
