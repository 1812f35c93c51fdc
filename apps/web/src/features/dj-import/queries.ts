import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InteropOptionsInput } from '@wcs/contract';
import {
  ApiError,
  type ApiResponse,
  apiCall,
  buildUrl,
  errorFromResponse,
  reportUnauthorized,
} from '../../lib/api';
import { API_ROUTES } from '../../lib/api-routes';
import { SESSION_KEY } from '../../lib/session';
import { uploadBodyOf } from './lib/import-request';

export type InteropResult = ApiResponse<'previewInterop'>;

/** The events an import can put every session into: the newest 500, as the events screen lists them. */
const EVENT_CHOICES_LIMIT = 500;

const eventsOptions = () =>
  queryOptions({
    queryKey: ['events', 'list', { limit: EVENT_CHOICES_LIMIT }] as const,
    queryFn: ({ signal }) => apiCall('listEvents', { query: { limit: EVENT_CHOICES_LIMIT } }, { signal }),
  });

export function useEventChoices(isEnabled: boolean) {
  return useQuery({ ...eventsOptions(), enabled: isEnabled });
}

/** The route's loader: the events list starts loading while the screen's code loads. */
export function prefetch(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(eventsOptions());
}

/** What is read: an uploaded file, or (admins) a file or folder on the server inside the library roots. */
export type InteropSource = { kind: 'upload'; file: File } | { kind: 'path'; path: string };

/**
 * The server reads and matches the whole file within the request (docs/interop.md "Measured":
 * a 10,000-track file imports in about 3 s), so a large file may take far longer than the
 * 30 s of an ordinary call.
 */
export const INTEROP_TIMEOUT_MS = 5 * 60_000;

/**
 * POST /api/interop/preview or /import: multipart (the file as `file`, the options as the JSON
 * field `options`) for an upload, JSON `{ path, ...options }` for a path on the server. A refusal
 * throws the server's message as sent.
 */
export async function sendInterop(
  name: 'previewInterop' | 'importInterop',
  source: InteropSource,
  options: InteropOptionsInput,
): Promise<InteropResult> {
  const timeout = AbortSignal.timeout(INTEROP_TIMEOUT_MS);
  const init: RequestInit =
    source.kind === 'upload'
      ? { method: 'POST', body: uploadBodyOf(source.file, source.file.name, options) }
      : {
          method: 'POST',
          body: JSON.stringify({ path: source.path, ...options }),
          headers: { 'content-type': 'application/json' },
        };
  let response: Response;
  try {
    response = await fetch(buildUrl(API_ROUTES[name][1]), {
      ...init,
      headers: { accept: 'application/json', ...init.headers },
      signal: timeout,
    });
  } catch (error) {
    if (timeout.aborted) {
      throw new ApiError(0, `The server did not answer within ${INTEROP_TIMEOUT_MS / 60_000} minutes`);
    }
    throw error;
  }
  if (!response.ok) {
    const error = await errorFromResponse(response);
    if (response.status === 401) reportUnauthorized();
    throw error;
  }
  return (await response.json()) as InteropResult;
}

export interface InteropRequest {
  source: InteropSource;
  options: InteropOptionsInput;
}

/** POST /interop/preview: what an import would add; stores nothing. */
export function usePreviewInterop() {
  return useMutation({
    mutationFn: ({ source, options }: InteropRequest) => sendInterop('previewInterop', source, options),
  });
}

/**
 * POST /interop/import. Songs, plays and events changed: every screen's data (but who is signed
 * in) is loaded again when next shown.
 */
export function useImportInterop() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ source, options }: InteropRequest) => sendInterop('importInterop', source, options),
    onSuccess: () =>
      queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] }),
  });
}
