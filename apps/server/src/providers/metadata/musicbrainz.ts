/**
 * MusicBrainz Web Service v2, recording search: GET <base>/recording?query=<Lucene>&fmt=json&limit=5
 * answers { created, count, offset, recordings: [{ id, score, title, length, 'artist-credit':
 * [{ name, joinphrase }], 'first-release-date', isrcs?, releases?: [{ title, date }] }] }.
 * MusicBrainz asks every client for a User-Agent naming the application (and a contact) and at
 * most one request per second; beyond it, it answers 503 (some front ends 429). One gate per
 * process spaces every request this process sends to MusicBrainz, whichever song asked.
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

export interface MusicBrainzConfig {
  /** The ws/2 root, default https://musicbrainz.org/ws/2/. */
  url: string;
  userAgent: string;
}

/** MusicBrainz' documented ceiling: one request per second from one client. */
export const MUSICBRAINZ_INTERVAL_MS = 1000;
/** A recording search hit below this score (0-100) is not trusted as the song. */
const MIN_SCORE = 80;

/**
 * Serialises calls and keeps at least `intervalMs` between the starts of two of them, for every
 * caller in the process. Returns a function that runs `task` in its turn.
 */
export function createSpacingGate(intervalMs: number) {
  let tail: Promise<unknown> = Promise.resolve();
  let lastStart = 0;
  return function run<T>(task: () => Promise<T>): Promise<T> {
    const turn = tail.then(async () => {
      const wait = lastStart + intervalMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      lastStart = Date.now();
      return task();
    });
    // The next caller waits for this turn whether it succeeded or not.
    tail = turn.catch(() => undefined);
    return turn;
  };
}

/** The process-wide gate in front of MusicBrainz. */
const musicBrainzGate = createSpacingGate(MUSICBRAINZ_INTERVAL_MS);

interface MbRecording {
  id?: string;
  score?: number;
  title?: string;
  length?: number | null;
  'artist-credit'?: Array<{ name?: string; joinphrase?: string }>;
  'first-release-date'?: string;
  isrcs?: string[];
  releases?: Array<{ title?: string; date?: string }>;
}

/** A phrase for a Lucene query: quoted, with its quotes and backslashes escaped. */
function phrase(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

function creditedArtist(recording: MbRecording): string {
  return (recording['artist-credit'] ?? [])
    .map((credit) => `${credit.name ?? ''}${credit.joinphrase ?? ''}`)
    .join('')
    .trim();
}

function toMatch(recording: MbRecording, base: string): MetadataMatch | null {
  const title = recording.title?.trim();
  const artist = creditedArtist(recording);
  if (!recording.id || !title || !artist) return null;
  const release = recording.releases?.find((candidate) => candidate.title);
  return {
    provider: 'musicbrainz',
    providerId: recording.id,
    url: new URL(`/recording/${recording.id}`, base).toString(),
    title,
    artist,
    album: release?.title?.trim() || null,
    releaseDate: recording['first-release-date']?.trim() || null,
    isrc: (recording.isrcs ?? []).map(cleanIsrc).find((isrc) => isrc !== null) ?? null,
    genres: [],
    artworkUrl: null,
    previewUrl: null,
    durationMs:
      typeof recording.length === 'number' && recording.length > 0 ? Math.round(recording.length) : null,
    popularity: null,
  };
}

export function createMusicBrainzProvider(config: MusicBrainzConfig): MetadataProvider {
  const base = config.url.endsWith('/') ? config.url : `${config.url}/`;
  const label = 'MusicBrainz';
  return {
    name: 'musicbrainz',
    async lookup(query: MetadataQuery) {
      const lucene = query.isrc
        ? `isrc:${query.isrc}`
        : `recording:${phrase(query.title)} AND artist:${phrase(query.artist)}`;
      const url = new URL('recording', base);
      url.search = new URLSearchParams({ query: lucene, fmt: 'json', limit: '5' }).toString();
      const answer = await withOneRetry('musicbrainz', label, [503, 429], () =>
        musicBrainzGate(() =>
          requestJson('musicbrainz', label, url.toString(), {
            headers: { 'User-Agent': config.userAgent, Accept: 'application/json' },
          }),
        ),
      );
      if (answer.status !== 200) throw httpError('musicbrainz', label, answer);
      const body = answer.body as { recordings?: MbRecording[] } | null;
      if (!body || typeof body !== 'object' || !Array.isArray(body.recordings)) {
        throw new MetadataProviderError(
          'musicbrainz',
          `${label} answered something that is not a recording search`,
        );
      }
      for (const recording of body.recordings) {
        if ((recording.score ?? 0) < MIN_SCORE) continue;
        const match = toMatch(recording, base);
        if (!match) continue;
        // An ISRC names the recording; a text search must also name the same song.
        if (query.isrc || namesAgree(query, match)) return match;
      }
      return null;
    },
  };
}
