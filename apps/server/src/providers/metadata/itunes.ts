/**
 * The iTunes Search API: GET <base>/search?term=<artist title>&media=music&entity=song&limit=10
 * answers { resultCount, results: [{ wrapperType: 'track', kind: 'song', trackId, trackName,
 * artistName, collectionName, releaseDate (ISO time), primaryGenreName, artworkUrl100, previewUrl,
 * trackTimeMillis, trackViewUrl }] }. No key; Apple allows roughly 20 calls a minute and answers
 * 403 or 429 beyond that.
 */
import {
  httpError,
  type MetadataMatch,
  type MetadataProvider,
  MetadataProviderError,
  type MetadataQuery,
  namesAgree,
  requestJson,
  withOneRetry,
} from './metadata-provider.js';

export interface ItunesConfig {
  /** Default https://itunes.apple.com/. */
  url: string;
  /** The store country asked (two letters), default us. */
  country: string;
}

interface ItunesTrack {
  wrapperType?: string;
  kind?: string;
  trackId?: number;
  trackName?: string;
  artistName?: string;
  collectionName?: string;
  releaseDate?: string;
  primaryGenreName?: string;
  artworkUrl100?: string;
  previewUrl?: string;
  trackTimeMillis?: number;
  trackViewUrl?: string;
}

function toMatch(track: ItunesTrack): MetadataMatch | null {
  const title = track.trackName?.trim();
  const artist = track.artistName?.trim();
  if (track.trackId === undefined || !title || !artist) return null;
  const date = track.releaseDate?.match(/^\d{4}-\d{2}-\d{2}/)?.[0] ?? null;
  return {
    provider: 'itunes',
    providerId: String(track.trackId),
    url: track.trackViewUrl ?? null,
    title,
    artist,
    album: track.collectionName?.trim() || null,
    releaseDate: date,
    isrc: null,
    genres: track.primaryGenreName && track.primaryGenreName !== 'Music' ? [track.primaryGenreName] : [],
    artworkUrl: track.artworkUrl100 ?? null,
    previewUrl: track.previewUrl ?? null,
    durationMs:
      typeof track.trackTimeMillis === 'number' && track.trackTimeMillis > 0 ? track.trackTimeMillis : null,
    popularity: null,
  };
}

export function createItunesProvider(config: ItunesConfig): MetadataProvider {
  const base = config.url.endsWith('/') ? config.url : `${config.url}/`;
  const label = 'The iTunes Search API';
  return {
    name: 'itunes',
    async lookup(query: MetadataQuery) {
      const url = new URL('search', base);
      url.search = new URLSearchParams({
        term: `${query.artist} ${query.title}`,
        media: 'music',
        entity: 'song',
        country: config.country,
        limit: '10',
      }).toString();
      const answer = await withOneRetry('itunes', label, [429, 403], () =>
        requestJson('itunes', label, url.toString(), { headers: { Accept: 'application/json' } }),
      );
      if (answer.status !== 200) throw httpError('itunes', label, answer);
      const body = answer.body as { results?: ItunesTrack[] } | null;
      if (!body || typeof body !== 'object' || !Array.isArray(body.results)) {
        throw new MetadataProviderError('itunes', `${label} answered something that is not a search result`);
      }
      for (const track of body.results) {
        if (track.wrapperType !== 'track' || track.kind !== 'song') continue;
        const match = toMatch(track);
        if (match && namesAgree(query, match)) return match;
      }
      return null;
    },
  };
}
