import type { ServerMessage } from '@wcs/contract';
import pg from 'pg';

const CHANNEL = 'wcs_live';

type Listener = (message: ServerMessage) => void;

/**
 * Messages for the sockets of a recording session. Published through PostgreSQL NOTIFY, so a
 * job running in any process reaches the sockets held by the HTTP process.
 */
export interface LiveHub {
  publish(sessionId: string, message: ServerMessage): Promise<void>;
  subscribe(sessionId: string, listener: Listener): () => void;
  close(): Promise<void>;
}

export async function createLiveHub(pool: pg.Pool, connectionString: string): Promise<LiveHub> {
  const listeners = new Map<string, Set<Listener>>();
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const deliver = (payload: string | undefined) => {
    if (!payload) return;
    const { sessionId, message } = JSON.parse(payload) as { sessionId: string; message: ServerMessage };
    for (const listener of listeners.get(sessionId) ?? []) listener(message);
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString });
    next.on('notification', (note) => deliver(note.payload));
    // A lost listening connection is re-opened; messages sent meanwhile are missed, which the
    // clients tolerate (they refresh the recording on reconnect).
    next.on('error', () => {
      next.end().catch(() => {});
      if (!closed) retry = setTimeout(() => connect().catch(() => {}), 1000);
    });
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    client = next;
  };
  await connect();

  return {
    async publish(sessionId, message) {
      await pool.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ sessionId, message })]);
    },
    subscribe(sessionId, listener) {
      const set = listeners.get(sessionId) ?? new Set();
      set.add(listener);
      listeners.set(sessionId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(sessionId);
      };
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
