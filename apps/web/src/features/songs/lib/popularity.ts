import type { Song, SongValueSource } from '@wcs/contract';

/** What to say instead of a number when Spotify is not configured on the server. */
export const SPOTIFY_NOT_CONFIGURED =
  'Spotify is not configured: set SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET on the server to read popularity from Spotify';

export interface PopularityDisplay {
  /** The short text for a cell or badge. */
  text: string;
  /** The longer explanation (tooltip, screen readers). */
  description: string;
  /** demo: an invented value; dj: a DJ's own; spotify: read from Spotify; none: no value. */
  kind: 'spotify' | 'demo' | 'dj' | 'other' | 'none';
}

/**
 * How a song's popularity is shown: Spotify's number as it is, the demo generator's invention and
 * a DJ's own value marked as such, and "not configured" rather than a dash when no value can come
 * from Spotify at all.
 */
export function popularityDisplay(
  song: Pick<Song, 'spotify_popularity' | 'sources'>,
  spotifyConfigured: boolean | undefined,
): PopularityDisplay {
  const value = song.spotify_popularity;
  const source: SongValueSource | undefined = song.sources.spotify_popularity;
  if (value === null) {
    if (spotifyConfigured === false)
      return { text: 'not configured', description: SPOTIFY_NOT_CONFIGURED, kind: 'none' };
    return { text: '—', description: 'No popularity yet', kind: 'none' };
  }
  if (source === 'spotify')
    return { text: String(value), description: `Spotify popularity ${value} of 100`, kind: 'spotify' };
  if (source === 'demo') {
    return {
      text: `${value} (demo)`,
      description: `${value}: demo data invented by the demo generator, not Spotify's`,
      kind: 'demo',
    };
  }
  if (source === 'dj')
    return { text: `${value} (DJ)`, description: `${value}: set by a DJ, not read from Spotify`, kind: 'dj' };
  return {
    text: `${value} (?)`,
    description: `${value}: where this value came from is not recorded`,
    kind: 'other',
  };
}
