/**
 * Captures the room with ffmpeg and cuts it into chunks on disk: Opus at 128 kbit/s, mono, 48 kHz,
 * in Ogg (every Ogg page stands on its own, so a chunk cut short by a power failure still decodes),
 * through ffmpeg's segment muxer, which also lists each finished chunk with its start and end in
 * chunks.csv (see spool.ts). Stopping sends ffmpeg SIGINT, which closes the last, partial chunk
 * properly and lists it.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { CHUNK_PATTERN, LIST_FILE } from './spool.js';

/** Where the audio comes from: an ALSA device, or any ffmpeg input (a file, `lavfi:<graph>`). */
export type CaptureSource =
  | { kind: 'alsa'; device: string }
  | {
      kind: 'input';
      spec: string /** Read at the input's own pace (`-re`), as a live device would. */;
      realtime: boolean;
    };

export interface CaptureOptions {
  source: CaptureSource;
  /** The session folder the chunks go to. */
  dir: string;
  chunkSeconds: number;
  ffmpegPath?: string;
}

export const OPUS_BITRATE = '128k';
export const SAMPLE_RATE = 48_000;

/** The ffmpeg command line for a capture (exported for tests and for `--help` accuracy). */
export function captureArgs(options: CaptureOptions): string[] {
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error'];
  const { source } = options;
  if (source.kind === 'alsa') {
    args.push('-f', 'alsa', '-i', source.device);
  } else {
    if (source.realtime) args.push('-re');
    if (source.spec.startsWith('lavfi:')) args.push('-f', 'lavfi', '-i', source.spec.slice('lavfi:'.length));
    else args.push('-i', source.spec);
  }
  args.push(
    '-vn',
    '-ac',
    '1',
    '-ar',
    String(SAMPLE_RATE),
    '-c:a',
    'libopus',
    '-b:a',
    OPUS_BITRATE,
    '-f',
    'segment',
    '-segment_time',
    String(options.chunkSeconds),
    '-segment_format',
    'ogg',
    // Each Ogg page reaches the file as soon as the muxer lets go of it (about every second), so
    // a crash of ffmpeg loses a second or two of the chunk, not a 32 kB write buffer.
    '-segment_format_options',
    'flush_packets=1',
    '-reset_timestamps',
    '1',
    '-segment_list',
    path.join(options.dir, LIST_FILE),
    '-segment_list_type',
    'csv',
    path.join(options.dir, CHUNK_PATTERN),
  );
  return args;
}

export interface CaptureExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when the capture ended by itself (input finished or failed), not by stop(). */
  unasked: boolean;
  /** What ffmpeg said on stderr (its last lines), for error reports. */
  stderr: string;
}

export interface Capture {
  readonly pid: number | undefined;
  /** Resolves when ffmpeg has exited (never rejects: a failure to start is an exit with its reason). */
  readonly exited: Promise<CaptureExit>;
  /**
   * Asks ffmpeg to finish (SIGINT: it closes and lists the last chunk), and kills it after
   * `timeoutMs` if it has not. Resolves with its exit.
   */
  stop(timeoutMs: number): Promise<CaptureExit>;
}

export function startCapture(options: CaptureOptions): Capture {
  const ffmpeg = options.ffmpegPath ?? 'ffmpeg';
  const child = spawn(ffmpeg, captureArgs(options), { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let stopping = false;
  child.stderr.on('data', (data: Buffer) => {
    stderr = (stderr + data.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<CaptureExit>((resolve) => {
    child.on('error', (error) => {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? `ffmpeg was not found (${ffmpeg}); install it or set FFMPEG_PATH`
          : error.message;
      resolve({ code: null, signal: null, unasked: !stopping, stderr: reason });
    });
    child.on('close', (code, signal) => {
      resolve({ code, signal, unasked: !stopping, stderr: stderr.trim() });
    });
  });
  return {
    pid: child.pid,
    exited,
    async stop(timeoutMs) {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
