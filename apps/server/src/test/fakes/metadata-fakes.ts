/**
 * Local HTTP stand-ins for MusicBrainz, the iTunes Search API and Spotify's Web API (node:http
 * on 127.0.0.1), answering in each service's documented JSON format. They check requests the
 * way the services do (MusicBrainz' User-Agent, Spotify's client credentials and bearer token),
 * record every request with the time it arrived, and answer what the test says (`respond`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JsonRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Date.now() when it arrived. */
  at: number;
}

/** What to answer: a JSON body with status 200, or a status with an optional body and headers. */
export type JsonReply =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { json: unknown };

export interface JsonFake {
  url: string;
  requests: JsonRequest[];
  respond: (request: JsonRequest) => JsonReply;
  close(): Promise<void>;
}

export const ok = (json: unknown): JsonReply => ({ json });

async function startJsonFake(
  route: (request: JsonRequest, fake: JsonFake) => JsonReply,
  initial: (request: JsonRequest) => JsonReply,
): Promise<JsonFake> {
  const fake = { requests: [] as JsonRequest[], respond: initial } as JsonFake;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const request: JsonRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      fake.requests.push(request);
      const reply = route(request, fake);
      if ('json' in reply) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
        return;
      }
      const isText = typeof reply.body === 'string';
      res
        .writeHead(reply.status, {
          'content-type': isText ? 'text/plain' : 'application/json',
          ...reply.headers,
        })
        .end(reply.body === undefined ? '' : isText ? (reply.body as string) : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

// ---------------------------------------------------------------------------------------------
// MusicBrainz (ws/2)

export interface MbRecordingFixture {
  id: string;
  score: number;
  title: string;
  length?: number;
  'artist-credit': Array<{ name: string; joinphrase?: string; artist?: { id: string; name: string } }>;
  'first-release-date'?: string;
  isrcs?: string[];
  releases?: Array<{ id: string; title: string; date?: string; status?: string }>;
}

export const mbSearch = (recordings: MbRecordingFixture[]): JsonReply =>
  ok({ created: '2026-11-25T12:00:00.000Z', count: recordings.length, offset: 0, recordings });

/** MusicBrainz' refusal of a client over its rate limit. */
export const mbRateLimited = (): JsonReply => ({
  status: 503,
  body: {
    error:
      'Your requests are exceeding the allowable rate limit. Please see http://wiki.musicbrainz.org/XMLWebService for more information.',
  },
});

/** GET /ws/2/recording; no User-Agent is refused with 403 as the service does. */
export function startMusicBrainzFake(respond: (request: JsonRequest) => JsonReply = () => mbSearch([])) {
  return startJsonFake((request, fake) => {
    if (!request.headers['user-agent'] || /^node$|undici/i.test(request.headers['user-agent'])) {
      return { status: 403, body: { error: 'A meaningful User-Agent header is required.' } };
    }
    if (request.path !== '/ws/2/recording') return { status: 404, body: { error: 'Not Found' } };
    if (request.query.get('fmt') !== 'json')
      return { status: 400, body: { error: 'fmt=json expected by this fake' } };
    if (!request.query.get('query')) return { status: 400, body: { error: 'Invalid query' } };
    return fake.respond(request);
  }, respond);
}

// ---------------------------------------------------------------------------------------------
// iTunes Search API

export interface ItunesTrackFixture {
  wrapperType: 'track';
  kind: 'song';
  trackId: number;
  artistName: string;
  trackName: string;
  collectionName?: string;
  releaseDate?: string;
  primaryGenreName?: string;
  artworkUrl100?: string;
  previewUrl?: string;
  trackTimeMillis?: number;
  trackViewUrl?: string;
  country?: string;
}

export const itunesSearch = (results: object[]): JsonReply => ok({ resultCount: results.length, results });

/** GET /search with term. */
export function startItunesFake(respond: (request: JsonRequest) => JsonReply = () => itunesSearch([])) {
  return startJsonFake((request, fake) => {
    if (request.path !== '/search') return { status: 404, body: 'Not Found' };
    if (!request.query.get('term')) return ok({ errorMessage: 'Invalid value(s) for key(s): [term]' });
    return fake.respond(request);
  }, respond);
}

// ---------------------------------------------------------------------------------------------
// Spotify Web API (accounts and api on one fake)

export interface SpotifyTrackFixture {
  id: string;
  name: string;
  popularity: number;
  duration_ms: number;
  external_ids?: { isrc?: string };
  external_urls?: { spotify?: string };
  artists: Array<{ id?: string; name: string }>;
  album?: {
    name: string;
    release_date?: string;
    release_date_precision?: string;
    images?: Array<{ url: string }>;
  };
}

export const spotifySearch = (items: SpotifyTrackFixture[]): JsonReply =>
  ok({ tracks: { href: '', items, limit: 10, next: null, offset: 0, previous: null, total: items.length } });

export interface SpotifyFake extends JsonFake {
  /** Tokens handed out so far. */
  tokensIssued: number;
}

/**
 * POST /api/token (client credentials in HTTP Basic) and GET /v1/search (Bearer token): wrong
 * credentials get 400 invalid_client, a missing or unknown token 401, as from Spotify.
 */
export async function startSpotifyFake(
  credentials: { clientId: string; clientSecret: string },
  respond: (request: JsonRequest) => JsonReply = () => spotifySearch([]),
): Promise<SpotifyFake> {
  const issued = new Set<string>();
  const fake = (await startJsonFake((request, self) => {
    if (request.method === 'POST' && request.path === '/api/token') {
      const expected = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
      if (request.headers.authorization !== expected) {
        return { status: 400, body: { error: 'invalid_client', error_description: 'Invalid client' } };
      }
      if (new URLSearchParams(request.body).get('grant_type') !== 'client_credentials') {
        return {
          status: 400,
          body: {
            error: 'unsupported_grant_type',
            error_description: 'grant_type must be client_credentials',
          },
        };
      }
      const token = `token-${issued.size + 1}`;
      issued.add(token);
      (self as SpotifyFake).tokensIssued = issued.size;
      return ok({ access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    if (request.method === 'GET' && request.path === '/v1/search') {
      const auth = request.headers.authorization ?? '';
      if (!auth.startsWith('Bearer ') || !issued.has(auth.slice(7))) {
        return { status: 401, body: { error: { status: 401, message: 'Invalid access token' } } };
      }
      if (!request.query.get('q') || request.query.get('type') !== 'track') {
        return { status: 400, body: { error: { status: 400, message: 'No search query' } } };
      }
      return self.respond(request);
    }
    return { status: 404, body: { error: { status: 404, message: 'Service not found' } } };
  }, respond)) as SpotifyFake;
  fake.tokensIssued = 0;
  return fake;
}
