import { CheckCircle2, Clock, Link2, ListChecks, Play, Upload, X } from 'lucide-react';
import { type FormEvent, useEffect, useId, useMemo, useReducer, useState } from 'react';
import { Badge } from '../../components/badge';
import { StatTile } from '../../components/stat-tile';
import { DEFAULT_SET_START, estimateSetEnd } from './lib/estimate-timestamps';
import { BUILT_IN_PLAYLISTS, groupByYearAndNight, type ImportPlaylist } from './lib/historical-playlists';
import { canStartImport, IDLE, IMPORT_STEP_MS, importPercent, importReducer } from './lib/import-progress';

/** The alert of 'Import from URL': the specification leaves URL import unbuilt. */
export const URL_IMPORT_MESSAGE =
  'Import from URL is not yet implemented for the music-streaming service. Please use the pre-loaded playlists below.';

/**
 * Assumed length of a song when a playlist carries no track lengths (the built-in list has only song
 * counts): 3:45, a typical West Coast Swing track. Used only to estimate the set's timestamps.
 */
const ASSUMED_SONG_SECONDS = 225;

const GROUPS = groupByYearAndNight(BUILT_IN_PLAYLISTS);
/** The order of the list on screen, so an import runs top to bottom. */
const DISPLAY_ORDER = GROUPS.flatMap((year) => year.nights.flatMap((night) => night.playlists));
const PRECISE_COUNT = BUILT_IN_PLAYLISTS.filter((p) => p.hasTimeInfo).length;

function byName(name: string): ImportPlaylist | undefined {
  return BUILT_IN_PLAYLISTS.find((p) => p.name === name);
}

export function PlaylistImportPage() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [state, dispatch] = useReducer(importReducer, IDLE);
  const isImporting = state.status === 'importing';
  const percent = importPercent(state);

  // One playlist per step; the reducer ends the run after the last one.
  useEffect(() => {
    if (state.status !== 'importing') return;
    const timer = window.setTimeout(() => dispatch({ type: 'tick' }), IMPORT_STEP_MS);
    return () => window.clearTimeout(timer);
  }, [state]);

  const selectedInOrder = useMemo(() => DISPLAY_ORDER.filter((p) => selected.has(p.name)), [selected]);

  const toggle = (name: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });
  const selectAllWithTime = () =>
    setSelected(new Set(BUILT_IN_PLAYLISTS.filter((p) => p.hasTimeInfo).map((p) => p.name)));
  const clear = () => {
    setSelected(new Set());
    dispatch({ type: 'reset' });
  };
  const startImport = (names: readonly string[]) => dispatch({ type: 'start', ids: names });
  /** The newest festival year's sets with a start time, imported at once. */
  const runDemo = () => {
    const newestYear = GROUPS[0]?.year;
    const demo = DISPLAY_ORDER.filter((p) => p.year === newestYear && p.hasTimeInfo).map((p) => p.name);
    setSelected(new Set(demo));
    startImport(demo);
  };

  return (
    <div className="space-y-6">
      <div>
        <h2 className="font-bold text-2xl">Playlist Import</h2>
        <p className="text-base-content/70">
          Import historical festival playlists with their set times. The import is simulated in your browser.
        </p>
      </div>

      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatTile label="Total Playlists" value={BUILT_IN_PLAYLISTS.length} icon={ListChecks} />
        <StatTile label="Precise Timestamps" value={PRECISE_COUNT} icon={Clock} tone="success" />
        <StatTile
          label="Estimated Timestamps"
          value={BUILT_IN_PLAYLISTS.length - PRECISE_COUNT}
          icon={Clock}
          tone="warning"
        />
        <StatTile label="Selected" value={selected.size} icon={CheckCircle2} tone="primary" />
      </div>

      <UrlImport />

      <section aria-label="Import actions" className="card bg-base-100 shadow">
        <div className="card-body gap-4 p-4 sm:p-6">
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn btn-secondary" disabled={isImporting} onClick={runDemo}>
              <Play className="size-4" aria-hidden="true" />
              Run Demo
            </button>
            <button type="button" className="btn" disabled={isImporting} onClick={selectAllWithTime}>
              Select All
            </button>
            <button type="button" className="btn" disabled={isImporting} onClick={clear}>
              <X className="size-4" aria-hidden="true" />
              Clear
            </button>
            <button
              type="button"
              className="btn btn-primary"
              disabled={!canStartImport(state, selected.size)}
              onClick={() => startImport(selectedInOrder.map((p) => p.name))}
            >
              <Upload className="size-4" aria-hidden="true" />
              {isImporting ? `Importing... ${percent}%` : 'Start Import'}
            </button>
          </div>
          <p className="text-base-content/60 text-sm">
            Select All selects the playlists whose name gives a start time.
          </p>
          {state.status !== 'idle' && (
            <div className="space-y-1" role="status">
              <div className="flex justify-between text-sm">
                <span>
                  {state.status === 'importing'
                    ? `Importing ${Math.min(state.completed + 1, state.ids.length)} of ${state.ids.length}...`
                    : `Import complete: ${state.ids.length} playlists imported`}
                </span>
                <span>{percent}%</span>
              </div>
              <progress
                className="progress progress-primary w-full"
                max={100}
                value={percent}
                aria-label="Import progress"
              />
            </div>
          )}
          {state.status === 'done' && <ImportResults names={state.ids} />}
        </div>
      </section>

      <section aria-label="Historical playlists" className="space-y-6">
        {GROUPS.map((year) => (
          <YearSection
            key={year.year}
            year={year}
            selected={selected}
            onToggle={toggle}
            isDisabled={isImporting}
          />
        ))}
      </section>
    </div>
  );
}

function UrlImport() {
  const inputId = useId();
  const [url, setUrl] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    window.alert(URL_IMPORT_MESSAGE);
  };
  return (
    <form onSubmit={submit} className="card bg-base-100 shadow" aria-label="Import from URL">
      <div className="card-body gap-2 p-4 sm:p-6">
        <label htmlFor={inputId} className="font-medium text-sm">
          Playlist URL
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <label className="input flex-1">
            <Link2 className="size-4 opacity-60" aria-hidden="true" />
            <input
              id={inputId}
              type="url"
              placeholder="https://open.spotify.com/playlist/..."
              value={url}
              onChange={(event) => setUrl(event.target.value)}
            />
          </label>
          <button type="submit" className="btn">
            Import from URL
          </button>
        </div>
      </div>
    </form>
  );
}

function YearSection({
  year,
  selected,
  onToggle,
  isDisabled,
}: {
  year: ReturnType<typeof groupByYearAndNight>[number];
  selected: ReadonlySet<string>;
  onToggle: (name: string) => void;
  isDisabled: boolean;
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-4 p-4 sm:p-6">
        <h3 id={titleId} className="card-title">
          {year.year}
        </h3>
        {year.nights.map((night) => (
          <NightGroup
            key={night.night}
            yearTitleId={titleId}
            night={night.night}
            playlists={night.playlists}
            selected={selected}
            onToggle={onToggle}
            isDisabled={isDisabled}
          />
        ))}
      </div>
    </section>
  );
}

function NightGroup({
  yearTitleId,
  night,
  playlists,
  selected,
  onToggle,
  isDisabled,
}: {
  /** The year's heading: a night is named with its year ('2024 Saturday'), as each year has one. */
  yearTitleId: string;
  night: string;
  playlists: readonly ImportPlaylist[];
  selected: ReadonlySet<string>;
  onToggle: (name: string) => void;
  isDisabled: boolean;
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={`${yearTitleId} ${titleId}`} className="space-y-2">
      <h4 id={titleId} className="font-semibold text-base-content/80 text-sm uppercase tracking-wide">
        {night}
      </h4>
      <ul className="space-y-2">
        {playlists.map((playlist) => (
          <li key={playlist.name}>
            <label className="flex cursor-pointer flex-wrap items-center gap-3 rounded-box border border-base-300 px-3 py-2 hover:bg-base-200">
              <input
                type="checkbox"
                className="checkbox checkbox-sm"
                checked={selected.has(playlist.name)}
                disabled={isDisabled}
                onChange={() => onToggle(playlist.name)}
              />
              <span className="min-w-0 flex-1">
                <span className="block font-medium">{playlist.name}</span>
                <span className="block text-base-content/70 text-xs">
                  {playlist.owner} · {playlist.songCount} songs ·{' '}
                  {playlist.setStartTime
                    ? `starts ${playlist.setStartTime}`
                    : `no start time (${DEFAULT_SET_START} assumed)`}
                </span>
              </span>
              <span className="flex gap-1">
                {playlist.timeWindow && (
                  <Badge size="sm" tone="accent" isOutline>
                    {playlist.timeWindow}
                  </Badge>
                )}
                {playlist.hasTimeInfo && (
                  <Badge size="sm" tone="success">
                    Has Time
                  </Badge>
                )}
              </span>
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ImportResults({ names }: { names: readonly string[] }) {
  const playlists = names.map(byName).filter((p): p is ImportPlaylist => p !== undefined);
  return (
    <div className="overflow-x-auto">
      <table className="table table-sm">
        <caption className="text-left text-base-content/70 text-sm">
          Imported sets with their timestamps (song lengths assumed at 3:45 each)
        </caption>
        <thead>
          <tr>
            <th scope="col">Playlist</th>
            <th scope="col">Songs</th>
            <th scope="col">First song</th>
            <th scope="col">Set ends</th>
            <th scope="col">Timestamps</th>
          </tr>
        </thead>
        <tbody>
          {playlists.map((playlist) => {
            const durations = Array.from({ length: playlist.songCount }, () => ASSUMED_SONG_SECONDS);
            return (
              <tr key={playlist.name}>
                <th scope="row" className="font-normal">
                  {playlist.name}
                </th>
                <td>{playlist.songCount}</td>
                <td>{playlist.setStartTime ?? DEFAULT_SET_START}</td>
                <td>{estimateSetEnd(playlist.setStartTime, durations)}</td>
                <td>
                  <Badge size="sm" tone={playlist.hasTimeInfo ? 'success' : 'warning'}>
                    {playlist.hasTimeInfo ? 'Precise' : 'Estimated'}
                  </Badge>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
