/**
 * `wcs record` without the command line: takes the spool, resumes the chunks earlier runs left
 * behind, starts a new session and its capture, and uploads while recording. On stop (Ctrl+C,
 * SIGTERM: the caller aborts `signal`) or when the input ends, ffmpeg closes the last chunk and the
 * uploader gets a bounded time to send what is left; what it cannot send stays in the spool for
 * the next start.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { api } from '@wcs/contract';
import { type CaptureExit, type CaptureSource, startCapture } from './capture.js';
import { newSessionId, type SessionInfo, Spool } from './spool.js';
import { normaliseServerUrl, Uploader, type UploaderEvents } from './uploader.js';

export interface RecorderOptions {
  server: string;
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
  /** 0, or 1 when the capture failed by itself. */
  exitCode: number;
}

/**
 * With --event, the event must exist: otherwise the server would refuse every chunk. Checked when
 * the server answers; an unreachable server is not an error here (the uploader will wait for it).
 */
async function checkEvent(server: string, eventId: number, log: (line: string) => void): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${server}/api${api.getEvent.path.replace(':id', String(eventId))}`, {
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    log(`could not check event ${eventId}: the server does not answer yet`);
    return;
  }
  if (response.status === 404) {
    throw new Error(
      `event ${eventId} does not exist on ${server}: check --event (the Events page lists the ids)`,
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
  const server = normaliseServerUrl(options.server);
  const { log } = options;
  const spool = new Spool(options.spoolDir, options.ffmpegPath ? { ffmpegPath: options.ffmpegPath } : {});
  const unlock = await spool.lock();
  try {
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
      (error: Error) => ({ left: -1, error }),
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
      `recording session ${session.session_id} from ${where} in ${options.chunkSeconds} s chunks to ${server}`,
    );

    const stopRequested = new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    const first = await Promise.race([
      capture.exited,
      stopRequested.then(() => null),
      uploading.then((result) => (result.error ? null : new Promise<never>(() => {}))),
    ]);
    if (first === null && !signal.aborted) log('the uploader failed: stopping the capture');
    else if (first === null) log('stopping: closing the last chunk');
    const exit = first ?? (await capture.stop(10_000));
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
    const { left, error } = await uploading;
    if (error) throw new Error(`uploading failed: ${error.message} (the chunks stay in ${options.spoolDir})`);
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
      exitCode: failed ? 1 : 0,
    };
  } finally {
    await unlock();
  }
}
