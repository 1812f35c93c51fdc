import type { Song } from '@wcs/contract';
import { CalendarDays, Music, Repeat } from 'lucide-react';
import { useId } from 'react';
import { Badge } from '../../components/badge';
import { ChartCard } from '../../components/charts/chart-card';
import { LineSeriesChart } from '../../components/charts/lazy';
import { formatMonth } from '../../components/charts/palette';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { Modal } from '../../components/modal';
import { StatTile } from '../../components/stat-tile';
import { StoreLinks } from '../../components/store-links';
import { errorMessage } from '../../lib/api';
import { formatDate, formatDateTime } from '../../lib/format';
import { useCan } from '../../lib/session';
import { formatBpm, formatScale1000, keyLabel } from './lib/analysis-values';
import { formatKey } from './lib/camelot';
import { overplayTone, playsPerEvent } from './lib/overplay-tone';
import { popularityDisplay, SPOTIFY_NOT_CONFIGURED } from './lib/popularity';
import { analysisStatus } from './lib/song-filters';
import {
  useMetadataProviders,
  useMoreSongPlays,
  useSetSongBpm,
  useSong,
  useSongPerformance,
  useSpotifyPopularity,
} from './queries';
import { SongMetadataSection } from './song-metadata';

export interface SongModalProps {
  song: Song | null;
  onClose: () => void;
}

/** The details of one song: badges, play totals, plays per month, popularity and play history. */
export function SongModal({ song, onClose }: SongModalProps) {
  return (
    <Modal isOpen={song !== null} title={song?.title ?? ''} onClose={onClose} size="lg">
      {song && <SongDetails song={song} />}
    </Modal>
  );
}

function SongDetails({ song: listed }: { song: Song }) {
  // The stored song: a metadata lookup in this modal changes it.
  const song = useSong(listed).data ?? listed;
  const performance = useSongPerformance(song.song_id);
  const popularity = useSpotifyPopularity(song.song_id);
  const spotifyConfigured = useMetadataProviders().data?.spotify_configured;
  const stats = performance.data;
  const trend = stats?.monthly_trend ?? [];
  const history = popularity.data?.data.history ?? [];
  const shownPopularity = popularityDisplay(song, spotifyConfigured);
  const demoHistory = history.some((point) => point.source === 'demo');

  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <p className="mr-2 text-base-content/80">{song.artist}</p>
        <Badge tone="info">{song.age_category ? song.age_category.toUpperCase() : 'Unknown'}</Badge>
        <Badge tone={overplayTone(song.overplay_score)}>Overplay {Math.round(song.overplay_score)}%</Badge>
        <Badge tone="accent" isOutline title={shownPopularity.description}>
          {shownPopularity.kind === 'spotify'
            ? `Spotify ${shownPopularity.text}`
            : `Popularity ${shownPopularity.text}`}
        </Badge>
      </div>
      <StoreLinks artist={song.artist} title={song.title} />

      <AudioAnalysis song={song} />

      <SongMetadataSection song={song} spotifyConfigured={spotifyConfigured} />

      {performance.isPending ? (
        <Loading label="Loading play statistics..." />
      ) : performance.isError ? (
        <ErrorCard
          title="Could not load the play statistics"
          message={errorMessage(performance.error)}
          onRetry={() => performance.refetch()}
        />
      ) : (
        <>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            <StatTile label="Total Plays" value={stats?.total_plays} icon={Repeat} />
            <StatTile label="Events" value={stats?.total_events} icon={CalendarDays} />
            <StatTile
              label="Avg/Event"
              value={playsPerEvent(stats?.total_plays ?? 0, stats?.total_events ?? 0)}
              icon={Music}
            />
          </div>
          <ChartCard
            title="Play Frequency Over Time"
            description="Plays per month"
            isEmpty={trend.length === 0}
            emptyText="No play data available"
          >
            <LineSeriesChart
              data={trend.map((point) => ({ label: formatMonth(point.month), plays: point.plays }))}
              series={[{ dataKey: 'plays', name: 'Plays' }]}
              height={220}
            />
          </ChartCard>
        </>
      )}

      <ChartCard
        title="Spotify Popularity Over Time"
        description={
          demoHistory
            ? 'Popularity from 0 to 100. Demo data: invented by the demo generator, not read from Spotify'
            : 'Popularity from 0 to 100'
        }
        isLoading={popularity.isPending}
        error={popularity.error}
        onRetry={() => popularity.refetch()}
        isEmpty={history.length === 0}
        emptyText={
          popularity.data?.data.spotify_configured === false
            ? SPOTIFY_NOT_CONFIGURED
            : 'No Spotify popularity data available'
        }
      >
        <LineSeriesChart
          data={history.map((point) => ({
            label: formatDate(point.fetched_at),
            popularity: point.popularity,
          }))}
          series={[{ dataKey: 'popularity', name: 'Popularity' }]}
          yDomain={[0, 100]}
          height={220}
        />
      </ChartCard>

      {stats && <PlayHistory songId={song.song_id} timeline={stats.timeline} total={stats.total_plays} />}
    </>
  );
}

type Timeline = NonNullable<ReturnType<typeof useSongPerformance>['data']>['timeline'];

/** The newest plays the performance answer carries, then older ones a page at a time on request. */
function PlayHistory({ songId, timeline, total }: { songId: number; timeline: Timeline; total: number }) {
  const titleId = useId();
  const more = useMoreSongPlays(songId, timeline.length);
  const listed = [...timeline, ...more.items.map((play) => ({ ...play, played_at: play.started_at }))];
  return (
    <section aria-labelledby={titleId} className="space-y-2">
      <h3 id={titleId} className="font-semibold">
        Play History
      </h3>
      {listed.length === 0 ? (
        <p className="text-base-content/60 text-sm">No plays recorded yet</p>
      ) : (
        <ul className="max-h-64 divide-y divide-base-300 overflow-y-auto rounded-box border border-base-300">
          {listed.map((play) => (
            <li
              key={`${play.played_at}-${play.event_name}`}
              className="flex flex-wrap items-center gap-2 px-3 py-2"
            >
              <span className="flex-1 font-medium">{play.event_name}</span>
              <span className="text-sm" title={formatDateTime(play.played_at)}>
                {formatDate(play.event_date)}
              </span>
              {play.time_window && (
                <Badge size="sm" isOutline>
                  {play.time_window}
                </Badge>
              )}
              {play.is_festival && (
                <Badge size="sm" tone="secondary">
                  Festival
                </Badge>
              )}
            </li>
          ))}
        </ul>
      )}
      {more.error && (
        <p className="text-error text-sm">Could not load more plays: {errorMessage(more.error)}</p>
      )}
      {listed.length < total && (
        <button type="button" className="btn btn-sm" onClick={more.loadMore} disabled={more.isLoading}>
          {more.isLoading ? 'Loading...' : `Show older plays (${listed.length} of ${total} shown)`}
        </button>
      )}
    </section>
  );
}

/** The song's analysis values and where they come from (our own estimates, see docs/metrics.md). */
function AudioAnalysis({ song }: { song: Song }) {
  const titleId = useId();
  const setBpm = useSetSongBpm(song.song_id);
  const canEdit = useCan('updateSong');
  const status = analysisStatus(song);
  const values: Array<[string, string]> = [
    ['Energy', formatScale1000(song.energy_level)],
    ['Danceability', formatScale1000(song.danceability)],
    ['Valence', formatScale1000(song.valence)],
  ];
  const bpmAlt = song.bpm_alt;
  return (
    <section aria-labelledby={titleId} className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={titleId} className="font-semibold">
          Audio Analysis
        </h3>
        {status === 'analyzed' ? (
          <Badge tone="success" size="sm">
            Analyzed {formatDate(song.analyzed_at)}
          </Badge>
        ) : status === 'pending' ? (
          <Badge tone="warning" size="sm">
            Pending Analysis
          </Badge>
        ) : (
          <Badge tone="neutral" size="sm" isOutline>
            No File
          </Badge>
        )}
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-5">
        <div>
          <dt className="text-base-content/60 text-xs">BPM</dt>
          <dd className="font-medium">
            {formatBpm(song.bpm)}
            {song.sources.bpm === 'dj' && (
              <span className="ml-1 font-normal text-base-content/60 text-xs">(set by a DJ)</span>
            )}
          </dd>
          {bpmAlt !== null && (
            <dd className="text-xs">
              {canEdit ? (
                <button
                  type="button"
                  className="btn btn-link btn-xs h-auto min-h-0 p-0"
                  disabled={setBpm.isPending}
                  onClick={() => setBpm.mutate(bpmAlt)}
                >
                  Use {formatBpm(bpmAlt)} instead
                </button>
              ) : (
                <span className="text-base-content/60">or {formatBpm(bpmAlt)}</span>
              )}
            </dd>
          )}
          {setBpm.isError && (
            <dd className="text-error text-xs" role="alert">
              {errorMessage(setBpm.error)}
            </dd>
          )}
        </div>
        <div>
          <dt className="text-base-content/60 text-xs">Key</dt>
          <dd className="font-medium">{keyLabel(song, formatKey)}</dd>
          {song.key_uncertain && song.key && (
            <dd className="text-base-content/60 text-xs">
              best guess {formatKey(song.key)}, confidence {Math.round((song.key_confidence ?? 0) * 100)}%
            </dd>
          )}
        </div>
        {values.map(([label, value]) => (
          <div key={label}>
            <dt className="text-base-content/60 text-xs">{label}</dt>
            <dd className="font-medium">{value}</dd>
          </div>
        ))}
      </dl>
      {song.analysis_version && (
        <p className="truncate text-base-content/60 text-xs" title={song.analysis_version}>
          {song.analysis_version}
        </p>
      )}
    </section>
  );
}
