import type { Playlist } from '@wcs/contract';
import { Download, ListMusic, RefreshCw } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../components/badge';
import { EmptyState } from '../../components/empty-state';
import { ErrorCard } from '../../components/error-card';
import { ExportMenu } from '../../components/export-menu';
import { Loading } from '../../components/loading';
import { errorMessage, listItems } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useCan } from '../../lib/session';
import { useActivePlaylists, useRegeneratePlaylists } from './queries';

/** Whole minutes of a playlist, rounded. */
export function totalMinutes(seconds: number): number {
  return Math.round(seconds / 60);
}

const ENERGY_LABELS = { high: 'High energy', mid: 'Mid energy', low: 'Low energy' } as const;

export function PlaylistsPage() {
  const listId = useId();
  const playlists = useActivePlaylists();
  const regenerate = useRegeneratePlaylists();
  const canRegenerate = useCan('regeneratePlaylists');
  const canImport = useCan('importInterop');
  const items = listItems(playlists.data);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="font-bold text-2xl">Managed Playlists</h2>
          <p className="text-base-content/70">
            Generated from your analysed songs by age, genre, time window and energy, for your DJ software
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/playlists/import" className="btn btn-ghost">
            Playlist Import
          </Link>
          {canImport && (
            <Link to="/dj-import" className="btn btn-ghost">
              Import from DJ software
            </Link>
          )}
          {canRegenerate && (
            <button
              type="button"
              className="btn btn-primary"
              disabled={regenerate.isPending}
              onClick={() => regenerate.mutate()}
            >
              {regenerate.isPending ? (
                <span className="loading loading-spinner loading-sm" aria-hidden="true" />
              ) : (
                <RefreshCw className="size-4" aria-hidden="true" />
              )}
              Regenerate All Playlists
            </button>
          )}
        </div>
      </div>

      {regenerate.isSuccess && (
        <p role="status" className="alert alert-success alert-soft">
          {regenerate.data.message}
        </p>
      )}
      {regenerate.isError && (
        <ErrorCard title="Failed to regenerate the playlists" message={errorMessage(regenerate.error)} />
      )}

      <section aria-labelledby={listId} className="space-y-4">
        <h3 id={listId} className="font-semibold text-xl">
          Active Playlists ({playlists.data?.total ?? items.length})
        </h3>
        {playlists.isPending ? (
          <Loading label="Loading playlists..." />
        ) : playlists.isError ? (
          <ErrorCard
            title="Failed to load playlists"
            message={errorMessage(playlists.error)}
            onRetry={() => playlists.refetch()}
          />
        ) : items.length === 0 ? (
          <div className="card bg-base-100 shadow">
            <EmptyState
              title="No active playlists yet"
              hint="Playlists are built from analysed songs with a file. Regenerate them after importing or analysing songs."
              icon={ListMusic}
            />
          </div>
        ) : (
          <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
            {items.map((playlist) => (
              <PlaylistCard key={playlist.playlist_id} playlist={playlist} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function PlaylistCard({ playlist }: { playlist: Playlist }) {
  const nameId = useId();
  return (
    <li aria-labelledby={nameId} className="card bg-base-100 shadow">
      <div className="card-body gap-3 p-4">
        <h4 id={nameId} className="card-title text-base">
          {playlist.playlist_name}
        </h4>
        <div className="flex flex-wrap gap-2">
          {playlist.age_category && <Badge tone="info">{playlist.age_category.toUpperCase()}</Badge>}
          {playlist.genre && <Badge tone="secondary">{playlist.genre}</Badge>}
          {playlist.time_window && <Badge tone="accent">{playlist.time_window}</Badge>}
          {playlist.energy_level && <Badge tone="warning">{ENERGY_LABELS[playlist.energy_level]}</Badge>}
          <Badge isOutline>{playlist.song_count} songs</Badge>
          <Badge isOutline>{totalMinutes(playlist.total_duration_seconds)} min</Badge>
        </div>
        <p className="text-base-content/60 text-xs">Generated {formatDateTime(playlist.generated_at)}</p>
        <div className="card-actions justify-end">
          <ExportMenu
            subject={playlist.playlist_name}
            selection={{ playlist_id: playlist.playlist_id }}
            align="end"
          />
          <a
            href={playlist.m3u8_url || `/api/playlists/${playlist.playlist_id}/m3u8`}
            download
            className="btn btn-sm btn-outline"
            aria-label={`Download M3U8 of ${playlist.playlist_name}`}
          >
            <Download className="size-4" aria-hidden="true" />
            M3U8
          </a>
        </div>
      </div>
    </li>
  );
}
