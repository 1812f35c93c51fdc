import { spawn } from 'node:child_process';

export interface DecodeOptions {
  /** Output sample rate in Hz (ffmpeg resamples; soxr when available is not required). */
  sampleRate: number;
  /** The ffmpeg binary (config.ffmpegPath). */
  ffmpegPath?: string;
  /** Start this many seconds into the file. */
  startSeconds?: number;
  /** Decode at most this many seconds. */
  durationSeconds?: number;
}

/** ffmpeg could not read the audio: a clear reason for the song or recording, never a crash. */
export class DecodeError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`could not decode ${file}: ${reason}`);
    this.name = 'DecodeError';
  }
}

/** The last lines ffmpeg wrote to stderr, which name the problem (codec, missing file...). */
function stderrReason(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.slice(-2).join(' / ') || 'ffmpeg produced no audio';
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

function decodeOne(file: string, options: DecodeOptions): Promise<Float32Array> {
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error'];
  if (options.startSeconds) args.push('-ss', String(options.startSeconds));
  args.push('-i', file);
  if (options.durationSeconds !== undefined) args.push('-t', String(options.durationSeconds));
  args.push(
    '-vn',
    '-ac',
    '1',
    '-ar',
    String(options.sampleRate),
    '-f',
    'f32le',
    '-acodec',
    'pcm_f32le',
    'pipe:1',
  );
  return new Promise((resolve, reject) => {
    const child = spawn(options.ffmpegPath ?? 'ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', (error) =>
      reject(
        new DecodeError(
          file,
          (error as NodeJS.ErrnoException).code === 'ENOENT'
            ? `ffmpeg was not found (${options.ffmpegPath ?? 'ffmpeg'}); install it or set FFMPEG_PATH`
            : error.message,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new DecodeError(file, stderrReason(stderr)));
        return;
      }
      const bytes = Buffer.concat(chunks);
      const usable = bytes.byteLength - (bytes.byteLength % 4);
      // Copy into an aligned buffer: Buffer.concat may return a slice at any byte offset.
      const samples = new Float32Array(usable / 4);
      new Uint8Array(samples.buffer).set(bytes.subarray(0, usable));
      resolve(samples);
    });
  });
}
