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
  endpoint: Pick<Endpoint, 'access' | 'method' | 'path' | 'isExpensive' | 'extraErrors'>,
  extra: readonly number[] = [],
) {
  // 404: an id in the path, the query (event_id, social_id, ids) or the body names no row.
  // 421: a Host this server does not answer for (routes/access.ts).
  const statuses = new Set([400, 404, 421, 500, 503, ...(endpoint.extraErrors ?? []), ...extra]);
  // 401: no session or token where one is needed, or a token that is not valid (on any route).
  statuses.add(401);
  // 403: a role below the operation's, or a cross-site request with the session cookie.
  if (endpoint.access !== 'anonymous' || endpoint.method !== 'GET') statuses.add(403);
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

/** The line of the API document that says who may call an operation (docs/security.md). */
export function accessDescription(access: Endpoint['access']): string {
  return `Who may call it: ${access === 'anonymous' ? 'anyone' : `${access} or above (a session or a token)`}.`;
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
  /** More route config, e.g. a rate limit of its own (@fastify/rate-limit's per-route options). */
  extraConfig: Record<string, unknown> = {},
): void {
  const status = endpoint.status ?? 200;
  app.route({
    method: endpoint.method,
    url: `/api${endpoint.path}`,
    schema: {
      tags: [tag],
      summary: endpoint.summary,
      description: accessDescription(endpoint.access),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      response: responseSchemas(status, endpoint.response, errorStatuses(endpoint)),
    },
    config: { access: endpoint.access, ...(endpoint.isExpensive ? rateLimited : {}), ...extraConfig },
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
