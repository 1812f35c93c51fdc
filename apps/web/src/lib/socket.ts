import {
  type ClientMessage,
  type ServerMessage,
  ServerMessages,
  type ServerMessageType,
  SOCKET,
  wsRecordingsPath,
} from '@wcs/contract';

import { SOCKET_ERROR_TEXT, SOCKET_FAILED_TEXT } from './socket-texts';

export { SOCKET_ERROR_TEXT, SOCKET_FAILED_TEXT };

/** ws:// on an http page, wss:// on an https page, same host as the page. */
export function recordingsSocketUrl(
  sessionId: string,
  location: Pick<Location, 'protocol' | 'host'>,
): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${wsRecordingsPath(sessionId)}`;
}

function isMessageType(type: unknown): type is ServerMessageType {
  return typeof type === 'string' && Object.hasOwn(ServerMessages, type);
}

/** A server message checked against the contract's schema of its type; null when it is not one. */
export function parseServerMessage(raw: string): ServerMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { type, data } = value as { type?: unknown; data?: unknown };
  if (!isMessageType(type)) return null;
  const parsed = ServerMessages[type].safeParse(data);
  if (!parsed.success) return null;
  return { type, data: parsed.data } as ServerMessage;
}

export interface RecordingSocketHandlers {
  /** Every valid message from the server. */
  onMessage?: (message: ServerMessage) => void;
  /** True once the socket is open, false when it closes. */
  onConnectionChange?: (isConnected: boolean) => void;
  /** 'Connection error' on a socket error, 'Connection failed' when it cannot be opened at all. */
  onError?: (message: string) => void;
}

/** What the socket needs from the browser; injectable so the timing is tested without a server. */
export interface SocketEnvironment {
  createSocket: (url: string) => WebSocket;
  location: Pick<Location, 'protocol' | 'host'>;
  now: () => number;
}

/**
 * The live socket of one recording session: connects to /api/ws/recordings/{session}, pings every
 * 30 s, and reconnects 3 s after any close until `close()` is called.
 */
export class RecordingSocket {
  private socket: WebSocket | null = null;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private isClosedByUs = false;
  private readonly env: SocketEnvironment;

  constructor(
    readonly sessionId: string,
    private readonly handlers: RecordingSocketHandlers,
    env?: Partial<SocketEnvironment>,
  ) {
    this.env = {
      createSocket: env?.createSocket ?? ((url) => new WebSocket(url)),
      location: env?.location ?? globalThis.location,
      now: env?.now ?? (() => Date.now()),
    };
  }

  get isConnected(): boolean {
    return this.socket?.readyState === 1; // WebSocket.OPEN
  }

  connect(): void {
    this.isClosedByUs = false;
    this.open();
  }

  /** Closes for good: no reconnect. */
  close(): void {
    this.isClosedByUs = true;
    clearTimeout(this.reconnectTimer);
    this.stopPing();
    const socket = this.socket;
    this.socket = null;
    if (socket && socket.readyState <= 1) socket.close(1000, 'recording ended');
  }

  send(message: ClientMessage): void {
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  private open(): void {
    let socket: WebSocket;
    try {
      socket = this.env.createSocket(recordingsSocketUrl(this.sessionId, this.env.location));
    } catch (error) {
      console.error('The live socket could not be opened', error);
      this.handlers.onError?.(SOCKET_FAILED_TEXT);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.handlers.onConnectionChange?.(true);
      this.startPing();
    };
    socket.onmessage = (event: MessageEvent) => {
      if (this.socket !== socket || typeof event.data !== 'string') return;
      const message = parseServerMessage(event.data);
      if (message) this.handlers.onMessage?.(message);
      else console.warn('Ignored a live message that is not in the contract', event.data);
    };
    socket.onerror = () => {
      if (this.socket !== socket) return;
      this.handlers.onError?.(SOCKET_ERROR_TEXT);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.stopPing();
      this.handlers.onConnectionChange?.(false);
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.isClosedByUs) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      if (!this.isClosedByUs) this.open();
    }, SOCKET.reconnectMs);
  }

  private startPing(): void {
    this.stopPing();
    this.pingTimer = setInterval(() => this.send({ type: 'ping', timestamp: this.env.now() }), SOCKET.pingMs);
  }

  private stopPing(): void {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
  }
}
