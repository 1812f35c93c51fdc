/**
 * Song metadata from MusicBrainz, iTunes and Spotify (docs/api.md, "Song metadata"). Each
 * service's last answer about a song is kept in `song_metadata_lookups` with the time it was
 * asked; an answer younger than METADATA_CACHE_DAYS is reused unless the DJ forces a new lookup.
 * The song's values are then filled from the answers, in the services' order of trust, under one
 * rule: a value is written only where the song has none, or where its value came from a source a
 * lookup may replace (a cloud recogniser, an earlier lookup, the demo generator). What a DJ
 * edited, the analyser computed, the file's tags said or a DJ program brought is never replaced.
 */
import {
  type Genre,
  METADATA_CACHE_DAYS,
  METADATA_PROVIDERS,
  type MetadataLookup,
  type MetadataLookupResult,
  type MetadataProviderName,
  type MetadataProviders,
  type SongMetadata,
  type SongValueSource,
} from '@wcs/contract';
import { eq, sql } from 'drizzle-orm';
import type { Config, MetadataSettings } from '../../config.js';
import type { Db } from '../../db/client.js';
import { songMetadataLookups, songs, spotifyPopularityHistory } from '../../db/schema.js';
import type { JobQueue } from '../../deps.js';
import {
  type MetadataMatch,
  type MetadataProvider,
  MetadataProviderError,
} from '../../providers/metadata/metadata-provider.js';
import { metadataProvidersFrom } from '../../providers/metadata/metadata-providers.js';
import { songSearchKey } from '../../text.js';
import { conflict, notFound } from '../errors.js';
import { mapGenre } from '../library/genre-map.js';
import { releaseDateFromTags } from '../library/library-tags.js';
import { scheduleScoreRecompute } from '../recompute-schedule.js';
import { getSong } from '../songs.js';

export interface MetadataDeps {
  db: Db;
  config: Pick<Config, 'metadata'>;
  /** For the score recompute after a genre or release date changed. */
  jobs?: Pick<JobQueue, 'send'>;
}

const CACHE_MS = METADATA_CACHE_DAYS * 24 * 60 * 60 * 1000;

/** Sources whose values a lookup may replace; every other source is kept unless its value is empty. */
const REPLACEABLE: ReadonlySet<string> = new Set<SongValueSource>([
  'acrcloud',
  'audd',
  'musicbrainz',
  'itunes',
  'spotify',
  'demo',
]);

const SPOTIFY_NOT_CONFIGURED =
  'Not configured: set SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET (a Spotify developer app) to read popularity and ISRCs from Spotify';
const LOOKUPS_OFF = 'Metadata lookups are switched off (WCS_METADATA_LOOKUP=off)';

// One set of adapters per configuration, so Spotify's token is reused between lookups.
const providerSets = new WeakMap<MetadataSettings, MetadataProvider[]>();
function providersFor(settings: MetadataSettings): MetadataProvider[] {
  let list = providerSets.get(settings);
  if (!list) {
    list = metadataProvidersFrom(settings);
    providerSets.set(settings, list);
  }
  return list;
}

/** Which services are configured, with a note each. */
export function metadataProviders(settings: MetadataSettings): MetadataProviders {
  const off = settings.mode === 'off';
  return {
    mode: settings.mode,
    spotify_configured: !off && settings.spotify !== null,
    providers: [
      {
        provider: 'musicbrainz',
        configured: !off,
        note: off ? LOOKUPS_OFF : 'Canonical artist and title, release date, ISRC (one request per second)',
      },
      { provider: 'itunes', configured: !off, note: off ? LOOKUPS_OFF : 'Genre, artwork, preview, duration' },
      {
        provider: 'spotify',
        configured: !off && settings.spotify !== null,
        note: off ? LOOKUPS_OFF : settings.spotify ? 'Popularity (0-100), ISRC' : SPOTIFY_NOT_CONFIGURED,
      },
    ],
  };
}

type LookupRow = typeof songMetadataLookups.$inferSelect;

function toLookup(
  provider: MetadataProviderName,
  row: LookupRow | undefined,
  fromCache: boolean,
): MetadataLookup {
  const match = (row?.result ?? null) as MetadataMatch | null;
  return {
    provider,
    status: row ? (row.status as MetadataLookup['status']) : 'never',
    fetched_at: row?.fetchedAt.toISOString() ?? null,
    from_cache: fromCache,
    message: row?.error ?? null,
    match: match
      ? {
          title: match.title,
          artist: match.artist,
          album: match.album,
          release_date: match.releaseDate,
          isrc: match.isrc,
          genres: match.genres,
          genre: mapGenre(match.genres),
          artwork_url: match.artworkUrl,
          preview_url: match.previewUrl,
          duration_ms: match.durationMs,
          popularity: match.popularity,
          url: match.url,
        }
      : null,
  };
}

function lookupsOf(
  settings: MetadataSettings,
  rows: LookupRow[],
  fresh: ReadonlySet<string>,
): MetadataLookup[] {
  const configured = new Set(providersFor(settings).map((provider) => provider.name));
  return METADATA_PROVIDERS.map((name) => {
    const row = rows.find((candidate) => candidate.provider === name);
    if (!configured.has(name) && !row) {
      return {
        ...toLookup(name, undefined, false),
        status: 'not_configured' as const,
        message: settings.mode === 'off' ? LOOKUPS_OFF : SPOTIFY_NOT_CONFIGURED,
      };
    }
    return toLookup(name, row, row !== undefined && !fresh.has(name));
  });
}

async function storedLookups(db: Db, songId: number): Promise<LookupRow[]> {
  return db.select().from(songMetadataLookups).where(eq(songMetadataLookups.songId, songId));
}

/** What each service last said about a song, without asking any. */
export async function getSongMetadata(deps: MetadataDeps, songId: number): Promise<SongMetadata> {
  const [song] = await deps.db.select({ id: songs.id }).from(songs).where(eq(songs.id, songId));
  if (!song) throw notFound('Song', songId);
  const rows = await storedLookups(deps.db, songId);
  return {
    song_id: songId,
    mode: deps.config.metadata.mode,
    lookups: lookupsOf(deps.config.metadata, rows, new Set()),
  };
}

type SongRow = typeof songs.$inferSelect;

/** The value each field would take from the matches, with its source, in the services' order of trust. */
function proposals(matches: Map<MetadataProviderName, MetadataMatch>) {
  const mb = matches.get('musicbrainz');
  const it = matches.get('itunes');
  const sp = matches.get('spotify');
  const first = <T>(...candidates: Array<[MetadataProviderName, T | null | undefined]>) => {
    for (const [source, value] of candidates)
      if (value !== null && value !== undefined) return { source, value };
    return null;
  };
  const date = (match: MetadataMatch | undefined) =>
    match?.releaseDate ? releaseDateFromTags(match.releaseDate, undefined) : null;
  return {
    title: first(['musicbrainz', mb?.title]),
    artist: first(['musicbrainz', mb?.artist]),
    album: first(['musicbrainz', mb?.album], ['itunes', it?.album], ['spotify', sp?.album]),
    release_date: first(['musicbrainz', date(mb)], ['spotify', date(sp)], ['itunes', date(it)]),
    isrc: first(['musicbrainz', mb?.isrc], ['spotify', sp?.isrc]),
    genre: first<Genre>(['itunes', it ? mapGenre(it.genres) : null]),
    artwork_url: first(['itunes', it?.artworkUrl], ['spotify', sp?.artworkUrl]),
    preview_url: first(['itunes', it?.previewUrl]),
    duration_ms: first(
      ['itunes', it?.durationMs],
      ['musicbrainz', mb?.durationMs],
      ['spotify', sp?.durationMs],
    ),
    spotify_popularity: first(['spotify', sp?.popularity]),
  };
}

const COLUMNS = {
  title: 'title',
  artist: 'artist',
  album: 'album',
  release_date: 'releaseDate',
  isrc: 'isrc',
  genre: 'genre',
  artwork_url: 'artworkUrl',
  preview_url: 'previewUrl',
  duration_ms: 'durationMs',
  spotify_popularity: 'spotifyPopularity',
} as const satisfies Record<keyof ReturnType<typeof proposals>, keyof SongRow>;

/**
 * The changes the matches make to `row` under the rule above: the columns to set, their sources,
 * and the contract names of the fields that change.
 */
export function plannedChanges(row: SongRow, matches: Map<MetadataProviderName, MetadataMatch>) {
  const set: Partial<Record<keyof SongRow, unknown>> = {};
  const sources: Record<string, SongValueSource> = {};
  const changed: string[] = [];
  const current = (row.fieldSources ?? {}) as Record<string, string>;
  for (const [field, proposal] of Object.entries(proposals(matches))) {
    if (!proposal) continue;
    const column = COLUMNS[field as keyof typeof COLUMNS];
    const value = row[column];
    const empty = value === null || value === '';
    const source = current[field];
    if (!empty && (source === undefined || !REPLACEABLE.has(source))) continue;
    if (value === proposal.value) {
      // Same value: it now comes from the service (a recogniser's guess confirmed).
      if (source !== proposal.source && source !== undefined && REPLACEABLE.has(source))
        sources[field] = proposal.source;
      continue;
    }
    set[column] = proposal.value;
    sources[field] = proposal.source;
    changed.push(field);
  }
  return { set, sources, changed };
}

/**
 * Asks the configured services about a song (each at most once per METADATA_CACHE_DAYS unless
 * `force`), keeps their answers, and fills the song's values from them. Answers 409 when lookups
 * are switched off.
 */
export async function lookupSongMetadata(
  deps: MetadataDeps,
  songId: number,
  options: { force?: boolean; now?: Date } = {},
): Promise<MetadataLookupResult & { errors: MetadataProviderError[]; asked: number }> {
  const settings = deps.config.metadata;
  if (settings.mode === 'off') throw conflict(`${LOOKUPS_OFF}; set it to auto or manual to look songs up`);
  const now = options.now ?? new Date();
  const [song] = await deps.db.select().from(songs).where(eq(songs.id, songId));
  if (!song) throw notFound('Song', songId);

  const cached = new Map((await storedLookups(deps.db, songId)).map((row) => [row.provider, row]));
  const fresh = new Set<string>();
  const errors: MetadataProviderError[] = [];
  let isrc = song.isrc;
  let asked = 0;
  for (const provider of providersFor(settings)) {
    const row = cached.get(provider.name);
    const young = row && row.status !== 'error' && now.getTime() - row.fetchedAt.getTime() < CACHE_MS;
    if (young && !options.force) {
      isrc ??= (row.result as MetadataMatch | null)?.isrc ?? null;
      continue;
    }
    asked += 1;
    fresh.add(provider.name);
    let match: MetadataMatch | null;
    try {
      match = await provider.lookup({ title: song.title, artist: song.artist, isrc });
    } catch (error) {
      const failure =
        error instanceof MetadataProviderError
          ? error
          : new MetadataProviderError(provider.name, `${provider.name}: ${(error as Error).message}`);
      errors.push(failure);
      // An error keeps the last result found; it only records the failure and its time.
      const [stored] = await deps.db
        .insert(songMetadataLookups)
        .values({
          songId,
          provider: provider.name,
          status: 'error',
          result: null,
          error: failure.message,
          fetchedAt: now,
        })
        .onConflictDoUpdate({
          target: [songMetadataLookups.songId, songMetadataLookups.provider],
          set: { status: 'error', error: failure.message, fetchedAt: now },
        })
        .returning();
      cached.set(provider.name, stored!);
      continue;
    }
    isrc ??= match?.isrc ?? null;
    const [stored] = await deps.db
      .insert(songMetadataLookups)
      .values({
        songId,
        provider: provider.name,
        status: match ? 'found' : 'not_found',
        result: match,
        error: null,
        fetchedAt: now,
      })
      .onConflictDoUpdate({
        target: [songMetadataLookups.songId, songMetadataLookups.provider],
        set: { status: match ? 'found' : 'not_found', result: match, error: null, fetchedAt: now },
      })
      .returning();
    cached.set(provider.name, stored!);
    if (match?.provider === 'spotify' && match.popularity !== null) {
      await deps.db
        .insert(spotifyPopularityHistory)
        .values({ songId, fetchedAt: now, popularity: match.popularity, source: 'spotify' });
    }
  }

  const matches = new Map<MetadataProviderName, MetadataMatch>();
  for (const [name, row] of cached) {
    // A service that now finds nothing no longer vouches for its old answer.
    if (row.result && row.status !== 'not_found')
      matches.set(name as MetadataProviderName, row.result as MetadataMatch);
  }
  const changed = await applyMatches(deps.db, songId, matches);
  const touchesPlaylists = changed.some((field) =>
    ['genre', 'release_date', 'title', 'artist'].includes(field),
  );
  if (touchesPlaylists && deps.jobs) await scheduleScoreRecompute(deps.jobs, `metadata of song ${songId}`);

  const rows = [...cached.values()];
  return {
    song_id: songId,
    mode: settings.mode,
    lookups: lookupsOf(settings, rows, fresh),
    song: await getSong(deps.db, songId),
    changed,
    errors,
    asked,
  };
}

/** Writes the planned changes under a row lock, so a DJ's edit made meanwhile is seen and kept. */
async function applyMatches(db: Db, songId: number, matches: Map<MetadataProviderName, MetadataMatch>) {
  if (matches.size === 0) return [];
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(songs).where(eq(songs.id, songId)).for('update');
    if (!row) return [];
    const { set, sources, changed } = plannedChanges(row, matches);
    const ids: Record<string, string> = {};
    for (const [name, match] of matches) ids[name] = match.providerId;
    const title = (set.title as string | undefined) ?? row.title;
    const artist = (set.artist as string | undefined) ?? row.artist;
    await tx
      .update(songs)
      .set({
        ...(set as Partial<SongRow>),
        searchKey: songSearchKey(title, artist),
        fieldSources: sql`${songs.fieldSources} || ${JSON.stringify(sources)}::jsonb`,
        externalIds: sql`coalesce(${songs.externalIds}, '{}'::jsonb) || ${JSON.stringify(ids)}::jsonb`,
        ...(changed.length > 0 ? { updatedAt: new Date() } : {}),
      })
      .where(eq(songs.id, songId));
    return changed;
  });
}

/** Queues a background lookup of each song (new songs without a file) when lookups run by themselves. */
export async function queueMetadataLookups(
  deps: { config: Pick<Config, 'metadata'>; jobs?: Pick<JobQueue, 'send'> | undefined },
  songIds: number[],
): Promise<void> {
  if (deps.config.metadata.mode !== 'auto' || !deps.jobs) return;
  for (const songId of songIds) {
    await deps.jobs.send(
      'song.lookup-metadata',
      { song_id: songId, reason: 'new_song' },
      // One waiting job per song; a rate-limited lookup is retried later with backoff.
      { singletonKey: `metadata-${songId}`, retryLimit: 4, retryDelay: 60, retryBackoff: true },
    );
  }
}
