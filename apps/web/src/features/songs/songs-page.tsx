import { AGE_CATEGORIES, GENRES, SONGS_PAGE_SIZE, type Song } from '@wcs/contract';
import { BatteryFull, BatteryLow, BatteryMedium, HardDriveUpload, Search } from 'lucide-react';
import { lazy, Suspense, useId, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../components/badge';
import { EmptyState } from '../../components/empty-state';
import { ErrorCard } from '../../components/error-card';
import { ExportMenu } from '../../components/export-menu';
import { Loading } from '../../components/loading';
import { Pagination, pageCountOf } from '../../components/pagination';
import { errorMessage, listItems } from '../../lib/api';
import { useDebounced } from '../../lib/debounced';
import { formatDate, formatDuration } from '../../lib/format';
import { useCan } from '../../lib/session';
import { AnalysisStatusCard } from './analysis-status';
import { formatBpm, keyLabel } from './lib/analysis-values';
import { formatKey } from './lib/camelot';
import { popularityDisplay, SPOTIFY_NOT_CONFIGURED } from './lib/popularity';
import {
  analysisStatus,
  energyBand,
  hasAnyFilter,
  NO_FILTERS,
  type SongFilters,
  songFilterQuery,
} from './lib/song-filters';
import { useMetadataProviders, useSongs } from './queries';

/** The modal carries the charts (Recharts): loaded on the first click on a song, not with the list. */
const SongModal = lazy(async () => ({ default: (await import('./song-modal')).SongModal }));

interface FilterOption {
  value: string;
  label: string;
}

interface FilterDefinition {
  key: keyof SongFilters;
  label: string;
  allLabel: string;
  options: FilterOption[];
}

const AGE_LABELS: Record<(typeof AGE_CATEGORIES)[number], string> = {
  new: 'New (under 6 months)',
  mid: 'Mid (6 months to 2 years)',
  old: 'Old (over 2 years)',
};

/** The six filters in the specification's order. */
const FILTERS: readonly FilterDefinition[] = [
  {
    key: 'genre',
    label: 'Genre',
    allLabel: 'All genres',
    options: GENRES.map((genre) => ({ value: genre, label: genre })),
  },
  {
    key: 'age',
    label: 'Age',
    allLabel: 'All ages',
    options: AGE_CATEGORIES.map((age) => ({ value: age, label: AGE_LABELS[age] })),
  },
  {
    key: 'energy',
    label: 'Energy',
    allLabel: 'All energy levels',
    options: [
      { value: 'high', label: 'High (70-100%)' },
      { value: 'mid', label: 'Mid (40-70%)' },
      { value: 'low', label: 'Low (0-40%)' },
    ],
  },
  {
    key: 'analysis',
    label: 'Analysis',
    allLabel: 'All',
    options: [
      { value: 'analyzed', label: 'Analyzed' },
      { value: 'pending', label: 'Pending' },
    ],
  },
  {
    key: 'fileStatus',
    label: 'File Status',
    allLabel: 'All',
    options: [
      { value: 'downloaded', label: 'Downloaded' },
      { value: 'not_downloaded', label: 'Not downloaded' },
    ],
  },
  {
    key: 'popularity',
    label: 'Spotify Popularity',
    allLabel: 'All',
    options: [
      { value: 'hot', label: 'Hot (90-100)' },
      { value: 'popular', label: 'Popular (60-89)' },
      { value: 'niche', label: 'Niche (under 60)' },
    ],
  },
];

/** How long the search box must rest before the server is asked (ms). */
const SEARCH_PAUSE_MS = 300;

export function SongsPage() {
  const [filters, setFilters] = useState<SongFilters>(NO_FILTERS);
  const [search, setSearch] = useState('');
  /** 0-based; the server's skip is page × 50. */
  const [page, setPage] = useState(0);
  const [selectedSong, setSelectedSong] = useState<Song | null>(null);
  const searchId = useId();
  const canImport = useCan('importInterop');

  // Every filter and the search are the server's (over the whole library): the page and the total
  // follow them. The search is sent once the typing pauses.
  const settledSearch = useDebounced(search, SEARCH_PAUSE_MS);
  const songs = useSongs(filters, settledSearch, page);
  const spotifyConfigured = useMetadataProviders().data?.spotify_configured;
  const visible = listItems(songs.data);
  const total = songs.data?.total ?? 0;
  const isSearching = settledSearch.trim() !== '';
  const pageCount = pageCountOf(total, SONGS_PAGE_SIZE);

  const setFilter = (key: keyof SongFilters, value: string) => {
    setFilters((current) => ({ ...current, [key]: value }));
    setPage(0);
  };
  const clearFilters = () => {
    setFilters(NO_FILTERS);
    setSearch('');
    setPage(0);
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="font-bold text-2xl">Songs</h2>
          <p className="text-base-content/70">Browse and manage your song library</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {canImport && (
            <Link to="/dj-import" className="btn btn-outline btn-sm">
              <HardDriveUpload className="size-4" aria-hidden="true" />
              Import from DJ software
            </Link>
          )}
          {hasAnyFilter(filters) || search.trim() !== '' ? (
            <ExportMenu
              subject="the songs the filters select"
              label="Export filtered songs"
              buttonName="Export filtered songs"
              selection={songFilterQuery(filters, search)}
              align="end"
            />
          ) : (
            <ExportMenu
              subject="the whole library"
              label="Export library"
              buttonName="Export library"
              align="end"
            />
          )}
        </div>
      </div>

      <section aria-label="Song filters" className="card bg-base-100 shadow">
        <div className="card-body gap-4 p-4 sm:p-6">
          <label htmlFor={searchId} className="input w-full">
            <Search className="size-4 opacity-60" aria-hidden="true" />
            <input
              id={searchId}
              type="search"
              aria-label="Search songs"
              placeholder="Search by title or artist..."
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                setPage(0);
              }}
            />
          </label>
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-3 xl:grid-cols-6">
            {FILTERS.map((filter) => (
              <FilterSelect
                key={filter.key}
                definition={filter}
                value={filters[filter.key]}
                onChange={(value) => setFilter(filter.key, value)}
              />
            ))}
          </div>
          <div>
            <button type="button" className="link link-primary text-sm" onClick={clearFilters}>
              Clear all filters
            </button>
          </div>
        </div>
      </section>

      <AnalysisStatusCard />

      {songs.isPending ? (
        <Loading label="Loading songs..." />
      ) : songs.isError ? (
        <ErrorCard
          title="Failed to load songs"
          message={errorMessage(songs.error)}
          onRetry={() => songs.refetch()}
          isRetrying={songs.isFetching}
        />
      ) : (
        <>
          <p className="text-base-content/70 text-sm" aria-live="polite">
            Showing {visible.length} of {total} songs
          </p>
          {visible.length === 0 ? (
            <div className="card bg-base-100 shadow">
              <EmptyState
                title={
                  hasAnyFilter(filters) || isSearching
                    ? 'No songs found matching your filters.'
                    : 'No songs in your library yet.'
                }
              />
            </div>
          ) : (
            <>
              {spotifyConfigured === false && (
                <p className="text-base-content/70 text-sm" role="note">
                  {SPOTIFY_NOT_CONFIGURED}. Values marked (demo) were invented by the demo generator.
                </p>
              )}
              <SongsTable songs={visible} onSelect={setSelectedSong} spotifyConfigured={spotifyConfigured} />
            </>
          )}
          {pageCount > 1 && (
            <Pagination
              page={page + 1}
              pageCount={pageCount}
              onPageChange={(next) => setPage(next - 1)}
              isDisabled={songs.isFetching}
            />
          )}
        </>
      )}

      {selectedSong && (
        <Suspense fallback={<Loading label="Loading song..." />}>
          <SongModal song={selectedSong} onClose={() => setSelectedSong(null)} />
        </Suspense>
      )}
    </div>
  );
}

function FilterSelect({
  definition,
  value,
  onChange,
}: {
  definition: FilterDefinition;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium text-sm">
        {definition.label}
      </label>
      <select
        id={id}
        className="select select-sm w-full"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{definition.allLabel}</option>
        {definition.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

const ENERGY_ICONS = { high: BatteryFull, mid: BatteryMedium, low: BatteryLow } as const;
const ENERGY_CLASSES = { high: 'text-error', mid: 'text-warning', low: 'text-info' } as const;

/** 0-1000 as a whole percent. */
function percent(value: number | null): string {
  return value === null ? '—' : `${Math.round(value / 10)}%`;
}

function SongsTable({
  songs,
  onSelect,
  spotifyConfigured,
}: {
  songs: Song[];
  onSelect: (song: Song) => void;
  spotifyConfigured: boolean | undefined;
}) {
  return (
    <div className="overflow-x-auto rounded-box bg-base-100 shadow">
      <table className="table-zebra table table-sm">
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Genre</th>
            <th scope="col">Age</th>
            <th scope="col">BPM</th>
            <th scope="col">Key</th>
            <th scope="col">Energy</th>
            <th scope="col">Dance</th>
            <th scope="col">Spotify</th>
            <th scope="col">Duration</th>
            <th scope="col">Analysis</th>
            <th scope="col">File</th>
            <th scope="col">Version</th>
          </tr>
        </thead>
        <tbody>
          {songs.map((song) => (
            <SongRow
              key={song.song_id}
              song={song}
              onSelect={onSelect}
              spotifyConfigured={spotifyConfigured}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SongRow({
  song,
  onSelect,
  spotifyConfigured,
}: {
  song: Song;
  onSelect: (song: Song) => void;
  spotifyConfigured: boolean | undefined;
}) {
  const popularity = popularityDisplay(song, spotifyConfigured);
  const band = energyBand(song.energy_level);
  const EnergyIcon = band ? ENERGY_ICONS[band] : null;
  const status = analysisStatus(song);
  return (
    <tr className="hover:bg-base-200">
      <td className="min-w-48">
        <button
          type="button"
          className="link link-hover text-left font-medium"
          onClick={() => onSelect(song)}
        >
          {song.title}
        </button>
        <div className="text-base-content/70 text-xs">{song.artist}</div>
      </td>
      <td>{song.genre ?? '—'}</td>
      <td>{song.age_category ? song.age_category.toUpperCase() : 'Unknown'}</td>
      <td>{formatBpm(song.bpm)}</td>
      <td
        className="whitespace-nowrap"
        title={song.key_uncertain && song.key ? `best guess ${song.key}` : undefined}
      >
        {keyLabel(song, formatKey)}
      </td>
      <td>
        <span className="inline-flex items-center gap-1 whitespace-nowrap">
          {EnergyIcon && band && (
            <EnergyIcon
              className={`size-4 ${ENERGY_CLASSES[band]}`}
              aria-label={`${band} energy`}
              role="img"
            />
          )}
          {percent(song.energy_level)}
        </span>
      </td>
      <td>{percent(song.danceability)}</td>
      <td className="whitespace-nowrap" title={popularity.description}>
        {popularity.kind === 'spotify' || popularity.text === '—' ? (
          popularity.text
        ) : (
          <span className="text-base-content/70 text-xs">{popularity.text}</span>
        )}
      </td>
      <td>{formatDuration(song.duration_ms)}</td>
      <td>
        {status === 'analyzed' ? (
          <span className="inline-flex flex-col gap-0.5">
            <Badge tone="success" size="sm">
              Analyzed
            </Badge>
            <span className="text-base-content/60 text-xs">{formatDate(song.analyzed_at)}</span>
          </span>
        ) : status === 'pending' ? (
          <Badge tone="warning" size="sm">
            Pending Analysis
          </Badge>
        ) : (
          <Badge tone="neutral" size="sm" isOutline>
            No File
          </Badge>
        )}
      </td>
      <td>
        {song.file_present ? (
          <Badge tone="success" size="sm" isOutline>
            Downloaded
          </Badge>
        ) : (
          <Badge tone="error" size="sm" isOutline>
            No File
          </Badge>
        )}
      </td>
      <td className="max-w-36 truncate text-xs" title={song.analysis_version ?? undefined}>
        {song.analysis_version ?? '—'}
      </td>
    </tr>
  );
}
