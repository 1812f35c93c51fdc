import { RECORDING } from '@wcs/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  addRecentSong,
  audioConstraints,
  buildChunkMetadata,
  chunkKey,
  extensionFor,
  inUploadOrder,
  isLevelWarning,
  isRecordingSupported,
  isRetryableStatus,
  levelTone,
  MemoryChunkStore,
  newSessionId,
  PREFERRED_MIME_TYPE,
  peakLevel,
  pickMimeType,
  recordingFilename,
  resolveChunkMs,
  type StoredChunk,
  UploadError,
  type UploadFn,
  UploadQueue,
  type UploadResult,
} from './recorder';

afterEach(() => {
  vi.useRealTimers();
});

describe('pickMimeType', () => {
  it('prefers webm with opus', () => {
    expect(pickMimeType(() => true)).toBe(PREFERRED_MIME_TYPE);
  });
  it('falls back to the first supported type, in order', () => {
    expect(pickMimeType((type) => type === 'audio/mp4' || type === 'audio/ogg')).toBe('audio/ogg');
    expect(pickMimeType((type) => type === 'audio/mp4')).toBe('audio/mp4');
  });
  it('lets the browser choose when nothing is supported or the check throws', () => {
    expect(pickMimeType(() => false)).toBe('');
    expect(
      pickMimeType((type) => {
        if (type.includes('opus')) throw new Error('unknown');
        return type === 'audio/webm';
      }),
    ).toBe('audio/webm');
  });
});

describe('extensionFor and recordingFilename', () => {
  it('names the file after the container', () => {
    expect(extensionFor('audio/webm;codecs=opus')).toBe('webm');
    expect(extensionFor('audio/ogg')).toBe('ogg');
    expect(extensionFor('audio/mp4;codecs=mp4a.40.2')).toBe('m4a');
    expect(extensionFor('')).toBe('webm');
  });
  it('dates the file by its local start time', () => {
    expect(recordingFilename(new Date(2026, 2, 5, 21, 4, 9), 'audio/webm')).toBe(
      'browser-recording-2026-03-05_21-04-09.webm',
    );
  });
});

describe('resolveChunkMs', () => {
  it('is 30 s unless the test hook sets a positive number', () => {
    expect(resolveChunkMs({})).toBe(RECORDING.chunkSeconds * 1000);
    expect(resolveChunkMs({ __WCS_TEST_CHUNK_MS__: 2000 })).toBe(2000);
    expect(resolveChunkMs({ __WCS_TEST_CHUNK_MS__: 0 })).toBe(30_000);
    expect(resolveChunkMs({ __WCS_TEST_CHUNK_MS__: '2000' })).toBe(30_000);
  });
});

describe('isRecordingSupported', () => {
  it('needs MediaRecorder and getUserMedia', () => {
    const getUserMedia = () => Promise.resolve();
    expect(
      isRecordingSupported({ MediaRecorder: class {}, navigator: { mediaDevices: { getUserMedia } } }),
    ).toBe(true);
    expect(isRecordingSupported({ navigator: { mediaDevices: { getUserMedia } } })).toBe(false);
    expect(isRecordingSupported({ MediaRecorder: class {}, navigator: {} })).toBe(false);
  });
});

describe('audioConstraints', () => {
  it('asks for 48 kHz with echo cancellation, noise suppression and gain control', () => {
    expect(audioConstraints('mic-2')).toEqual({
      deviceId: { exact: 'mic-2' },
      sampleRate: 48_000,
      echoCancellation: true,
      noiseSuppression: true,
      autoGainControl: true,
    });
    expect(audioConstraints(undefined)).not.toHaveProperty('deviceId');
  });
});

describe('level meter', () => {
  it('reads the peak deviation from silence (128) in percent', () => {
    expect(peakLevel(new Uint8Array([128, 128, 128]))).toBe(0);
    expect(peakLevel(new Uint8Array([128, 192, 100]))).toBe(50);
    expect(peakLevel(new Uint8Array([0, 255]))).toBe(100);
  });
  it('colours red above 80, accent above 50, and warns above 90', () => {
    expect(levelTone(50)).toBe('success');
    expect(levelTone(51)).toBe('accent');
    expect(levelTone(80)).toBe('accent');
    expect(levelTone(81)).toBe('error');
    expect(isLevelWarning(90)).toBe(false);
    expect(isLevelWarning(91)).toBe(true);
  });
});

describe('newSessionId', () => {
  it('makes a UUID the server accepts, also without randomUUID', () => {
    const withoutRandomUuid = { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) };
    const id = newSessionId(withoutRandomUuid as Crypto);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newSessionId()).toMatch(/^[A-Za-z0-9._:-]+$/);
  });
});

describe('buildChunkMetadata', () => {
  const base = {
    sessionId: 's-1',
    chunkNumber: 2,
    recordedAt: new Date('2026-03-05T20:00:00Z'),
    durationSeconds: 30.0004,
    filename: 'browser-recording.webm',
  };
  it('sends the event id when an event is chosen', () => {
    expect(buildChunkMetadata({ ...base, target: { eventId: 7, eventName: 'ignored' } })).toEqual({
      session_id: 's-1',
      chunk_number: 2,
      recorded_at: '2026-03-05T20:00:00.000Z',
      duration_seconds: 30,
      event_id: 7,
      source: 'web_browser',
      filename: 'browser-recording.webm',
    });
  });
  it('sends a trimmed new event name, or neither', () => {
    expect(buildChunkMetadata({ ...base, target: { eventName: '  Friday Social ' } }).event_name).toBe(
      'Friday Social',
    );
    const none = buildChunkMetadata({ ...base, target: { eventName: '  ' } });
    expect(none).not.toHaveProperty('event_id');
    expect(none).not.toHaveProperty('event_name');
  });
  it('never sends a zero duration', () => {
    expect(buildChunkMetadata({ ...base, durationSeconds: 0, target: {} }).duration_seconds).toBeGreaterThan(
      0,
    );
  });
});

describe('addRecentSong', () => {
  const song = (n: number) => ({
    title: `T${n}`,
    artist: 'A',
    timestamp: `2026-03-05T20:0${n}:00Z`,
    confidence: 0.9,
  });
  it('keeps the newest 10, newest first, without repeats', () => {
    let list: ReturnType<typeof addRecentSong> = [];
    for (let n = 0; n < 12; n++) list = addRecentSong(list, song(n % 10 === 0 && n > 0 ? 0 : n));
    expect(list).toHaveLength(10);
    expect(list[0]?.title).toBe('T11');
    expect(list.filter((item) => item.title === 'T0')).toHaveLength(1);
  });
});

describe('isRetryableStatus', () => {
  it('retries network trouble, server errors and an ended session, not refusals of the chunk', () => {
    for (const status of [0, 401, 408, 429, 500, 502, 503]) expect(isRetryableStatus(status)).toBe(true);
    for (const status of [400, 403, 404, 409, 413, 415]) expect(isRetryableStatus(status)).toBe(false);
  });
});

function chunk(sessionId: string, chunkNumber: number, storedAt: number): StoredChunk {
  return {
    key: chunkKey(sessionId, chunkNumber),
    sessionId,
    chunkNumber,
    storedAt,
    blob: new Blob([`audio ${sessionId} ${chunkNumber}`]),
    filename: 'f.webm',
    metadata: {
      session_id: sessionId,
      chunk_number: chunkNumber,
      duration_seconds: 30,
      source: 'web_browser',
    },
  };
}

describe('inUploadOrder', () => {
  it('sends older sessions first and chunks by number', () => {
    const ordered = inUploadOrder([
      chunk('b', 0, 50),
      chunk('a', 1, 40),
      chunk('a', 0, 10),
      chunk('b', 1, 60),
    ]);
    expect(ordered.map((item) => item.key)).toEqual(['a:0', 'a:1', 'b:0', 'b:1']);
  });
});

const acknowledged = (item: StoredChunk) =>
  ({
    recording_id: 1,
    session_id: item.sessionId,
    chunk_number: item.chunkNumber,
  }) as unknown as UploadResult;

describe('UploadQueue', () => {
  it('uploads in order and deletes each chunk only after the server acknowledged it', async () => {
    const store = new MemoryChunkStore();
    const sent: string[] = [];
    const upload: UploadFn = async (item) => {
      expect((await store.list()).some((stored) => stored.key === item.key)).toBe(true);
      sent.push(item.key);
      return acknowledged(item);
    };
    const uploaded: string[] = [];
    const queue = new UploadQueue(store, upload, { onUploaded: (item) => uploaded.push(item.key) });
    await store.put(chunk('s', 1, 2));
    await queue.add(chunk('s', 0, 1));
    expect(sent).toEqual(['s:0', 's:1']);
    expect(uploaded).toEqual(['s:0', 's:1']);
    expect(await store.list()).toEqual([]);
  });

  it('keeps a chunk after a network failure, holds later ones back, and sends all again in order', async () => {
    vi.useFakeTimers();
    const store = new MemoryChunkStore();
    let isOnline = false;
    const sent: string[] = [];
    const upload: UploadFn = async (item) => {
      if (!isOnline) throw new UploadError('Upload failed', true);
      sent.push(item.key);
      return acknowledged(item);
    };
    const failures: [string, string, boolean][] = [];
    const queue = new UploadQueue(
      store,
      upload,
      { onFailed: (item, message, willRetry) => failures.push([item.key, message, willRetry]) },
      5_000,
    );
    await queue.add(chunk('s', 0, 1));
    await queue.add(chunk('s', 1, 2));
    expect(sent).toEqual([]);
    expect((await store.list()).map((item) => item.key)).toEqual(['s:0', 's:1']);
    expect(failures[0]).toEqual(['s:0', 'Upload failed', true]);
    // Never s:1 before s:0.
    expect(failures.every(([key]) => key === 's:0')).toBe(true);

    isOnline = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sent).toEqual(['s:0', 's:1']);
    expect(await store.list()).toEqual([]);
    queue.dispose();
  });

  it('drops a chunk the server refuses for good and goes on with the next', async () => {
    const store = new MemoryChunkStore();
    const sent: string[] = [];
    const upload: UploadFn = async (item) => {
      if (item.chunkNumber === 0) throw new UploadError('metadata.duration_seconds: too big', false, 400);
      sent.push(item.key);
      return acknowledged(item);
    };
    const failures: string[] = [];
    const queue = new UploadQueue(store, upload, { onFailed: (_item, message) => failures.push(message) });
    await store.put(chunk('s', 0, 1));
    await queue.add(chunk('s', 1, 2));
    expect(failures).toEqual(['metadata.duration_seconds: too big']);
    expect(sent).toEqual(['s:1']);
    expect(await store.list()).toEqual([]);
  });

  it('never sends the chunks of a cancelled session', async () => {
    const store = new MemoryChunkStore();
    const sent: string[] = [];
    const queue = new UploadQueue(store, async (item) => {
      sent.push(item.key);
      return acknowledged(item);
    });
    await store.put(chunk('gone', 0, 1));
    await store.put(chunk('kept', 0, 2));
    await queue.discardSession('gone');
    await queue.drain();
    expect(sent).toEqual(['kept:0']);
  });

  it('runs one upload at a time when chunks arrive during an upload', async () => {
    const store = new MemoryChunkStore();
    let inFlight = 0;
    let maxInFlight = 0;
    const sent: string[] = [];
    const queue = new UploadQueue(store, async (item) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      sent.push(item.key);
      return acknowledged(item);
    });
    await Promise.all([
      queue.add(chunk('s', 0, 1)),
      queue.add(chunk('s', 1, 2)),
      queue.add(chunk('s', 2, 3)),
    ]);
    await queue.drain();
    expect(maxInFlight).toBe(1);
    expect(sent).toEqual(['s:0', 's:1', 's:2']);
  });
});
