/**
 * Metadata services (MusicBrainz, the iTunes Search API, Spotify's Web API) behind one small
 * interface: given a song's artist and title (and its ISRC when known), each answers with the
 * recording it believes is that song, `null` when it knows none, or throws a
 * `MetadataProviderError` whose message is fit to show on the song (bad credentials, rate
 * limited, unreachable). Adapters only translate formats; what is stored is decided in
 * services/metadata/.
 */
import { foldText } from '../../text.js';

export type MetadataProviderName = 'musicbrainz' | 'itunes' | 'spotify';

export interface MetadataQuery {
  title: string;
  artist: string;
  isrc: string | null;
}

/** What a service says about a song; every field it does not give is null. */
export interface MetadataMatch {
  provider: MetadataProviderName;
  /** The service's own id of the recording or track. */
  providerId: string;
  /** A page about it on the service, when it has one. */
  url: string | null;
  title: string;
  artist: string;
  album: string | null;
  /** YYYY-MM-DD, YYYY-MM or YYYY as the service gives it. */
  releaseDate: string | null;
  isrc: string | null;
  /** The service's genre names (iTunes' primary genre). */
  genres: string[];
  artworkUrl: string | null;
  previewUrl: string | null;
  durationMs: number | null;
  /** Spotify's popularity, 0-100. */
  popularity: number | null;
}

export interface MetadataProvider {
  readonly name: MetadataProviderName;
  lookup(query: MetadataQuery): Promise<MetadataMatch | null>;
}

export class MetadataProviderError extends Error {
  constructor(
    readonly provider: MetadataProviderName,
    message: string,
    /** The service refused for too many requests (MusicBrainz 503, others 429). */
    readonly rateLimited = false,
  ) {
    super(message);
    this.name = 'MetadataProviderError';
  }
}

/** How long one request may take before it counts as a network failure. */
export const METADATA_TIMEOUT_MS = 15_000;
/** Longest wait for a Retry-After before the one retry; beyond it the lookup fails as rate limited. */
export const MAX_RETRY_WAIT_MS = 5_000;

export interface JsonAnswer {
  status: number;
  body: unknown;
  retryAfterMs: number | null;
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** One HTTP request whose answer is JSON; transport failures become clear errors. */
export async function requestJson(
  provider: MetadataProviderName,
  label: string,
  url: string,
  init: RequestInit = {},
  timeoutMs = METADATA_TIMEOUT_MS,
): Promise<JsonAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${Math.round(timeoutMs / 1000)} s`
        : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new MetadataProviderError(provider, `${label} could not be reached (${reason})`);
  }
  const text = await response.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = text;
    }
  }
  return { status: response.status, body, retryAfterMs: retryAfterMs(response.headers.get('retry-after')) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt`; when the service answers one of `limitStatuses` it waits its Retry-After (at
 * most MAX_RETRY_WAIT_MS, 1 s when it gives none) and tries once more, then gives up with a
 * rate-limit error.
 */
export async function withOneRetry(
  provider: MetadataProviderName,
  label: string,
  limitStatuses: readonly number[],
  attempt: () => Promise<JsonAnswer>,
): Promise<JsonAnswer> {
  const first = await attempt();
  if (!limitStatuses.includes(first.status)) return first;
  const wait = first.retryAfterMs ?? 1000;
  if (wait <= MAX_RETRY_WAIT_MS) {
    await sleep(wait);
    const second = await attempt();
    if (!limitStatuses.includes(second.status)) return second;
  }
  throw new MetadataProviderError(
    provider,
    `${label} is limiting requests (HTTP ${first.status}); the lookup is tried again later`,
    true,
  );
}

/** An HTTP failure as a readable error: the service's own message when its body carries one. */
export function httpError(
  provider: MetadataProviderName,
  label: string,
  answer: JsonAnswer,
): MetadataProviderError {
  const body = answer.body as
    | { error?: unknown; error_description?: unknown; message?: unknown }
    | string
    | null;
  let detail = '';
  if (typeof body === 'string') detail = body.slice(0, 200);
  else if (body && typeof body === 'object') {
    const error = body.error as { message?: unknown } | string | undefined;
    const text =
      (typeof error === 'object' && typeof error?.message === 'string' && error.message) ||
      (typeof body.error_description === 'string' && body.error_description) ||
      (typeof error === 'string' && error) ||
      (typeof body.message === 'string' && body.message) ||
      '';
    detail = text.slice(0, 200);
  }
  return new MetadataProviderError(
    provider,
    `${label} answered HTTP ${answer.status}${detail ? `: ${detail}` : ''}`,
  );
}

/** Folded text with bracketed parts, "feat." credits and punctuation removed, for comparing names. */
export function matchKey(text: string): string {
  return foldText(text)
    .replace(/[([{].*?[)\]}]/g, ' ')
    .replace(/\s(feat\.?|ft\.?|featuring)\s.*$/, ' ')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Whether a service's title and artist name the song asked about: the titles agree once bracketed
 * versions and credits are set aside (one may extend the other, "Song" and "Song - Radio Edit"),
 * and the artists share the first credited name.
 */
export function namesAgree(
  query: { title: string; artist: string },
  found: { title: string; artist: string },
) {
  const wantTitle = matchKey(query.title);
  const gotTitle = matchKey(found.title);
  if (!wantTitle || !gotTitle) return false;
  const titleOk =
    wantTitle === gotTitle || gotTitle.startsWith(`${wantTitle} `) || wantTitle.startsWith(`${gotTitle} `);
  const firstArtist = (name: string) =>
    matchKey(name.split(/,|;| x | and | & | feat\.? | ft\.? /i)[0] ?? name);
  const wantArtist = firstArtist(query.artist);
  const gotArtist = matchKey(found.artist);
  const artistOk =
    wantArtist !== '' &&
    (gotArtist.includes(wantArtist) || matchKey(query.artist).includes(firstArtist(found.artist)));
  return titleOk && artistOk;
}

/** An ISRC in its plain 12-character form, or null. */
export function cleanIsrc(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const isrc = raw.replace(/[-\s]/g, '').toUpperCase();
  return /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(isrc) ? isrc : null;
}
