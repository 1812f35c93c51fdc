/**
 * The recorder's spool: chunks wait on disk until the server has them, so a network outage, a
 * server restart or a power cut of the device loses no audio. One folder per recording session:
 *
 *   <spool>/<session_id>/session.json     who, when, which event (written before capture starts)
 *   <spool>/<session_id>/chunks.csv       ffmpeg's segment list: "file,start_s,end_s" per finished chunk
 *   <spool>/<session_id>/chunk-000000.ogg the chunks themselves, deleted once uploaded
 *   <spool>/rejected/<session_id>/...     chunks the server refused, with the reason next to them
 *
 * A chunk is ready when ffmpeg has closed it: it is listed in chunks.csv and the next chunk has
 * been opened, or its session is no longer being captured. A session left behind by a crash may
 * end in a chunk that was never listed: it is measured by decoding it, and sent like the others.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { decodeAudio } from '../audio/decode.js';
import { isProcessAlive } from '../processes.js';

export const SESSION_FILE = 'session.json';
export const LIST_FILE = 'chunks.csv';
export const REJECTED_DIR = 'rejected';
export const LOCK_FILE = 'record.lock';
/** ffmpeg's output pattern for the segment muxer, and the names it produces. */
export const CHUNK_PATTERN = 'chunk-%06d.ogg';
const CHUNK_NAME = /^chunk-(\d{6,})\.ogg$/;
export const chunkFileName = (chunkNumber: number) => `chunk-${String(chunkNumber).padStart(6, '0')}.ogg`;

/** What the server needs to know about a session, kept with its chunks so a restart resumes it. */
export interface SessionInfo {
  session_id: string;
  /** ISO time capture started; a chunk's recorded_at is this plus its start offset. */
  started_at: string;
  event_id: number | null;
  /** The recording's name on the server. */
  filename: string;
  chunk_seconds: number;
}

/** One chunk ready to be sent. */
export interface SpoolChunk {
  session: SessionInfo;
  chunkNumber: number;
  file: string;
  durationSeconds: number;
  /** ISO time the chunk began. */
  recordedAt: string;
}

/** A chunk the spool could not make sense of (unreadable orphan): the uploader sets it aside. */
export interface BrokenChunk {
  session: SessionInfo;
  chunkNumber: number;
  file: string;
  reason: string;
}

export class SpoolInUseError extends Error {
  override name = 'SpoolInUseError';
}

/** A session id the upload API accepts: letters, digits and . _ : - (at most 128). */
export function newSessionId(hostname: string, now: Date, random: string): string {
  const host =
    hostname
      .replace(/[^A-Za-z0-9.]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'device';
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `rec-${host}-${stamp}-${random}`;
}

interface ListEntry {
  start: number;
  end: number;
}

/** Parses ffmpeg's csv segment list; a torn last line (power cut while writing) is ignored. */
export function parseSegmentList(text: string): Map<number, ListEntry> {
  const entries = new Map<number, ListEntry>();
  for (const line of text.split('\n')) {
    const [name, start, end] = line.trim().split(',');
    const match = CHUNK_NAME.exec(name ?? '');
    const startS = Number(start);
    const endS = Number(end);
    if (!match || end === undefined || !Number.isFinite(startS) || !Number.isFinite(endS) || endS <= startS) {
      continue;
    }
    entries.set(Number(match[1]), { start: startS, end: endS });
  }
  return entries;
}

async function readText(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

export interface SpoolOptions {
  ffmpegPath?: string;
}

export class Spool {
  /** The session ffmpeg is writing now: its last listed chunk may not be closed yet. */
  private activeSessionId: string | null = null;
  /** Measured lengths of unlisted chunks, by file and size: decoding is not repeated on each retry. */
  private readonly measured = new Map<string, number | string>();

  constructor(
    readonly dir: string,
    private readonly options: SpoolOptions = {},
  ) {}

  /**
   * Takes the spool for this process (a second `wcs record` on the same spool would upload the
   * same chunks twice and fight over the capture). A lock left by a dead process is taken over.
   */
  async lock(): Promise<() => Promise<void>> {
    await fs.mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, LOCK_FILE);
    const owner = Number.parseInt((await readText(file)) ?? '', 10);
    if (owner && owner !== process.pid && isProcessAlive(owner)) {
      throw new SpoolInUseError(
        `The spool ${this.dir} is in use by another "wcs record" (pid ${owner}). Stop it first, or use another --spool.`,
      );
    }
    await fs.writeFile(file, `${process.pid}\n`);
    return async () => {
      if ((await readText(file))?.trim() === String(process.pid)) await fs.rm(file, { force: true });
    };
  }

  sessionDir(sessionId: string): string {
    return path.join(this.dir, sessionId);
  }

  /** Creates the folder of a new session and marks it as being captured. */
  async createSession(info: SessionInfo): Promise<string> {
    const dir = this.sessionDir(info.session_id);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, SESSION_FILE), `${JSON.stringify(info, null, 2)}\n`);
    this.activeSessionId = info.session_id;
    return dir;
  }

  /** Capture of the active session has ended: its last chunk is final. */
  endActiveSession(): void {
    this.activeSessionId = null;
  }

  /** Every session in the spool, oldest first. Folders without a readable session.json are skipped. */
  async sessions(): Promise<SessionInfo[]> {
    let names: string[];
    try {
      const entries = await fs.readdir(this.dir, { withFileTypes: true });
      names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const sessions: SessionInfo[] = [];
    for (const name of names) {
      if (name === REJECTED_DIR) continue;
      const text = await readText(path.join(this.dir, name, SESSION_FILE));
      if (text === null) continue;
      try {
        const info = JSON.parse(text) as SessionInfo;
        if (info.session_id === name) sessions.push(info);
      } catch {
        // A session.json torn by a power cut right at the start: no chunk was written yet.
      }
    }
    return sessions.sort(
      (a, b) => a.started_at.localeCompare(b.started_at) || a.session_id.localeCompare(b.session_id),
    );
  }

  /**
   * The chunks ready to send, in upload order (oldest session first, then by number), and the
   * chunks that cannot be sent (unreadable leftovers of a crash). Finished sessions with nothing
   * left are removed.
   */
  async pending(): Promise<{ ready: SpoolChunk[]; broken: BrokenChunk[] }> {
    const ready: SpoolChunk[] = [];
    const broken: BrokenChunk[] = [];
    for (const session of await this.sessions()) {
      const dir = this.sessionDir(session.session_id);
      const active = session.session_id === this.activeSessionId;
      const files = new Map<number, string>();
      for (const name of await fs.readdir(dir)) {
        const match = CHUNK_NAME.exec(name);
        if (match) files.set(Number(match[1]), path.join(dir, name));
      }
      if (files.size === 0 && !active) {
        await fs.rm(dir, { recursive: true, force: true });
        continue;
      }
      const listed = parseSegmentList((await readText(path.join(dir, LIST_FILE))) ?? '');
      const numbers = [...files.keys()].sort((a, b) => a - b);
      for (const chunkNumber of numbers) {
        const file = files.get(chunkNumber)!;
        const entry = listed.get(chunkNumber);
        if (active) {
          // Listed, and ffmpeg has moved on to the next file: this one is closed.
          if (!entry || !(listed.has(chunkNumber + 1) || files.has(chunkNumber + 1))) break;
        }
        const start = entry?.start ?? listed.get(chunkNumber - 1)?.end ?? chunkNumber * session.chunk_seconds;
        let duration = entry ? entry.end - entry.start : null;
        if (duration === null) {
          const measured = await this.measure(file);
          if (typeof measured === 'string') {
            broken.push({ session, chunkNumber, file, reason: measured });
            continue;
          }
          if (measured === 0) {
            // Opened by ffmpeg, then the power went: no audio in it.
            await fs.rm(file, { force: true });
            continue;
          }
          duration = measured;
        }
        ready.push({
          session,
          chunkNumber,
          file,
          durationSeconds: round3(duration),
          recordedAt: new Date(Date.parse(session.started_at) + Math.round(start * 1000)).toISOString(),
        });
      }
    }
    return { ready, broken };
  }

  /** Seconds of audio in a chunk that ffmpeg never listed, or why it cannot be read. */
  private async measure(file: string): Promise<number | string> {
    const { size } = await fs.stat(file);
    if (size === 0) return 0;
    const key = `${file}:${size}`;
    const known = this.measured.get(key);
    if (known !== undefined) return known;
    const result = await this.decodeLength(file);
    this.measured.set(key, result);
    return result;
  }

  private async decodeLength(file: string): Promise<number | string> {
    try {
      const sampleRate = 8000;
      const samples = await decodeAudio(file, {
        sampleRate,
        ...(this.options.ffmpegPath ? { ffmpegPath: this.options.ffmpegPath } : {}),
      });
      return samples.length / sampleRate;
    } catch (error) {
      return `unreadable chunk left by an interrupted capture: ${(error as Error).message}`;
    }
  }

  /** The server has the chunk: it leaves the spool. */
  async remove(chunk: { file: string }): Promise<void> {
    await fs.rm(chunk.file, { force: true });
  }

  /** Moves a chunk the server refused out of the queue, keeping it (and why) for a human. */
  async setAside(chunk: { session: SessionInfo; file: string }, reason: string): Promise<string> {
    const dir = path.join(this.dir, REJECTED_DIR, chunk.session.session_id);
    await fs.mkdir(dir, { recursive: true });
    const target = path.join(dir, path.basename(chunk.file));
    await fs.rename(chunk.file, target);
    await fs.writeFile(`${target}.reason.txt`, `${new Date().toISOString()} ${reason}\n`);
    const info = path.join(dir, SESSION_FILE);
    if ((await readText(info)) === null) {
      await fs.writeFile(info, `${JSON.stringify(chunk.session, null, 2)}\n`);
    }
    return target;
  }
}
