/** The metadata services this server is configured for (see metadata-provider.ts for the interface). */
import type { MetadataSettings } from '../../config.js';
import { API_VERSION } from '../../version.js';
import { createItunesProvider } from './itunes.js';
import type { MetadataProvider } from './metadata-provider.js';
import { createMusicBrainzProvider } from './musicbrainz.js';
import { createSpotifyProvider } from './spotify.js';

/**
 * The providers in the order their answers are trusted: MusicBrainz (canonical names, release
 * date, ISRC), then iTunes (genre, artwork, preview), then Spotify (popularity) when its
 * credentials are set. None with WCS_METADATA_LOOKUP=off.
 */
export function metadataProvidersFrom(settings: MetadataSettings): MetadataProvider[] {
  if (settings.mode === 'off') return [];
  const { url, contact } = settings.musicbrainz;
  // MusicBrainz asks for "Application/version ( contact )".
  const userAgent = `WCS-DJ-Library/${API_VERSION}${contact ? ` ( ${contact} )` : ''}`;
  const list = [createMusicBrainzProvider({ url, userAgent }), createItunesProvider(settings.itunes)];
  if (settings.spotify) list.push(createSpotifyProvider(settings.spotify));
  return list;
}
