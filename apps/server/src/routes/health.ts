import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API_VERSION } from '../app.js';
import type { AppDeps } from '../deps.js';
import { checkHealth } from '../services/health.js';

export async function healthRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and database reachability',
        response: {
          200: z.object({ status: z.literal('ok'), version: z.string(), database: z.literal('ok') }),
        },
      },
    },
    async () => ({ ...(await checkHealth(deps.pool)), version: API_VERSION }),
  );
}
