/**
 * Spotify's Web API with the client-credentials flow: POST <accounts>/api/token with
 * `grant_type=client_credentials` and HTTP Basic client id:secret answers { access_token,
 * token_type: 'Bearer', expires_in }; GET <api>/v1/search?q=<query>&type=track&limit=10 with that
 * token answers { tracks: { items: [{ id, name, popularity, duration_ms, external_ids: { isrc },
 * external_urls: { spotify }, artists: [{ name }], album: { name, release_date, images: [{ url }] }
 * }] } }. Errors are { error: { status, message } } (the token endpoint: { error,
 * error_description }); 429 carries Retry-After. The token is kept until a minute before it expires.
 */
import {
  cleanIsrc,
  httpError,
  type MetadataMatch,
  type MetadataProvider,
  MetadataProviderError,
  type MetadataQuery,
  namesAgree,
  requestJson,
  withOneRetry,
} from './metadata-provider.js';

export interface SpotifyConfig {
  clientId: string;
  clientSecret: string;
  /** Default https://accounts.spotify.com/. */
  accountsUrl: string;
  /** Default https://api.spotify.com/. */
  apiUrl: string;
}

interface SpotifyTrack {
  id?: string;
  name?: string;
  popularity?: number;
  duration_ms?: number;
  external_ids?: { isrc?: string };
  external_urls?: { spotify?: string };
  artists?: Array<{ name?: string }>;
  album?: { name?: string; release_date?: string; images?: Array<{ url?: string }> };
}

function toMatch(track: SpotifyTrack): MetadataMatch | null {
  const title = track.name?.trim();
  const artist = (track.artists ?? [])
    .map((entry) => entry.name?.trim())
    .filter(Boolean)
    .join(', ');
  if (!track.id || !title || !artist) return null;
  const popularity =
    typeof track.popularity === 'number' && track.popularity >= 0 && track.popularity <= 100
      ? Math.round(track.popularity)
      : null;
  return {
    provider: 'spotify',
    providerId: track.id,
    url: track.external_urls?.spotify ?? null,
    title,
    artist,
    album: track.album?.name?.trim() || null,
    releaseDate: track.album?.release_date?.trim() || null,
    isrc: cleanIsrc(track.external_ids?.isrc),
    genres: [],
    artworkUrl: track.album?.images?.find((image) => image.url)?.url ?? null,
    previewUrl: null,
    durationMs: typeof track.duration_ms === 'number' && track.duration_ms > 0 ? track.duration_ms : null,
    popularity,
  };
}

/** Spotify's field filters take plain words; quotes would end the filter early. */
const filterText = (text: string) => text.replace(/["]/g, ' ').trim();

export function createSpotifyProvider(config: SpotifyConfig): MetadataProvider {
  const label = 'Spotify';
  let token: { value: string; expiresAt: number } | null = null;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64');
    const answer = await withOneRetry('spotify', label, [429], () =>
      requestJson('spotify', label, new URL('api/token', config.accountsUrl).toString(), {
        method: 'POST',
        headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
      }),
    );
    if (answer.status !== 200) {
      const error = httpError('spotify', label, answer);
      throw new MetadataProviderError(
        'spotify',
        `${error.message} (check SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET)`,
      );
    }
    const body = answer.body as { access_token?: string; expires_in?: number } | null;
    if (!body?.access_token) throw new MetadataProviderError('spotify', `${label} gave no access token`);
    const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
    token = { value: body.access_token, expiresAt: Date.now() + lifetimeMs - 60_000 };
    return token.value;
  }

  async function search(q: string): Promise<SpotifyTrack[]> {
    const url = new URL('v1/search', config.apiUrl);
    url.search = new URLSearchParams({ q, type: 'track', limit: '10' }).toString();
    const send = async () =>
      requestJson('spotify', label, url.toString(), {
        headers: { Authorization: `Bearer ${await accessToken()}`, Accept: 'application/json' },
      });
    let answer = await withOneRetry('spotify', label, [429], send);
    if (answer.status === 401) {
      // The token expired early or was revoked: one new token, one more try.
      token = null;
      answer = await withOneRetry('spotify', label, [429], send);
    }
    if (answer.status !== 200) throw httpError('spotify', label, answer);
    const body = answer.body as { tracks?: { items?: SpotifyTrack[] } } | null;
    if (!body || typeof body !== 'object' || !Array.isArray(body.tracks?.items)) {
      throw new MetadataProviderError('spotify', `${label} answered something that is not a track search`);
    }
    return body.tracks.items;
  }

  return {
    name: 'spotify',
    async lookup(query: MetadataQuery) {
      if (query.isrc) {
        const byIsrc = (await search(`isrc:${query.isrc}`)).map(toMatch).find((match) => match !== null);
        if (byIsrc) return byIsrc;
      }
      const items = await search(`track:${filterText(query.title)} artist:${filterText(query.artist)}`);
      for (const track of items) {
        const match = toMatch(track);
        if (match && namesAgree(query, match)) return match;
      }
      return null;
    },
  };
}
