import { HTTP_TIMEOUT_MS, RECORDING, RECORDING_SOURCE_BROWSER, type UploadMetadata } from '@wcs/contract';
import { type ApiResponse, buildUrl, errorFromResponse, reportUnauthorized } from './api';
import { API_ROUTES } from './api-routes';

/** Below this a file holds a container header but no audio frame (one Opus frame alone is larger). */
const MIN_AUDIO_BYTES = 200;

/**
 * The browser recorder: microphone → one complete audio file per chunk → IndexedDB → upload.
 *
 * Every chunk comes from its own MediaRecorder (stopped and replaced every chunk length), because
 * the later slices of `MediaRecorder.start(timeslice)` have no header and cannot be decoded alone.
 * A chunk is stored on the device before it is uploaded and deleted only once the server has
 * acknowledged it, so a network drop or a page reload loses nothing: stored chunks are sent again,
 * in order, when the server answers (the server treats a repeated session + chunk number as the
 * same chunk).
 */

// ---------------------------------------------------------------------------------------------
// Texts of the live recording (docs/product.md "Live recording")

export const UNSUPPORTED_TEXT = 'Your browser does not support audio recording';
export const MICROPHONE_FAILED_TEXT = 'Failed to access microphone';
export const RECORDER_ERROR_TEXT = 'Recording error occurred';
export const UPLOAD_FAILED_TEXT = 'Upload failed';

// ---------------------------------------------------------------------------------------------
// Pure parts

export type RecorderStatus = 'idle' | 'recording' | 'paused';

/** The specification's format first, then what other browsers record (Safari: mp4). */
export const PREFERRED_MIME_TYPE = 'audio/webm;codecs=opus';
export const FALLBACK_MIME_TYPES = [
  'audio/webm',
  'audio/ogg;codecs=opus',
  'audio/ogg',
  'audio/mp4;codecs=mp4a.40.2',
  'audio/mp4',
] as const;

/** The first type the browser can record; '' lets the browser choose its default. */
export function pickMimeType(isTypeSupported: (type: string) => boolean): string {
  for (const type of [PREFERRED_MIME_TYPE, ...FALLBACK_MIME_TYPES]) {
    try {
      if (isTypeSupported(type)) return type;
    } catch {
      // a browser that throws on a type it does not know: try the next
    }
  }
  return '';
}

/** File extension for a recorded MIME type (`audio/webm;codecs=opus` → `webm`). */
export function extensionFor(mimeType: string): string {
  const base = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (base === 'audio/ogg') return 'ogg';
  if (base === 'audio/mp4' || base === 'audio/aac') return 'm4a';
  if (base === 'audio/wav' || base === 'audio/x-wav') return 'wav';
  if (base === 'audio/mpeg') return 'mp3';
  return 'webm';
}

/**
 * Chunk length in milliseconds: RECORDING.chunkSeconds, unless the end-to-end tests set
 * `globalThis.__WCS_TEST_CHUNK_MS__` (their only hook) to a positive number.
 */
export function resolveChunkMs(scope: object = globalThis): number {
  const override = (scope as { __WCS_TEST_CHUNK_MS__?: unknown }).__WCS_TEST_CHUNK_MS__;
  if (typeof override === 'number' && Number.isFinite(override) && override > 0) return override;
  return RECORDING.chunkSeconds * 1000;
}

/** Recording needs MediaRecorder and navigator.mediaDevices.getUserMedia. */
export function isRecordingSupported(scope: object = globalThis): boolean {
  const { MediaRecorder: recorder, navigator: nav } = scope as {
    MediaRecorder?: unknown;
    navigator?: { mediaDevices?: { getUserMedia?: unknown } };
  };
  return typeof recorder === 'function' && typeof nav?.mediaDevices?.getUserMedia === 'function';
}

/** The getUserMedia audio constraints (docs/product.md "Live recording"): 48 kHz, echo cancellation, noise suppression, AGC. */
export function audioConstraints(deviceId: string | undefined): MediaTrackConstraints {
  return {
    ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
    sampleRate: RECORDING.sampleRate,
    echoCancellation: true,
    noiseSuppression: true,
    autoGainControl: true,
  };
}

/**
 * Level in percent (0-100) from an AnalyserNode's byte time-domain data (128 is silence): the
 * peak deviation, so 100 means the signal touches full scale (clipping).
 */
export function peakLevel(samples: ArrayLike<number>): number {
  let peak = 0;
  for (let index = 0; index < samples.length; index++) {
    const deviation = Math.abs((samples[index] ?? 128) - 128);
    if (deviation > peak) peak = deviation;
  }
  return Math.min(100, Math.round((peak / 128) * 100));
}

/** Level bar colour (docs/product.md "Live recording"): red above 80, accent above 50, otherwise calm. */
export function levelTone(level: number): 'error' | 'accent' | 'success' {
  if (level > 80) return 'error';
  if (level > 50) return 'accent';
  return 'success';
}

/** Above 90 % the panel warns that the input is too loud. */
export function isLevelWarning(level: number): boolean {
  return level > 90;
}

/** A session id the server accepts (letters, digits and . _ : -): a UUID. */
export function newSessionId(cryptoApi: Crypto = globalThis.crypto): string {
  // randomUUID exists only in secure contexts; getRandomValues everywhere.
  if (typeof cryptoApi.randomUUID === 'function') return cryptoApi.randomUUID();
  const bytes = cryptoApi.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The recording's file name, from its start time: `browser-recording-2026-03-05_21-04-09.webm`. */
export function recordingFilename(startedAt: Date, mimeType: string): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  const date = `${startedAt.getFullYear()}-${pad(startedAt.getMonth() + 1)}-${pad(startedAt.getDate())}`;
  const time = `${pad(startedAt.getHours())}-${pad(startedAt.getMinutes())}-${pad(startedAt.getSeconds())}`;
  return `browser-recording-${date}_${time}.${extensionFor(mimeType)}`;
}

export interface ChunkTarget {
  /** An existing event. */
  eventId?: number | null;
  /** A new event's name, used when no event is chosen. */
  eventName?: string | null;
}

/** The upload's `metadata` field (docs/api.md "Recordings upload"). */
export function buildChunkMetadata(input: {
  sessionId: string;
  chunkNumber: number;
  recordedAt: Date;
  durationSeconds: number;
  filename: string;
  target: ChunkTarget;
}): UploadMetadata {
  const eventName = input.target.eventName?.trim();
  return {
    session_id: input.sessionId,
    chunk_number: input.chunkNumber,
    recorded_at: input.recordedAt.toISOString(),
    // The server refuses 0; a chunk always has some length.
    duration_seconds: Math.max(0.001, Math.round(input.durationSeconds * 1000) / 1000),
    ...(input.target.eventId
      ? { event_id: input.target.eventId }
      : eventName
        ? { event_name: eventName }
        : {}),
    source: RECORDING_SOURCE_BROWSER,
    filename: input.filename,
  };
}

export interface RecognizedSongItem {
  title: string;
  artist: string;
  /** When the song started, ISO. */
  timestamp: string;
  /** 0-1; null when the recogniser gave no score. */
  confidence: number | null;
}

/** Newest first, at most RECORDING.recentSongs; the same song at the same time is listed once. */
export function addRecentSong(
  list: readonly RecognizedSongItem[],
  song: RecognizedSongItem,
  max: number = RECORDING.recentSongs,
): RecognizedSongItem[] {
  const rest = list.filter(
    (item) =>
      !(item.timestamp === song.timestamp && item.title === song.title && item.artist === song.artist),
  );
  return [song, ...rest].slice(0, max);
}

/**
 * Network failures, timeouts and server trouble are retried; a refusal of the chunk itself is not.
 * A 401 (the session ended) is no fault of the chunk: it waits on this device until the user signs
 * in again, instead of being dropped.
 */
export function isRetryableStatus(status: number): boolean {
  return (
    status === 0 || status === 401 || status === 408 || status === 425 || status === 429 || status >= 500
  );
}

// ---------------------------------------------------------------------------------------------
// Chunk store: IndexedDB, or memory where IndexedDB is unavailable

export interface StoredChunk {
  /** `${sessionId}:${chunkNumber}`. */
  key: string;
  sessionId: string;
  chunkNumber: number;
  /** When the chunk was stored (ms since epoch): the upload order across sessions. */
  storedAt: number;
  blob: Blob;
  filename: string;
  metadata: UploadMetadata;
}

export interface ChunkStore {
  put(chunk: StoredChunk): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every stored chunk in upload order. */
  list(): Promise<StoredChunk[]>;
  deleteSession(sessionId: string): Promise<void>;
}

export function chunkKey(sessionId: string, chunkNumber: number): string {
  return `${sessionId}:${chunkNumber}`;
}

/** Upload order: older sessions first, then by chunk number within a session. */
export function inUploadOrder(chunks: readonly StoredChunk[]): StoredChunk[] {
  const sessionStart = new Map<string, number>();
  for (const chunk of chunks) {
    const first = sessionStart.get(chunk.sessionId);
    if (first === undefined || chunk.storedAt < first) sessionStart.set(chunk.sessionId, chunk.storedAt);
  }
  return [...chunks].sort(
    (a, b) =>
      (sessionStart.get(a.sessionId) ?? 0) - (sessionStart.get(b.sessionId) ?? 0) ||
      a.sessionId.localeCompare(b.sessionId) ||
      a.chunkNumber - b.chunkNumber,
  );
}

export class MemoryChunkStore implements ChunkStore {
  private readonly chunks = new Map<string, StoredChunk>();
  async put(chunk: StoredChunk) {
    this.chunks.set(chunk.key, chunk);
  }
  async delete(key: string) {
    this.chunks.delete(key);
  }
  async list() {
    return inUploadOrder([...this.chunks.values()]);
  }
  async deleteSession(sessionId: string) {
    for (const [key, chunk] of this.chunks) if (chunk.sessionId === sessionId) this.chunks.delete(key);
  }
}

const DB_NAME = 'wcs-recorder';
const DB_VERSION = 1;
const STORE_NAME = 'chunks';

function requestResult<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function transactionDone(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });
}

class IndexedDbChunkStore implements ChunkStore {
  constructor(private readonly db: IDBDatabase) {}

  private async write(change: (store: IDBObjectStore) => void): Promise<void> {
    const transaction = this.db.transaction(STORE_NAME, 'readwrite');
    change(transaction.objectStore(STORE_NAME));
    await transactionDone(transaction);
  }

  put(chunk: StoredChunk) {
    return this.write((store) => store.put(chunk));
  }

  delete(key: string) {
    return this.write((store) => store.delete(key));
  }

  async list() {
    const transaction = this.db.transaction(STORE_NAME, 'readonly');
    const all = await requestResult(
      transaction.objectStore(STORE_NAME).getAll() as IDBRequest<StoredChunk[]>,
    );
    return inUploadOrder(all);
  }

  async deleteSession(sessionId: string) {
    const keys = (await this.list())
      .filter((chunk) => chunk.sessionId === sessionId)
      .map((chunk) => chunk.key);
    if (keys.length === 0) return;
    await this.write((store) => {
      for (const key of keys) store.delete(key);
    });
  }
}

/** The device's chunk store; memory (lost on reload) only where IndexedDB cannot be opened. */
async function openChunkStore(): Promise<ChunkStore> {
  if (typeof indexedDB === 'undefined') return new MemoryChunkStore();
  try {
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE_NAME)) {
        request.result.createObjectStore(STORE_NAME, { keyPath: 'key' });
      }
    };
    return new IndexedDbChunkStore(await requestResult(request));
  } catch (error) {
    console.warn('IndexedDB is unavailable; unsent chunks are kept in memory only', error);
    return new MemoryChunkStore();
  }
}

/** The device's chunk store, opened on first use. */
export function createDeviceChunkStore(): ChunkStore {
  let opened: Promise<ChunkStore> | undefined;
  const store = () => {
    opened ??= openChunkStore();
    return opened;
  };
  return {
    put: async (chunk) => (await store()).put(chunk),
    delete: async (key) => (await store()).delete(key),
    list: async () => (await store()).list(),
    deleteSession: async (sessionId) => (await store()).deleteSession(sessionId),
  };
}

// ---------------------------------------------------------------------------------------------
// Upload

export type UploadResult = ApiResponse<'uploadRecording'>;

/** A failed upload: the server's message (or 'Upload failed') and whether sending again can help. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly isRetryable: boolean,
    readonly status = 0,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

export type UploadFn = (chunk: StoredChunk) => Promise<UploadResult>;

/** POST /api/recordings/upload: multipart with `metadata` (JSON) and `audio_file`. */
export const uploadChunk: UploadFn = async (chunk) => {
  const form = new FormData();
  form.append('metadata', JSON.stringify(chunk.metadata));
  form.append('audio_file', chunk.blob, chunk.filename);
  let response: Response;
  try {
    response = await fetch(buildUrl(API_ROUTES.uploadRecording[1]), {
      method: 'POST',
      body: form,
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
  } catch {
    throw new UploadError(UPLOAD_FAILED_TEXT, true);
  }
  if (!response.ok) {
    const error = await errorFromResponse(response);
    if (response.status === 401) reportUnauthorized();
    const isFromServer = !error.message.startsWith('API Error ');
    throw new UploadError(
      isFromServer ? error.message : UPLOAD_FAILED_TEXT,
      isRetryableStatus(response.status),
      response.status,
    );
  }
  return (await response.json()) as UploadResult;
};

export interface UploadQueueEvents {
  onUploaded?: (chunk: StoredChunk, result: UploadResult) => void;
  /** `willRetry`: the chunk stays stored and is sent again later. */
  onFailed?: (chunk: StoredChunk, message: string, willRetry: boolean) => void;
  onBusyChange?: (isUploading: boolean) => void;
  /** Number of chunks stored and not yet acknowledged. */
  onPendingChange?: (pending: number) => void;
}

/** Retry pause after a failed upload that may succeed later. */
export const UPLOAD_RETRY_MS = 5_000;

/**
 * Sends stored chunks one at a time, oldest first; a chunk is deleted only after the server
 * acknowledged it. A retryable failure stops the queue (later chunks wait, keeping their order)
 * and tries again after `retryMs`.
 */
export class UploadQueue {
  private isDraining = false;
  private isDrainRequested = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private isDisposed = false;
  private readonly discarded = new Set<string>();

  constructor(
    private readonly store: ChunkStore,
    private readonly upload: UploadFn,
    private readonly events: UploadQueueEvents = {},
    private readonly retryMs = UPLOAD_RETRY_MS,
  ) {}

  /** Stores the chunk, then sends whatever is waiting. */
  async add(chunk: StoredChunk): Promise<void> {
    await this.store.put(chunk);
    await this.drain();
  }

  /** Forgets a cancelled session: its stored chunks are never sent. */
  async discardSession(sessionId: string): Promise<void> {
    this.discarded.add(sessionId);
    await this.store.deleteSession(sessionId);
    this.events.onPendingChange?.((await this.store.list()).length);
  }

  /** Sends every stored chunk in order; resolves when the queue is empty or waits for a retry. */
  async drain(): Promise<void> {
    if (this.isDisposed) return;
    if (this.isDraining) {
      this.isDrainRequested = true;
      return;
    }
    this.isDraining = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    try {
      do {
        this.isDrainRequested = false;
        const isBlocked = await this.sendAll();
        if (isBlocked) break;
      } while (this.isDrainRequested && !this.isDisposed);
    } finally {
      this.isDraining = false;
      this.events.onBusyChange?.(false);
    }
  }

  dispose(): void {
    this.isDisposed = true;
    clearTimeout(this.retryTimer);
  }

  /** True when a retryable failure stopped the queue. */
  private async sendAll(): Promise<boolean> {
    const chunks = (await this.store.list()).filter((chunk) => !this.discarded.has(chunk.sessionId));
    this.events.onPendingChange?.(chunks.length);
    let pending = chunks.length;
    for (const chunk of chunks) {
      if (this.isDisposed) return true;
      if (this.discarded.has(chunk.sessionId)) continue;
      this.events.onBusyChange?.(true);
      try {
        const result = await this.upload(chunk);
        await this.store.delete(chunk.key);
        pending -= 1;
        this.events.onPendingChange?.(pending);
        if (!this.discarded.has(chunk.sessionId)) this.events.onUploaded?.(chunk, result);
      } catch (error) {
        const uploadError =
          error instanceof UploadError
            ? error
            : new UploadError(error instanceof Error ? error.message : UPLOAD_FAILED_TEXT, true);
        if (uploadError.isRetryable) {
          this.events.onFailed?.(chunk, uploadError.message, true);
          this.retryTimer = setTimeout(() => void this.drain(), this.retryMs);
          return true;
        }
        // The server refuses this chunk for good (bad metadata, not audio, too large): sending it
        // again would block every later chunk, so it is dropped and the failure reported.
        await this.store.delete(chunk.key);
        pending -= 1;
        this.events.onPendingChange?.(pending);
        this.events.onFailed?.(chunk, uploadError.message, false);
      }
    }
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// The recorder

export interface RecorderSnapshot {
  status: RecorderStatus;
  /** The current (or last) recording session. */
  sessionId: string | null;
  /** Recorded time without pauses. */
  elapsedSeconds: number;
  /** Input level 0-100. */
  level: number;
  /** Chunks recorded in this session. */
  chunks: number;
  /** Chunks of this session the server acknowledged. */
  uploaded: number;
  /** Bytes recorded in this session. */
  bytes: number;
  isUploading: boolean;
  /** Chunks on this device waiting for the server (any session, also from before a reload). */
  pendingUploads: number;
  /** Microphone or recorder failure; the recording stopped. */
  error: string | null;
  /** Last upload failure; the recording goes on. */
  uploadError: string | null;
  /** The recording of this session as the server last reported it. */
  recordingId: number | null;
}

export const IDLE_SNAPSHOT: RecorderSnapshot = {
  status: 'idle',
  sessionId: null,
  elapsedSeconds: 0,
  level: 0,
  chunks: 0,
  uploaded: 0,
  bytes: 0,
  isUploading: false,
  pendingUploads: 0,
  error: null,
  uploadError: null,
  recordingId: null,
};

export interface StartOptions extends ChunkTarget {
  deviceId?: string;
}

export interface InputDevice {
  deviceId: string;
  label: string;
}

/** Audio inputs; labels are empty until the page has microphone permission. */
export async function listInputDevices(): Promise<InputDevice[]> {
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices
    .filter((device) => device.kind === 'audioinput')
    .map((device, index) => ({
      deviceId: device.deviceId,
      label: device.label || `Microphone ${index + 1}`,
    }));
}

interface ActiveChunk {
  recorder: MediaRecorder;
  sessionId: string;
  number: number;
  startedAt: Date;
  /** Recorded milliseconds before the current running stretch (pauses excluded). */
  activeMs: number;
  /** performance.now() when the current running stretch began; null while paused. */
  runningSince: number | null;
  parts: Blob[];
  /** False for a cancelled recording: its data is dropped. */
  isKept: boolean;
}

/**
 * Records the microphone in complete chunks and hands them to the upload queue. One instance per
 * panel; subscribe for snapshots.
 */
export class BrowserRecorder {
  private snapshot: RecorderSnapshot = IDLE_SNAPSHOT;
  private readonly listeners = new Set<() => void>();
  private stream: MediaStream | null = null;
  private audioContext: AudioContext | null = null;
  private analyser: AnalyserNode | null = null;
  private levelTimer: ReturnType<typeof setInterval> | undefined;
  private chunkTimer: ReturnType<typeof setTimeout> | undefined;
  private current: ActiveChunk | null = null;
  private nextChunkNumber = 0;
  private mimeType = '';
  private filename = '';
  private target: ChunkTarget = {};
  /** Recorded milliseconds of finished chunks. */
  private finishedMs = 0;
  private readonly chunkMs: number;
  private readonly queue: UploadQueue;
  /** Chunks whose recorder is stopping: resolved once their file is complete. */
  private stopping: Promise<void>[] = [];
  /** Chunks being stored and queued. */
  private finishing: Promise<void>[] = [];

  constructor(
    store: ChunkStore,
    upload: UploadFn = uploadChunk,
    options: { chunkMs?: number; retryMs?: number } = {},
  ) {
    this.chunkMs = options.chunkMs ?? resolveChunkMs();
    this.queue = new UploadQueue(
      store,
      upload,
      {
        onUploaded: (chunk, result) => {
          if (chunk.sessionId !== this.snapshot.sessionId) return;
          this.update({
            uploaded: this.snapshot.uploaded + 1,
            uploadError: null,
            recordingId: result.recording_id,
          });
        },
        onFailed: (chunk, message, willRetry) => {
          console.warn(`Chunk ${chunk.chunkNumber} of ${chunk.sessionId} was not uploaded: ${message}`);
          this.update({
            uploadError: willRetry ? `${message} - kept on this device, sending again shortly` : message,
          });
        },
        onBusyChange: (isUploading) => this.update({ isUploading }),
        onPendingChange: (pendingUploads) => this.update({ pendingUploads }),
      },
      options.retryMs,
    );
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): RecorderSnapshot => this.snapshot;

  /** Sends chunks left on this device (e.g. before a reload or a network drop). */
  resumeUploads(): Promise<void> {
    return this.queue.drain();
  }

  async start(options: StartOptions): Promise<void> {
    if (this.snapshot.status !== 'idle') return;
    if (!isRecordingSupported()) {
      this.update({ error: UNSUPPORTED_TEXT });
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: audioConstraints(options.deviceId) });
    } catch (error) {
      const detail = error instanceof Error && error.message ? error.message : '';
      this.update({ error: detail ? `${MICROPHONE_FAILED_TEXT}: ${detail}` : MICROPHONE_FAILED_TEXT });
      return;
    }
    this.stream = stream;
    this.mimeType = pickMimeType((type) => MediaRecorder.isTypeSupported(type));
    this.filename = recordingFilename(new Date(), this.mimeType);
    this.target = { eventId: options.eventId ?? null, eventName: options.eventName ?? null };
    this.nextChunkNumber = 0;
    this.finishedMs = 0;
    this.stopping = [];
    this.finishing = [];
    this.snapshot = {
      ...IDLE_SNAPSHOT,
      status: 'recording',
      sessionId: newSessionId(),
      pendingUploads: this.snapshot.pendingUploads,
    };
    this.startMeter(stream);
    try {
      this.startChunk();
    } catch (error) {
      console.error('MediaRecorder could not start', error);
      this.releaseDevices();
      this.update({ status: 'idle', error: RECORDER_ERROR_TEXT });
      return;
    }
    this.emit();
  }

  pause(): void {
    const chunk = this.current;
    if (this.snapshot.status !== 'recording' || !chunk) return;
    if (chunk.recorder.state === 'recording') chunk.recorder.pause();
    if (chunk.runningSince !== null) chunk.activeMs += performance.now() - chunk.runningSince;
    chunk.runningSince = null;
    clearTimeout(this.chunkTimer);
    this.update({ status: 'paused', level: 0, elapsedSeconds: this.elapsedSeconds() });
  }

  resume(): void {
    const chunk = this.current;
    if (this.snapshot.status !== 'paused' || !chunk) return;
    if (chunk.recorder.state === 'paused') chunk.recorder.resume();
    chunk.runningSince = performance.now();
    this.chunkTimer = setTimeout(() => this.rotate(), Math.max(0, this.chunkMs - chunk.activeMs));
    this.update({ status: 'recording' });
  }

  /** Ends the recording: the final chunk is stored and uploaded; back to idle. */
  async stop(): Promise<void> {
    if (this.snapshot.status === 'idle') return;
    const chunk = this.current;
    this.current = null;
    clearTimeout(this.chunkTimer);
    if (chunk) this.stopChunk(chunk, true);
    this.stopMeter();
    this.update({ status: 'idle', level: 0, elapsedSeconds: this.elapsedSeconds(chunk) });
    // The microphone is released once the last file is complete; its upload runs on in the queue.
    await Promise.allSettled(this.stopping);
    this.releaseDevices();
    await Promise.allSettled(this.finishing);
  }

  /** Ends the recording and throws away what is not uploaded yet; counters back to zero. */
  async cancel(): Promise<void> {
    if (this.snapshot.status === 'idle') return;
    const sessionId = this.snapshot.sessionId;
    const chunk = this.current;
    this.current = null;
    clearTimeout(this.chunkTimer);
    if (chunk) this.stopChunk(chunk, false);
    this.stopMeter();
    this.releaseDevices();
    this.snapshot = { ...IDLE_SNAPSHOT, pendingUploads: this.snapshot.pendingUploads };
    this.emit();
    await Promise.allSettled(this.finishing);
    if (sessionId) await this.queue.discardSession(sessionId);
  }

  /** Stops everything without uploading more (the page is going away); stored chunks stay. */
  dispose(): void {
    const chunk = this.current;
    this.current = null;
    clearTimeout(this.chunkTimer);
    if (chunk) this.stopChunk(chunk, true);
    this.stopMeter();
    this.releaseDevices();
    this.queue.dispose();
    this.listeners.clear();
  }

  clearErrors(): void {
    this.update({ error: null, uploadError: null });
  }

  private startChunk(): void {
    const sessionId = this.snapshot.sessionId;
    if (!this.stream || !sessionId) return;
    const recorder = new MediaRecorder(this.stream, {
      ...(this.mimeType ? { mimeType: this.mimeType } : {}),
      audioBitsPerSecond: RECORDING.bitrate,
    });
    const chunk: ActiveChunk = {
      recorder,
      sessionId,
      number: this.nextChunkNumber++,
      startedAt: new Date(),
      activeMs: 0,
      runningSince: performance.now(),
      parts: [],
      isKept: true,
    };
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunk.parts.push(event.data);
    };
    recorder.onerror = (event) => {
      console.error('MediaRecorder failed', event);
      void this.failRecording();
    };
    recorder.start();
    this.current = chunk;
    this.chunkTimer = setTimeout(() => this.rotate(), this.chunkMs);
  }

  /** End of a chunk length: a new recorder takes over at once, the old one finishes its file. */
  private rotate(): void {
    const chunk = this.current;
    if (!chunk || this.snapshot.status !== 'recording') return;
    try {
      this.startChunk();
    } catch (error) {
      console.error('MediaRecorder could not start the next chunk', error);
      this.current = null;
      this.stopChunk(chunk, true);
      void this.failRecording();
      return;
    }
    this.stopChunk(chunk, true);
  }

  /** Stops a chunk's recorder; once its file is complete, it is stored and queued (if kept). */
  private stopChunk(chunk: ActiveChunk, isKept: boolean): void {
    chunk.isKept = isKept;
    if (chunk.runningSince !== null) chunk.activeMs += performance.now() - chunk.runningSince;
    chunk.runningSince = null;
    if (isKept) this.finishedMs += chunk.activeMs;
    const stopped = new Promise<void>((resolve) => {
      chunk.recorder.onstop = () => resolve();
      if (chunk.recorder.state === 'inactive') resolve();
      else chunk.recorder.stop();
    });
    this.stopping.push(stopped);
    this.finishing.push(stopped.then(() => this.finishChunk(chunk)));
  }

  private async finishChunk(chunk: ActiveChunk): Promise<void> {
    if (!chunk.isKept) return;
    const { sessionId } = chunk;
    const blob = new Blob(chunk.parts, { type: chunk.recorder.mimeType || this.mimeType || 'audio/webm' });
    // Nothing recorded (stopped within the same instant): no file to send. A recorder stopped just
    // after it started can also hand over the container's header alone (about 40 bytes, no audio
    // frame), which the server rightly refuses as undecodable: that is no chunk either.
    if (blob.size < MIN_AUDIO_BYTES || chunk.activeMs < 50) return;
    if (sessionId === this.snapshot.sessionId) {
      this.update({ chunks: this.snapshot.chunks + 1, bytes: this.snapshot.bytes + blob.size });
    }
    const stored: StoredChunk = {
      key: chunkKey(sessionId, chunk.number),
      sessionId,
      chunkNumber: chunk.number,
      storedAt: Date.now(),
      blob,
      filename: this.filename,
      metadata: buildChunkMetadata({
        sessionId,
        chunkNumber: chunk.number,
        recordedAt: chunk.startedAt,
        durationSeconds: chunk.activeMs / 1000,
        filename: this.filename,
        target: this.target,
      }),
    };
    try {
      await this.queue.add(stored);
    } catch (error) {
      // The device store failed (quota, private mode): the chunk cannot be kept for a retry.
      console.error('The chunk could not be stored on this device', error);
      this.update({ uploadError: UPLOAD_FAILED_TEXT });
    }
  }

  private async failRecording(): Promise<void> {
    if (this.snapshot.status === 'idle') return;
    await this.stop();
    this.update({ error: RECORDER_ERROR_TEXT });
  }

  private elapsedSeconds(chunk: ActiveChunk | null = this.current): number {
    let ms = this.finishedMs;
    if (chunk && chunk === this.current) {
      ms += chunk.activeMs + (chunk.runningSince !== null ? performance.now() - chunk.runningSince : 0);
    }
    return Math.floor(ms / 1000);
  }

  private startMeter(stream: MediaStream): void {
    try {
      const context = new AudioContext();
      const analyser = context.createAnalyser();
      analyser.fftSize = 2048;
      context.createMediaStreamSource(stream).connect(analyser);
      this.audioContext = context;
      this.analyser = analyser;
    } catch (error) {
      // The level bar is a help, not a requirement: record without it.
      console.warn('No audio level meter', error);
    }
    const samples = new Uint8Array(2048);
    this.levelTimer = setInterval(() => {
      if (this.snapshot.status !== 'recording') return;
      let level = 0;
      if (this.analyser) {
        this.analyser.getByteTimeDomainData(samples);
        level = peakLevel(samples);
      }
      const elapsedSeconds = this.elapsedSeconds();
      if (level !== this.snapshot.level || elapsedSeconds !== this.snapshot.elapsedSeconds) {
        this.update({ level, elapsedSeconds });
      }
    }, RECORDING.levelRefreshMs);
  }

  private stopMeter(): void {
    clearInterval(this.levelTimer);
    this.levelTimer = undefined;
    this.analyser = null;
    void this.audioContext?.close().catch(() => {});
    this.audioContext = null;
  }

  private releaseDevices(): void {
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
  }

  private update(change: Partial<RecorderSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
