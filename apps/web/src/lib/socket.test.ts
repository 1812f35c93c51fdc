import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  parseServerMessage,
  RecordingSocket,
  recordingsSocketUrl,
  SOCKET_ERROR_TEXT,
  SOCKET_FAILED_TEXT,
} from './socket';

afterEach(() => vi.useRealTimers());

describe('recordingsSocketUrl', () => {
  it('uses ws on http and wss on https, on the page host', () => {
    expect(recordingsSocketUrl('abc', { protocol: 'http:', host: '127.0.0.1:8080' })).toBe(
      'ws://127.0.0.1:8080/api/ws/recordings/abc',
    );
    expect(recordingsSocketUrl('a b', { protocol: 'https:', host: 'dj.example' })).toBe(
      'wss://dj.example/api/ws/recordings/a%20b',
    );
  });
});

describe('parseServerMessage', () => {
  it('accepts the messages of the contract', () => {
    expect(parseServerMessage('{"type":"connected","data":{"session_id":"s"}}')).toEqual({
      type: 'connected',
      data: { session_id: 's' },
    });
    const song = {
      song_id: 3,
      title: 'Title',
      artist: 'Artist',
      timestamp: '2026-03-05T21:00:00Z',
      ended_at: null,
      confidence: 0.87,
      recording_id: 9,
    };
    expect(parseServerMessage(JSON.stringify({ type: 'song_recognized', data: song }))).toEqual({
      type: 'song_recognized',
      data: song,
    });
    // A cloud recogniser without a score (AudD) sends null; a figure outside 0-1 is refused.
    const unscored = { ...song, confidence: null };
    expect(parseServerMessage(JSON.stringify({ type: 'song_recognized', data: unscored }))?.data).toEqual(
      unscored,
    );
    expect(
      parseServerMessage(JSON.stringify({ type: 'song_recognized', data: { ...song, confidence: 1.5 } })),
    ).toBeNull();
  });
  it('refuses unknown types, wrong shapes and non-JSON', () => {
    expect(parseServerMessage('{"type":"nonsense","data":{}}')).toBeNull();
    expect(parseServerMessage('{"type":"toString","data":{}}')).toBeNull();
    expect(parseServerMessage('{"type":"error","data":{"text":"x"}}')).toBeNull();
    expect(parseServerMessage('not json')).toBeNull();
    expect(parseServerMessage('null')).toBeNull();
  });
});

/** A stand-in for the browser's WebSocket: the test opens, closes and fails it by hand. */
class FakeSocket {
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
}

function makeSocket(handlers: ConstructorParameters<typeof RecordingSocket>[1] = {}) {
  FakeSocket.instances = [];
  return new RecordingSocket('session-1', handlers, {
    createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
    location: { protocol: 'http:', host: 'localhost:5173' },
    now: () => 1234,
  });
}

describe('RecordingSocket', () => {
  it('pings every 30 s once open', () => {
    vi.useFakeTimers();
    const connection: boolean[] = [];
    const socket = makeSocket({ onConnectionChange: (isConnected) => connection.push(isConnected) });
    socket.connect();
    const fake = FakeSocket.instances[0]!;
    expect(fake.url).toBe('ws://localhost:5173/api/ws/recordings/session-1');
    fake.open();
    expect(connection).toEqual([true]);
    vi.advanceTimersByTime(29_999);
    expect(fake.sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fake.sent.map((text) => JSON.parse(text))).toEqual([{ type: 'ping', timestamp: 1234 }]);
    socket.close();
  });

  it('reconnects 3 s after a close, and not after close()', () => {
    vi.useFakeTimers();
    const errors: string[] = [];
    const socket = makeSocket({ onError: (message) => errors.push(message) });
    socket.connect();
    const first = FakeSocket.instances[0]!;
    first.open();
    first.onerror?.();
    first.drop();
    expect(errors).toEqual([SOCKET_ERROR_TEXT]);
    vi.advanceTimersByTime(2_999);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);

    socket.close();
    FakeSocket.instances[1]!.drop();
    vi.advanceTimersByTime(10_000);
    expect(FakeSocket.instances).toHaveLength(2);
  });

  it("says 'Connection failed' when the socket cannot be created, and tries again", () => {
    vi.useFakeTimers();
    const errors: string[] = [];
    let attempts = 0;
    const socket = new RecordingSocket(
      's',
      { onError: (message) => errors.push(message) },
      {
        createSocket: () => {
          attempts += 1;
          throw new Error('blocked');
        },
        location: { protocol: 'http:', host: 'x' },
      },
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    socket.connect();
    expect(errors).toEqual([SOCKET_FAILED_TEXT]);
    vi.advanceTimersByTime(3_000);
    expect(attempts).toBe(2);
    socket.close();
  });

  it('hands on only valid messages', () => {
    const messages: unknown[] = [];
    const socket = makeSocket({ onMessage: (message) => messages.push(message) });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    socket.connect();
    const fake = FakeSocket.instances[0]!;
    fake.open();
    fake.onmessage?.({ data: '{"type":"pong","data":{"timestamp":5}}' });
    fake.onmessage?.({ data: '{"type":"pong","data":{}}' });
    expect(messages).toEqual([{ type: 'pong', data: { timestamp: 5 } }]);
    socket.close();
  });
});
