import type { Endpoint } from '@wcs/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteInput<E extends Endpoint> {
  params: Infer<E['params']>;
  query: Infer<E['query']>;
  body: Infer<E['body']>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Registers one endpoint of the contract under /api: its schemas validate the request and the
 * response, and the handler calls a service. Routes hold no rules of their own.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  tag: string,
  endpoint: E,
  handler: (input: RouteInput<E>) => Promise<z.input<E['response']>>,
): void {
  const status = endpoint.status ?? 200;
  app.route({
    method: endpoint.method,
    url: `/api${endpoint.path}`,
    schema: {
      tags: [tag],
      summary: endpoint.summary,
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      response: { [status]: endpoint.response },
    },
    handler: async (request, reply) => {
      const result = await handler({
        params: request.params as Infer<E['params']>,
        query: request.query as Infer<E['query']>,
        body: request.body as Infer<E['body']>,
        request,
        reply,
      });
      reply.status(status);
      return result;
    },
  });
}
