import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { checkHealth } from '../services/health.js';
import { API_VERSION } from '../version.js';
import { responseSchemas } from './define.js';

export async function healthRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get(
    '/api/health',
    {
      // Anyone: load balancers and the start-up wait ask it; it says nothing about the data.
      config: { access: 'anonymous' },
      schema: {
        tags: ['system'],
        summary: 'Liveness and database reachability',
        response: responseSchemas(
          200,
          z.object({ status: z.literal('ok'), version: z.string(), database: z.literal('ok') }),
          // 503: the database does not answer, or the server is overloaded; 421: a foreign Host;
          // 401: a bearer token that is not valid.
          [401, 421, 500, 503],
        ),
      },
    },
    async () => ({ ...(await checkHealth(deps.pool)), version: API_VERSION }),
  );
}
