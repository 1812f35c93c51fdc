/**
 * Sends the spool's chunks to POST /api/recordings/upload, one at a time and in order, with the
 * device token (Authorization: Bearer), and deletes each only after the server has answered 2xx
 * (`created` true, or false when it already had it: a retry after a lost answer is harmless).
 * While the server is unreachable, answers 5xx, or answers in a way that is not a verdict on the
 * chunk (408, 413, 429, an unknown API path, a proxy's page), the chunk stays on disk and the
 * uploader retries with a capped exponential backoff. When the server refuses the recorder itself
 * (401: the token is not valid, revoked or expired; 403: its role may not upload; 421: it does not
 * answer for the name in --server), the uploader stops at once and every chunk stays in the spool
 * for a start with a valid token. A chunk the server refuses (any other 4xx with its JSON
 * `message`, 409 included: it holds different audio under that number) is moved aside with the
 * reason, so one bad chunk never blocks the rest.
 */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { api, type UploadMetadata } from '@wcs/contract';
import { Agent } from 'undici';
import type { BrokenChunk, Spool, SpoolChunk } from './spool.js';

export type UploadOutcome =
  | { kind: 'uploaded'; created: boolean; recordingId: number; sizeBytes: number }
  | { kind: 'retry'; reason: string; unreachable: boolean }
  | { kind: 'rejected'; status: number; message: string }
  | { kind: 'denied'; status: number; message: string };

/** Statuses that refuse the recorder itself, not one chunk: no chunk can go until a person acts. */
const DENIED_STATUSES = new Set([401, 403, 421]);

/** The server's base URL, without a trailing slash or /api. Throws on anything but http(s). */
export function normaliseServerUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--server must be a URL such as http://192.168.1.10:8080 (got "${value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`--server must be an http:// or https:// URL (got "${value}")`);
  }
  return url
    .toString()
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
    .replace(/\/api$/, '');
}

/** How the recorder reaches the server: its address, its device token, the certificate it trusts. */
export interface ServerTarget {
  /** The base URL (normaliseServerUrl). */
  url: string;
  /** A device token (`wcs token create --role dj`), sent as "Authorization: Bearer". */
  token: string;
  /** With --ca: connections that trust that certificate only; else the system's authorities. */
  dispatcher: Agent | undefined;
}

/**
 * Checks --server, --token and --ca together. `ca` is the PEM text of the server's certificate:
 * for a server with a self-signed one (`wcs serve --public` makes <data dir>/tls/cert.pem).
 * Close the target when done (its connections).
 */
export function serverTarget(options: {
  server: string;
  token: string;
  ca?: string | undefined;
}): ServerTarget {
  const url = normaliseServerUrl(options.server);
  const token = options.token.trim();
  if (!/^\S{1,200}$/.test(token)) {
    throw new Error(
      'The token must be the one "wcs token create --name <device> --role dj" printed (wcs_..., one word): give it with --token or WCS_TOKEN',
    );
  }
  let dispatcher: Agent | undefined;
  if (options.ca !== undefined) {
    if (!url.startsWith('https:')) {
      throw new Error(`--ca is for an https:// server; ${url} is plain http: drop --ca, or use https://`);
    }
    try {
      new X509Certificate(options.ca);
    } catch (error) {
      throw new Error(
        `--ca must be the server's certificate in PEM (-----BEGIN CERTIFICATE-----, e.g. a copy of <data dir>/tls/cert.pem): ${(error as Error).message}`,
      );
    }
    dispatcher = new Agent({ connect: { ca: options.ca } });
  }
  return { url, token, dispatcher };
}

/** Ends the target's open connections (the recorder's process may then exit). */
export async function closeTarget(target: ServerTarget): Promise<void> {
  await target.dispatcher?.close();
}

/** A call to the server's API (`apiPath` after /api), with the token and the trusted certificate. */
export function callServer(
  target: ServerTarget,
  apiPath: string,
  init: RequestInit & { headers?: Record<string, string> } = {},
): Promise<Response> {
  // Node's fetch takes an undici dispatcher (not in the DOM's RequestInit type).
  const options = {
    ...init,
    headers: { ...init.headers, authorization: `Bearer ${target.token}` },
    ...(target.dispatcher ? { dispatcher: target.dispatcher } : {}),
  } as RequestInit;
  return fetch(`${target.url}/api${apiPath}`, options);
}

/** The metadata JSON of one chunk (see docs/api.md). */
export function chunkMetadata(chunk: SpoolChunk): UploadMetadata {
  return {
    session_id: chunk.session.session_id,
    chunk_number: chunk.chunkNumber,
    duration_seconds: chunk.durationSeconds,
    recorded_at: chunk.recordedAt,
    filename: chunk.session.filename,
    event_id: chunk.session.event_id,
    source: 'device',
  };
}

/** The TLS failures that a retry will not cure: the recorder does not trust the certificate. */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
]);

function describeNetworkError(error: unknown): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError') return 'no answer in time';
  if (err.name === 'AbortError') return 'stopped';
  const cause = err.cause;
  if (cause?.code && UNTRUSTED_CERTIFICATE.has(cause.code)) {
    return `the server's certificate is not trusted (${cause.code}): give --ca a copy of the server's certificate (<data dir>/tls/cert.pem for "wcs serve --public"), or one made for this very address`;
  }
  return cause?.code ?? cause?.message ?? err.message;
}

async function errorMessage(response: Response): Promise<string | null> {
  if (!(response.headers.get('content-type') ?? '').includes('application/json')) return null;
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : null;
  } catch {
    return null;
  }
}

/** One attempt at one chunk. Never throws for network or HTTP trouble: the outcome says what to do. */
export async function uploadChunk(
  server: ServerTarget,
  chunk: SpoolChunk,
  options: { signal?: AbortSignal } = {},
): Promise<UploadOutcome> {
  const bytes = await fs.readFile(chunk.file);
  const form = new FormData();
  form.append('metadata', JSON.stringify(chunkMetadata(chunk)));
  form.append('audio_file', new Blob([bytes], { type: 'audio/ogg' }), path.basename(chunk.file));
  let response: Response;
  try {
    response = await callServer(server, api.uploadRecording.path, {
      method: 'POST',
      body: form,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    return { kind: 'retry', reason: describeNetworkError(error), unreachable: true };
  }
  if (response.ok) {
    try {
      const body = (await response.json()) as { created?: unknown; recording_id?: unknown };
      if (typeof body.created === 'boolean' && typeof body.recording_id === 'number') {
        return {
          kind: 'uploaded',
          created: body.created,
          recordingId: body.recording_id,
          sizeBytes: bytes.length,
        };
      }
    } catch {
      // fall through: a 2xx that is not the upload API's answer
    }
    return {
      kind: 'retry',
      reason: `HTTP ${response.status} that is not an upload answer (is --server the WCS DJ Library?)`,
      unreachable: false,
    };
  }
  const message = await errorMessage(response);
  const status = response.status;
  if (status >= 500) {
    return {
      kind: 'retry',
      reason: `server error ${status}${message ? `: ${message}` : ''}`,
      unreachable: false,
    };
  }
  if (status === 408 || status === 429) {
    return { kind: 'retry', reason: `server busy (${status})`, unreachable: false };
  }
  if (status === 413) {
    return {
      kind: 'retry',
      reason: `the server or a proxy in front of it refuses a chunk of ${bytes.length} bytes as too large (413${message ? `: ${message}` : ''}); raise WCS_MAX_UPLOAD_MB or the proxy's body limit`,
      unreachable: false,
    };
  }
  if (message === null || message.startsWith('No such API call')) {
    return {
      kind: 'retry',
      reason: `HTTP ${status} from ${server.url} without the API's answer (is --server the WCS DJ Library?)`,
      unreachable: false,
    };
  }
  if (DENIED_STATUSES.has(status)) return { kind: 'denied', status, message };
  return { kind: 'rejected', status, message };
}

export interface UploaderEvents {
  uploaded?(chunk: SpoolChunk, outcome: Extract<UploadOutcome, { kind: 'uploaded' }>): void;
  rejected?(chunk: SpoolChunk | BrokenChunk, reason: string, setAsideAt: string): void;
  waiting?(reason: string, waiting: number, retryInMs: number): void;
}

export interface UploaderOptions {
  server: ServerTarget;
  spool: Spool;
  log: (line: string) => void;
  /** First wait after a failed attempt, doubled each time up to maxBackoffMs. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** How often to look for new chunks when there is nothing to send. */
  pollMs?: number;
  /** Longest one upload may take. */
  requestTimeoutMs?: number;
  events?: UploaderEvents;
}

const kB = (bytes: number) => `${Math.round(bytes / 1024)} kB`;
const seconds = (ms: number) => (ms < 1000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000)));

/** Why the uploader stopped by itself: the server refused the recorder (401, 403, 421). */
export interface UploadDenied {
  status: number;
  message: string;
}

/**
 * The upload loop. run() sends chunks as they become ready until finish() is called and nothing
 * is left, or finish()'s deadline has passed; it resolves with the number of chunks left on disk.
 * When the server refuses the recorder itself, it resolves at once with `denied`, every chunk
 * still on disk.
 */
export class Uploader {
  private finishing = false;
  private deadline = Number.POSITIVE_INFINITY;
  private readonly stopController = new AbortController();
  private wake: (() => void) | null = null;
  uploadedCount = 0;
  rejectedCount = 0;

  constructor(private readonly options: UploaderOptions) {}

  /** A new chunk may be ready: look now rather than at the next poll. */
  notify(): void {
    this.wake?.();
  }

  /** Send what is left, and stop when it is sent or when `deadlineMs` (epoch ms) has passed. */
  finish(deadlineMs: number): void {
    this.finishing = true;
    this.deadline = deadlineMs;
    const untilDeadline = deadlineMs - Date.now();
    if (untilDeadline <= 0) this.stopController.abort();
    else setTimeout(() => this.stopController.abort(), untilDeadline).unref();
    this.notify();
  }

  /** Waits `ms`, or less: until the deadline, a notify(), or the stop at the deadline. */
  private sleep(ms: number): Promise<void> {
    const signal = this.stopController.signal;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, Math.min(ms, this.deadline - Date.now())));
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }

  private async setAside(chunk: SpoolChunk | BrokenChunk, reason: string): Promise<void> {
    const where = await this.options.spool.setAside(chunk, reason);
    this.rejectedCount += 1;
    this.options.log(
      `set aside chunk ${chunk.chunkNumber} of session ${chunk.session.session_id}: ${reason} (kept in ${where})`,
    );
    this.options.events?.rejected?.(chunk, reason, where);
  }

  async run(): Promise<{ left: number; denied?: UploadDenied }> {
    const { spool, log, server } = this.options;
    const initial = this.options.initialBackoffMs ?? 1000;
    const max = this.options.maxBackoffMs ?? 60_000;
    const pollMs = this.options.pollMs ?? 1000;
    const timeoutMs = this.options.requestTimeoutMs ?? 60_000;
    let backoff = initial;
    let failingSince: number | null = null;
    for (;;) {
      const { ready, broken } = await spool.pending();
      for (const chunk of broken) await this.setAside(chunk, chunk.reason);
      const chunk = ready[0];
      if (!chunk) {
        if (this.finishing) return { left: 0 };
        await this.sleep(pollMs);
        continue;
      }
      if (this.finishing && Date.now() >= this.deadline) return { left: ready.length };
      const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), this.stopController.signal]);
      let outcome: UploadOutcome;
      try {
        outcome = await uploadChunk(server, chunk, { signal });
      } catch (error) {
        // Removed from the spool meanwhile (by hand): nothing to send.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      if (outcome.kind !== 'retry' && failingSince !== null) {
        log(`the server answers again (after ${seconds(Date.now() - failingSince)}s)`);
        failingSince = null;
      }
      if (outcome.kind === 'uploaded') {
        await spool.remove(chunk);
        backoff = initial;
        this.uploadedCount += 1;
        log(
          `uploaded chunk ${chunk.chunkNumber} of session ${chunk.session.session_id} ` +
            `(${chunk.durationSeconds.toFixed(1)} s, ${kB(outcome.sizeBytes)}) to recording ${outcome.recordingId}` +
            (outcome.created ? '' : ' (the server already had it)'),
        );
        this.options.events?.uploaded?.(chunk, outcome);
        continue;
      }
      if (outcome.kind === 'rejected') {
        await this.setAside(chunk, `the server refused it (${outcome.status}): ${outcome.message}`);
        continue;
      }
      if (outcome.kind === 'denied') {
        log(
          `the server refuses this recorder (${outcome.status}): ${outcome.message}; ` +
            `${ready.length} chunk${ready.length === 1 ? '' : 's'} kept in ${spool.dir} for the next start`,
        );
        return { left: ready.length, denied: { status: outcome.status, message: outcome.message } };
      }
      failingSince ??= Date.now();
      if (this.finishing && Date.now() >= this.deadline) return { left: ready.length };
      const wait = Math.min(backoff, this.deadline - Date.now());
      const what = outcome.unreachable ? `server unreachable (${outcome.reason})` : outcome.reason;
      log(
        `${what}, ${ready.length} chunk${ready.length === 1 ? '' : 's'} waiting, retrying in ${seconds(wait)}s`,
      );
      this.options.events?.waiting?.(outcome.reason, ready.length, wait);
      await this.sleep(wait);
      backoff = Math.min(backoff * 2, max);
    }
  }
}
