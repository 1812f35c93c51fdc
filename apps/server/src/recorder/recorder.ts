/**
 * `wcs record` without the command line: takes the spool, checks the token with the server,
 * resumes the chunks earlier runs left behind, starts a new session and its capture, and uploads
 * while recording. On stop (Ctrl+C, SIGTERM: the caller aborts `signal`) or when the input ends,
 * ffmpeg closes the last chunk and the uploader gets a bounded time to send what is left; what it
 * cannot send stays in the spool for the next start. When the server refuses the recorder itself
 * (a revoked token, a role that may not upload), it stops at once, exit code 1, spool kept.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { api, type Role, roleAllows } from '@wcs/contract';
import { type CaptureExit, type CaptureSource, startCapture } from './capture.js';
import { newSessionId, type SessionInfo, Spool } from './spool.js';
import {
  callServer,
  closeTarget,
  type ServerTarget,
  serverTarget,
  type UploadDenied,
  Uploader,
  type UploaderEvents,
} from './uploader.js';

export interface RecorderOptions {
  server: string;
  /** A device token of role dj or admin (`wcs token create --name <device> --role dj`). */
  token: string;
  /** The server's certificate in PEM, trusted alone (--ca): for a self-signed one. */
  ca?: string | undefined;
  spoolDir: string;
  source: CaptureSource;
  eventId?: number | undefined;
  chunkSeconds: number;
  /** How long to keep uploading after capture has stopped. */
  drainMs: number;
  ffmpegPath?: string;
  log: (line: string) => void;
  /** Upload tuning, for tests. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  pollMs?: number;
  events?: UploaderEvents;
}

export interface RecorderResult {
  session: SessionInfo;
  capture: CaptureExit;
  uploaded: number;
  rejected: number;
  /** Chunks still in the spool, sent on the next start. */
  left: number;
  /** Set when the server refused the recorder itself (401, 403, 421): it stopped, spool kept. */
  denied: UploadDenied | null;
  /** 0, or 1 when the capture failed by itself or the server refused the recorder. */
  exitCode: number;
}

/** Thrown at start when the server refuses the recorder: nothing was recorded, the spool is as it was. */
export class RecorderDeniedError extends Error {
  override name = 'RecorderDeniedError';
}

async function jsonMessage(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : null;
  } catch {
    return null;
  }
}

/**
 * Asks the server who the token is before recording: a token that is not valid, or whose role may
 * not upload, stops the start with the server's reason. An unreachable server is not an error
 * here (the uploader will wait for it, and stops on the same answer later).
 */
async function checkToken(
  server: ServerTarget,
  spoolDir: string,
  log: (line: string) => void,
): Promise<void> {
  let response: Response;
  try {
    response = await callServer(server, api.session.path, { signal: AbortSignal.timeout(10_000) });
  } catch {
    log('could not check the token: the server does not answer yet');
    return;
  }
  const keep = `unsent chunks stay in ${spoolDir}`;
  if (response.status === 401 || response.status === 403 || response.status === 421) {
    const message = (await jsonMessage(response)) ?? `HTTP ${response.status}`;
    throw new RecorderDeniedError(
      `the server ${server.url} refuses this recorder (${response.status}): ${message} (${keep})`,
    );
  }
  if (!response.ok) return;
  const { identity } = (await response.json()) as { identity?: { name: string; role: Role } | null };
  if (!identity) return;
  if (!roleAllows(identity.role, api.uploadRecording.access as Role)) {
    throw new RecorderDeniedError(
      `the token ${identity.name} has the role ${identity.role}, which may not upload recordings: ask an admin for a token of role dj ("wcs token create --name <device> --role dj") (${keep})`,
    );
  }
  log(`uploading to ${server.url} as ${identity.name} (${identity.role})`);
}

/**
 * With --event, the event must exist: otherwise the server would refuse every chunk. Checked when
 * the server answers; an unreachable server is not an error here (the uploader will wait for it).
 */
async function checkEvent(server: ServerTarget, eventId: number, log: (line: string) => void): Promise<void> {
  let response: Response;
  try {
    response = await callServer(server, api.getEvent.path.replace(':id', String(eventId)), {
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    log(`could not check event ${eventId}: the server does not answer yet`);
    return;
  }
  if (response.status === 404) {
    throw new Error(
      `event ${eventId} does not exist on ${server.url}: check --event (the Events page lists the ids)`,
    );
  }
  if (response.ok) {
    const event = (await response.json()) as { name?: string };
    log(`recording for event ${eventId}${event.name ? ` (${event.name})` : ''}`);
  }
}

/** ffmpeg's last few stderr lines on one line: they name the problem (device, codec, file). */
function lastLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(-3)
    .join(' / ');
}

export async function runRecorder(options: RecorderOptions, signal: AbortSignal): Promise<RecorderResult> {
  const server = serverTarget(options);
  const { log } = options;
  const spool = new Spool(options.spoolDir, options.ffmpegPath ? { ffmpegPath: options.ffmpegPath } : {});
  const unlock = await spool.lock();
  try {
    await checkToken(server, options.spoolDir, log);
    if (options.eventId !== undefined) await checkEvent(server, options.eventId, log);
    const waiting = (await spool.sessions()).length;
    if (waiting > 0)
      log(`resuming the unsent chunks of ${waiting} earlier session${waiting === 1 ? '' : 's'}`);

    const now = new Date();
    const session: SessionInfo = {
      session_id: newSessionId(os.hostname(), now, randomBytes(3).toString('hex')),
      started_at: now.toISOString(),
      event_id: options.eventId ?? null,
      filename: `${os.hostname()} ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      chunk_seconds: options.chunkSeconds,
    };
    const dir = await spool.createSession(session);
    const uploader = new Uploader({
      server,
      spool,
      log,
      ...(options.initialBackoffMs !== undefined ? { initialBackoffMs: options.initialBackoffMs } : {}),
      ...(options.maxBackoffMs !== undefined ? { maxBackoffMs: options.maxBackoffMs } : {}),
      ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
      ...(options.events ? { events: options.events } : {}),
    });
    // A failure of the uploader itself (the spool's disk) ends the run, and the capture with it.
    const uploading = uploader.run().then(
      (result) => ({ ...result, error: null }),
      (error: Error) => ({ left: -1, error, denied: undefined }),
    );
    const capture = startCapture({
      source: options.source,
      dir,
      chunkSeconds: options.chunkSeconds,
      ...(options.ffmpegPath ? { ffmpegPath: options.ffmpegPath } : {}),
    });
    const where =
      options.source.kind === 'alsa' ? `ALSA device ${options.source.device}` : options.source.spec;
    log(
      `recording session ${session.session_id} from ${where} in ${options.chunkSeconds} s chunks to ${server.url}`,
    );

    const stopRequested = new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    // The uploader ends first only when it failed, or the server refused the recorder.
    const uploaderEnded = uploading.then((result) =>
      result.error || result.denied ? result : new Promise<never>(() => {}),
    );
    const first = await Promise.race([
      capture.exited,
      stopRequested.then(() => 'stop' as const),
      uploaderEnded.then((result) => (result.denied ? ('denied' as const) : ('failed' as const))),
    ]);
    if (first === 'failed') log('the uploader failed: stopping the capture');
    else if (first === 'denied') log('stopping the capture: the server refuses this recorder');
    else if (first === 'stop') log('stopping: closing the last chunk');
    const exit = typeof first === 'object' ? first : await capture.stop(10_000);
    // 255 is ffmpeg's exit after a signal: Ctrl+C in a terminal or systemd's stop reach it directly.
    const failed = exit.unasked && exit.code !== 0 && exit.code !== 255 && !signal.aborted;
    if (failed) {
      log(
        `capture failed (ffmpeg exit ${exit.code ?? exit.signal}): ${lastLines(exit.stderr) || 'no message'}` +
          (options.source.kind === 'alsa' ? ' (list the devices with "arecord -L")' : ''),
      );
    }
    spool.endActiveSession();
    uploader.finish(Date.now() + options.drainMs);
    const { left, error, denied } = await uploading;
    if (error) throw new Error(`uploading failed: ${error.message} (the chunks stay in ${options.spoolDir})`);
    if (denied) {
      // Everything not sent stays as it is (nothing set aside), the chunk being recorded included.
      const { ready, broken } = await spool.pending();
      const kept = ready.length + broken.length;
      log(
        `stopped: the server refuses this recorder (${denied.status}): ${denied.message}. ` +
          `${uploader.uploadedCount} chunk${uploader.uploadedCount === 1 ? '' : 's'} uploaded, ` +
          `${kept} kept in ${options.spoolDir}: start again with a valid token (--token or WCS_TOKEN) to send them`,
      );
      return {
        session,
        capture: exit,
        uploaded: uploader.uploadedCount,
        rejected: uploader.rejectedCount,
        left: kept,
        denied,
        exitCode: 1,
      };
    }
    log(
      `stopped: ${uploader.uploadedCount} chunk${uploader.uploadedCount === 1 ? '' : 's'} uploaded` +
        (uploader.rejectedCount > 0 ? `, ${uploader.rejectedCount} set aside` : '') +
        (left > 0
          ? `, ${left} left in ${options.spoolDir} (sent on the next start)`
          : ', nothing left to send'),
    );
    return {
      session,
      capture: exit,
      uploaded: uploader.uploadedCount,
      rejected: uploader.rejectedCount,
      left,
      denied: null,
      exitCode: failed ? 1 : 0,
    };
  } finally {
    await unlock();
    await closeTarget(server);
  }
}
