import { ClientMessage, serverMessage } from '@wcs/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';

const SessionParams = z.object({ session_id: z.string().min(1).max(128) });

/**
 * The live socket of a recording session: the server forwards what the hub publishes for the
 * session (chunk_uploaded, status, song_recognized) and answers ping with pong.
 */
export async function wsRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get(
    '/api/ws/recordings/:session_id',
    // Signed-in viewers and tokens; a browser on another site is refused (routes/access.ts).
    {
      websocket: true,
      config: { access: 'viewer' },
      schema: { tags: ['live'], params: SessionParams, hide: true },
    },
    (socket, request) => {
      const { session_id: sessionId } = request.params as z.infer<typeof SessionParams>;
      const send = (message: unknown) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      };
      const unsubscribe = deps.live.subscribe(sessionId, send);
      socket.on('close', unsubscribe);
      socket.on('message', (raw) => {
        let parsed: ReturnType<typeof ClientMessage.safeParse>;
        try {
          parsed = ClientMessage.safeParse(JSON.parse(raw.toString()));
        } catch {
          send(serverMessage('error', { message: 'Messages must be JSON' }));
          return;
        }
        if (!parsed.success) {
          send(serverMessage('error', { message: 'Unknown message: send {"type":"ping","timestamp":<ms>}' }));
          return;
        }
        send(serverMessage('pong', { timestamp: parsed.data.timestamp }));
      });
      send(serverMessage('connected', { session_id: sessionId }));
    },
  );
}
