import { z } from 'zod';
import { Timestamp } from './common.js';
import { METADATA_PROVIDERS, SONG_VALUE_SOURCES } from './constants.js';
import { GenreSchema, Song } from './entities.js';

export const MetadataProviderSchema = z.enum(METADATA_PROVIDERS);
export const SongValueSourceSchema = z.enum(SONG_VALUE_SOURCES);

/** What one service said about a song (its last answer, kept as a cache). */
export const MetadataLookup = z.object({
  provider: MetadataProviderSchema,
  /** never: not asked yet; not_configured: Spotify without credentials, or lookups switched off. */
  status: z.enum(['found', 'not_found', 'error', 'never', 'not_configured']),
  /** When the service was last asked; null when never. */
  fetched_at: Timestamp.nullable(),
  /** Answered from the cache (younger than METADATA_CACHE_DAYS) rather than asked now. */
  from_cache: z.boolean(),
  /** The service's error, or what to set to use it. */
  message: z.string().nullable(),
  match: z
    .object({
      title: z.string(),
      artist: z.string(),
      album: z.string().nullable(),
      release_date: z.string().nullable(),
      isrc: z.string().nullable(),
      /** The service's own genre names, and the product genre they map onto. */
      genres: z.array(z.string()),
      genre: GenreSchema.nullable(),
      artwork_url: z.string().nullable(),
      preview_url: z.string().nullable(),
      duration_ms: z.number().int().nullable(),
      popularity: z.number().int().nullable(),
      /** The recording's page on the service. */
      url: z.string().nullable(),
    })
    .nullable(),
});
export type MetadataLookup = z.infer<typeof MetadataLookup>;

export const SongMetadata = z.object({
  song_id: z.number().int(),
  /** auto, manual or off (WCS_METADATA_LOOKUP). */
  mode: z.enum(['auto', 'manual', 'off']),
  lookups: z.array(MetadataLookup),
});
export type SongMetadata = z.infer<typeof SongMetadata>;

export const MetadataLookupRequest = z.object({
  /** Ask every service again even when its cached answer is recent. */
  force: z.boolean().default(false),
});

export const MetadataLookupResult = SongMetadata.extend({
  song: Song,
  /** The song's fields this lookup changed (contract names). */
  changed: z.array(z.string()),
});
export type MetadataLookupResult = z.infer<typeof MetadataLookupResult>;

/** GET /metadata/providers: which services are configured, for the screens that show their values. */
export const MetadataProviders = z.object({
  mode: z.enum(['auto', 'manual', 'off']),
  providers: z.array(
    z.object({
      provider: MetadataProviderSchema,
      configured: z.boolean(),
      /** What it gives, or what to set to use it. */
      note: z.string(),
    }),
  ),
  /** Spotify's credentials are set: popularity values can come from Spotify. */
  spotify_configured: z.boolean(),
});
export type MetadataProviders = z.infer<typeof MetadataProviders>;
