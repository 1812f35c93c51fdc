import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';

export interface ApiRecording {
  recording_id: number;
  session_id: string;
  filename: string;
  processed: boolean;
  error_message: string | null;
  chunk_count: number;
  event_id: number | null;
  event_name: string | null;
  source: string;
  duration_minutes: number;
  file_size_mb: number;
  songs_recognized: number;
}

export interface ApiEvent {
  event_id: number;
  event_name: string;
  start_date: string;
  end_date: string;
  location: string | null;
  is_festival: boolean;
  event_weight: number;
  timezone: string;
}

/**
 * A mono 16-bit PCM WAV of `seconds` at 48 kHz: a tone that changes pitch every half second (a
 * steady sine would be taken for noise by the browser's noise suppression).
 */
export function makeWav(seconds: number, sampleRate = 48_000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const buffer = Buffer.alloc(44 + samples * 2);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write('WAVE', 8, 'ascii');
  buffer.write('fmt ', 12, 'ascii');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(1, 22); // mono
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(samples * 2, 40);
  const notes = [262, 330, 392, 523, 440, 349];
  for (let index = 0; index < samples; index++) {
    const note = notes[Math.floor(index / (sampleRate / 2)) % notes.length] ?? 440;
    const value = 0.5 * Math.sin((2 * Math.PI * note * index) / sampleRate);
    buffer.writeInt16LE(Math.round(value * 32767), 44 + index * 2);
  }
  return buffer;
}

/** Writes the WAV once per process to the temp folder and returns its path. */
export function fakeMicrophoneFile(seconds = 10): string {
  const file = path.join(os.tmpdir(), `wcs-e2e-microphone-${seconds}s.wav`);
  if (!fs.existsSync(file)) fs.writeFileSync(file, makeWav(seconds));
  return file;
}

/** Creates an event through the API. */
export async function createEvent(
  request: APIRequestContext,
  fields: {
    event_name: string;
    start_date?: string;
    end_date?: string;
    is_festival?: boolean;
    location?: string;
    country_code?: string;
  },
): Promise<ApiEvent> {
  const today = new Date().toISOString().slice(0, 10);
  const response = await request.post('/api/events/', {
    data: { start_date: today, end_date: today, is_festival: false, ...fields },
  });
  if (!response.ok())
    throw new Error(`POST /api/events/ answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as ApiEvent;
}

/** Uploads one chunk of a session through the API, as the recording device does (a WAV tone by default). */
export async function uploadChunk(
  request: APIRequestContext,
  metadata: { session_id: string; chunk_number: number; duration_seconds: number } & Record<string, unknown>,
  seconds = 2,
  audio: { name: string; mimeType: string; buffer: Buffer } = {
    name: `${metadata.session_id}.wav`,
    mimeType: 'audio/wav',
    buffer: makeWav(seconds),
  },
): Promise<ApiRecording> {
  const response = await request.post('/api/recordings/upload', {
    multipart: { metadata: JSON.stringify(metadata), audio_file: audio },
  });
  if (!response.ok()) throw new Error(`upload answered ${response.status()}: ${await response.text()}`);
  return ((await response.json()) as { recording: ApiRecording }).recording;
}

export async function listRecordings(
  request: APIRequestContext,
  query: Record<string, string> = {},
): Promise<{ recordings: ApiRecording[]; total: number }> {
  const response = await request.get('/api/recordings/', { params: { limit: '100', ...query } });
  if (!response.ok()) throw new Error(`GET /api/recordings/ answered ${response.status()}`);
  return (await response.json()) as { recordings: ApiRecording[]; total: number };
}

/** The Recordings screen at /recordings. */
export class RecordingsPage {
  readonly heading: Locator;
  readonly unprocessedToggle: Locator;
  readonly showAllToggle: Locator;
  readonly refreshButton: Locator;
  readonly alerts: Locator;

  readonly recorder: Locator;
  readonly recorderBadge: (label: 'Idle' | 'Recording' | 'Paused') => Locator;
  readonly eventSelect: Locator;
  readonly newEventName: Locator;
  readonly deviceSelect: Locator;
  readonly refreshDevicesButton: Locator;
  readonly startButton: Locator;
  readonly pauseButton: Locator;
  readonly resumeButton: Locator;
  readonly stopButton: Locator;
  readonly cancelButton: Locator;
  readonly elapsed: Locator;
  readonly levelBar: Locator;

  readonly today: Locator;
  readonly stats: Locator;
  readonly list: Locator;
  readonly listSection: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Recordings', exact: true });
    this.unprocessedToggle = page.getByRole('button', { name: 'Unprocessed Only', exact: true });
    this.showAllToggle = page.getByRole('button', { name: 'Show All', exact: true });
    this.refreshButton = page.getByRole('button', { name: 'Refresh', exact: true });
    this.alerts = page.getByRole('alert');

    this.recorder = page.getByRole('region', { name: 'Browser Recording', exact: true });
    this.recorderBadge = (label) => this.recorder.getByText(label, { exact: true });
    this.eventSelect = this.recorder.getByRole('combobox', { name: 'Event', exact: true });
    this.newEventName = this.recorder.getByRole('textbox', { name: 'New event name (optional)' });
    this.deviceSelect = this.recorder.getByRole('combobox', { name: 'Input device' });
    this.refreshDevicesButton = this.recorder.getByRole('button', { name: 'Refresh devices' });
    this.startButton = this.recorder.getByRole('button', { name: 'Start Recording' });
    this.pauseButton = this.recorder.getByRole('button', { name: 'Pause', exact: true });
    this.resumeButton = this.recorder.getByRole('button', { name: 'Resume', exact: true });
    this.stopButton = this.recorder.getByRole('button', { name: 'Stop', exact: true });
    this.cancelButton = this.recorder.getByRole('button', { name: 'Cancel', exact: true });
    this.elapsed = this.recorder.getByRole('timer', { name: 'Elapsed time' });
    this.levelBar = this.recorder.getByRole('progressbar', { name: 'Audio level' });

    this.today = page.getByRole('region', { name: /Today's Browser Recordings/ });
    this.stats = page.getByRole('region', { name: 'Recording statistics' });
    this.listSection = page.getByRole('region', { name: /^(All|Unprocessed) Recordings/ });
    this.list = this.listSection.getByRole('list', { name: 'Recordings' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/recordings');
    await this.heading.waitFor();
  }

  /** Waits until every recorded chunk is acknowledged by the server (Uploaded equals Chunks). */
  async waitForUploads(timeout = 20_000): Promise<number> {
    let chunks = -1;
    await expect
      .poll(
        async () => {
          chunks = Number(await this.counter('Chunks').textContent());
          return Number(await this.counter('Uploaded').textContent()) === chunks;
        },
        { timeout },
      )
      .toBe(true);
    return chunks;
  }

  /** A counter of the recorder panel (Chunks, Uploaded, Size): its figure. */
  counter(label: 'Chunks' | 'Uploaded' | 'Size'): Locator {
    return this.recorder.getByRole('article', { name: label, exact: true }).getByRole('paragraph');
  }

  statTile(label: string): Locator {
    return this.stats.getByRole('article', { name: label, exact: true });
  }

  /** A recording of the main list, by its filename. */
  listItem(filename: string): Locator {
    return this.list.getByRole('listitem', { name: filename, exact: true });
  }

  /** A recording of Today's Browser Recordings, by its filename. */
  todayItem(filename: string): Locator {
    return this.today.getByRole('listitem', { name: filename, exact: true });
  }
}
