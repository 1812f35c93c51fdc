import {
  type MetadataLookup,
  type MetadataProviderName,
  SONG_VALUE_SOURCE_LABELS,
  type Song,
  type SongValueSource,
} from '@wcs/contract';
import { RefreshCw, Search } from 'lucide-react';
import { useId } from 'react';
import { Badge } from '../../components/badge';
import { errorMessage } from '../../lib/api';
import { formatDate, formatDateTime, formatDuration } from '../../lib/format';
import { useCan } from '../../lib/session';
import { formatBpm, formatScale1000 } from './lib/analysis-values';
import { formatKey } from './lib/camelot';
import { popularityDisplay } from './lib/popularity';
import { useLookupSongMetadata, useSongMetadata } from './queries';

const PROVIDER_LABELS: Record<MetadataProviderName, string> = {
  musicbrainz: 'MusicBrainz',
  itunes: 'iTunes',
  spotify: 'Spotify',
};

/** The song's values, each with where it came from (file tags, analyser, DJ, a service...). */
function valueRows(song: Song, spotifyConfigured: boolean | undefined): Array<[string, string, string]> {
  return [
    ['Title', song.title, 'title'],
    ['Artist', song.artist, 'artist'],
    ['Album', song.album ?? '—', 'album'],
    ['Genre', song.genre ?? '—', 'genre'],
    ['Release date', song.release_date ? formatDate(`${song.release_date}T12:00:00`) : '—', 'release_date'],
    ['ISRC', song.isrc ?? '—', 'isrc'],
    ['Duration', formatDuration(song.duration_ms), 'duration_ms'],
    ['BPM', formatBpm(song.bpm), 'bpm'],
    ['Key', formatKey(song.key), 'key'],
    ['Energy', formatScale1000(song.energy_level), 'energy_level'],
    ['Danceability', formatScale1000(song.danceability), 'danceability'],
    ['Valence', formatScale1000(song.valence), 'valence'],
    ['Popularity', popularityDisplay(song, spotifyConfigured).text, 'spotify_popularity'],
  ];
}

function sourceLabel(source: SongValueSource | undefined, hasValue: boolean): string {
  if (!hasValue) return '—';
  return source ? SONG_VALUE_SOURCE_LABELS[source] : 'Not recorded';
}

/**
 * Metadata: every value with its source, the cover and preview a service gave, what each
 * metadata service last answered (with its age), the button that looks the song up now (dj and
 * admin), and links to find the song in stores.
 */
export function SongMetadataSection({
  song,
  spotifyConfigured,
}: {
  song: Song;
  spotifyConfigured: boolean | undefined;
}) {
  const titleId = useId();
  const metadata = useSongMetadata(song.song_id);
  const lookup = useLookupSongMetadata(song.song_id);
  const canLookUp = useCan('lookupSongMetadata');
  const mode = metadata.data?.mode;
  const lookups = metadata.data?.lookups ?? [];
  const asked = lookups.some((entry) => entry.fetched_at !== null);

  return (
    <section aria-labelledby={titleId} className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={titleId} className="font-semibold">
          Metadata and Sources
        </h3>
        {canLookUp && mode !== undefined && mode !== 'off' && (
          <>
            <button
              type="button"
              className="btn btn-outline btn-primary btn-xs"
              onClick={() => lookup.mutate(false)}
              disabled={lookup.isPending}
            >
              <Search className="size-3" aria-hidden="true" />
              {lookup.isPending ? 'Looking up...' : 'Look up metadata'}
            </button>
            {asked && (
              <button
                type="button"
                className="btn btn-ghost btn-xs"
                onClick={() => lookup.mutate(true)}
                disabled={lookup.isPending}
                title="Ask every service again, even where the last answer is recent"
              >
                <RefreshCw className="size-3" aria-hidden="true" />
                Ask again now
              </button>
            )}
          </>
        )}
      </div>
      {lookup.isError && (
        <p className="text-error text-sm" role="alert">
          Lookup failed: {errorMessage(lookup.error)}
        </p>
      )}
      {lookup.isSuccess && (
        <p className="text-sm" role="status">
          {lookup.data.changed.length > 0
            ? `Filled from the services: ${lookup.data.changed.join(', ')}.`
            : 'Nothing to fill: every value the services gave is already set or was set by a DJ, the analyser or the file.'}
        </p>
      )}

      <table className="table table-xs" aria-label="Values and their sources">
        <thead>
          <tr>
            <th scope="col">Value</th>
            <th scope="col">Now</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {valueRows(song, spotifyConfigured).map(([label, value, field]) => (
            <tr key={field}>
              <th scope="row" className="font-normal text-base-content/70">
                {label}
              </th>
              <td>{value}</td>
              <td>{sourceLabel(song.sources[field], value !== '—' && value !== 'not configured')}</td>
            </tr>
          ))}
        </tbody>
      </table>

      {(song.artwork_url || song.preview_url) && (
        <p className="flex flex-wrap gap-3 text-sm">
          {song.artwork_url && (
            <a className="link" href={song.artwork_url} target="_blank" rel="noopener noreferrer">
              Cover art ({sourceLabel(song.sources.artwork_url, true)}, opens in a new tab)
            </a>
          )}
          {song.preview_url && (
            <a className="link" href={song.preview_url} target="_blank" rel="noopener noreferrer">
              30 s preview ({sourceLabel(song.sources.preview_url, true)}, opens in a new tab)
            </a>
          )}
        </p>
      )}

      {lookups.length > 0 && (
        <ul className="space-y-1 text-sm" aria-label="Metadata services">
          {lookups.map((entry) => (
            <LookupLine key={entry.provider} entry={entry} />
          ))}
        </ul>
      )}
    </section>
  );
}

function LookupLine({ entry }: { entry: MetadataLookup }) {
  const label = PROVIDER_LABELS[entry.provider];
  const when = entry.fetched_at ? ` on ${formatDateTime(entry.fetched_at)}` : '';
  const cached = entry.from_cache ? ' (cached)' : '';
  let text: string;
  let tone: 'success' | 'neutral' | 'warning' | 'error' | 'ghost';
  switch (entry.status) {
    case 'found':
      text = `found "${entry.match?.title}" by ${entry.match?.artist}${when}${cached}`;
      tone = 'success';
      break;
    case 'not_found':
      text = `knows no such song${when}${cached}`;
      tone = 'neutral';
      break;
    case 'error':
      text = `${entry.message ?? 'failed'}${when}`;
      tone = 'error';
      break;
    case 'never':
      text = 'not asked yet';
      tone = 'ghost';
      break;
    default:
      text = entry.message ?? 'not configured';
      tone = 'warning';
  }
  return (
    <li className="flex flex-wrap items-baseline gap-2">
      <Badge size="sm" tone={tone} isOutline>
        {label}
      </Badge>
      <span className={entry.status === 'error' ? 'text-error' : 'text-base-content/80'}>{text}</span>
    </li>
  );
}
