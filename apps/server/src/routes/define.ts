import { type Endpoint, ErrorResponse } from '@wcs/contract';
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

/** The refusals an operation can answer with, besides its success (docs/api.md, "Errors"). */
export function errorStatuses(
  endpoint: Pick<Endpoint, 'method' | 'path' | 'isExpensive' | 'extraErrors'>,
  extra: readonly number[] = [],
) {
  // 404: an id in the path, the query (event_id, social_id, ids) or the body names no row.
  const statuses = new Set([400, 404, 500, 503, ...(endpoint.extraErrors ?? []), ...extra]);
  if (endpoint.method !== 'GET') {
    statuses.add(409); // a conflict with stored data
    statuses.add(413); // a body over the limit
    statuses.add(415); // a body that is not JSON
  }
  if (endpoint.isExpensive) statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

/** Response schemas of an operation: its success and every refusal it declares. */
export function responseSchemas(status: number, success: z.ZodType, errors: number[]) {
  return { [status]: success, ...Object.fromEntries(errors.map((code) => [code, ErrorResponse])) };
}

/** Per-route options of @fastify/rate-limit: the app's limit for operations that start heavy work. */
export const rateLimited = { rateLimit: {} };

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
      response: responseSchemas(status, endpoint.response, errorStatuses(endpoint)),
    },
    ...(endpoint.isExpensive ? { config: rateLimited } : {}),
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
