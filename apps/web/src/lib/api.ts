import { type Api, type EndpointName, HTTP_TIMEOUT_MS } from '@wcs/contract';
import type { z } from 'zod';
import { API_ROUTES } from './api-routes';

/**
 * The one HTTP client of the web app. Request and response types are inferred from the contract
 * (`packages/contract/src/api.ts`); at run time only each call's method and path are needed
 * (`api-routes.ts`, checked against the contract by tsc), so zod stays out of the screens' code.
 */

type Input<T> = T extends z.ZodType ? z.input<T> : never;
type Field<E, K extends string, Key extends string> =
  E extends Record<K, z.ZodType>
    ? undefined extends Input<E[K]>
      ? { [P in Key]?: Input<E[K]> }
      : { [P in Key]: Input<E[K]> }
    : { [P in Key]?: never };

export type ApiRequest<N extends EndpointName> = Field<Api[N], 'params', 'params'> &
  Field<Api[N], 'query', 'query'> &
  Field<Api[N], 'body', 'body'>;
export type ApiResponse<N extends EndpointName> = z.output<Api[N]['response']>;

export const API_BASE = '/api';

/** A failed call: `message` is the server's `message`, else 'API Error {status}: {body}'. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The error text the specification shows: the server's message, else the first 200 characters. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown; detail?: unknown };
    const message = body.message ?? body.detail;
    if (typeof message === 'string' && message !== '') return new ApiError(response.status, message);
  } catch {
    // not JSON: fall through to the raw text
  }
  return new ApiError(response.status, `API Error ${response.status}: ${text.slice(0, 200)}`);
}

export function buildUrl(
  path: string,
  params?: Record<string, unknown>,
  query?: Record<string, unknown>,
): string {
  const filled = path.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const qs = search.toString();
  return `${API_BASE}${filled}${qs ? `?${qs}` : ''}`;
}

type UnauthorizedHandler = () => void;
let unauthorizedHandler: UnauthorizedHandler | undefined;

/**
 * What the app does when a guarded call answers 401 (the session expired, was signed out from
 * another browser, or its account was deleted): app/router.tsx clears the cache and opens the login
 * page. A 401 of an anonymous call (a wrong password, a used setup link) is that call's own answer.
 */
export function onUnauthorized(handler: UnauthorizedHandler | undefined): void {
  unauthorizedHandler = handler;
}

/** Tells the app that the server no longer knows who is calling. */
export function reportUnauthorized(): void {
  unauthorizedHandler?.();
}

/** Calls one endpoint of the contract; 30 s timeout; resolves with the response body. */
export async function apiCall<N extends EndpointName>(
  name: N,
  // biome-ignore lint/complexity/noBannedTypes: "{} is assignable" is exactly "every field is optional".
  ...[request, options]: {} extends ApiRequest<N>
    ? [request?: ApiRequest<N>, options?: { signal?: AbortSignal }]
    : [request: ApiRequest<N>, options?: { signal?: AbortSignal }]
): Promise<ApiResponse<N>> {
  // Only method and path are needed at run time; the types above already fixed the shapes.
  const [method, path, access] = API_ROUTES[name];
  const { params, query, body } = ((request as unknown) ?? {}) as {
    params?: Record<string, unknown>;
    query?: Record<string, unknown>;
    body?: unknown;
  };
  const timeout = AbortSignal.timeout(HTTP_TIMEOUT_MS);
  const signal = options?.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const init: RequestInit = { method, signal, headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, 'content-type': 'application/json' };
  }
  let response: Response;
  try {
    response = await fetch(buildUrl(path, params, query), init);
  } catch (error) {
    if (timeout.aborted) throw new ApiError(0, `Request timed out after ${HTTP_TIMEOUT_MS / 1000} s`);
    throw error;
  }
  if (!response.ok) {
    const error = await errorFromResponse(response);
    if (response.status === 401 && access !== 'anonymous') reportUnauthorized();
    throw error;
  }
  return (await response.json()) as ApiResponse<N>;
}

/** Lists arrive as { data | items, total }: the specification's rule for reading them. */
export function listItems<T>(body: { data?: T[]; items?: T[] } | undefined): T[] {
  return body?.data ?? body?.items ?? [];
}

/** A human sentence from any thrown value. */
export function errorMessage(error: unknown, fallback = 'Something went wrong'): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
