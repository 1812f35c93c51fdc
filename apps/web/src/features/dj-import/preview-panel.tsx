import type { InteropResult, InteropSession } from '@wcs/contract';
import { AlertTriangle, CalendarDays, Disc3, History, ListMusic, RefreshCw, Upload } from 'lucide-react';
import { useId } from 'react';
import { Badge } from '../../components/badge';
import { DateOnly, formatDateOnly } from '../../components/date-only';
import { StatTile } from '../../components/stat-tile';
import { errorMessage, listItems } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { formatLabel } from './lib/formats';
import type { EventChoice } from './lib/import-request';
import { countOf, matchLines, outcomeSentence, sessionEventText, skippedLines } from './lib/summary';
import { useEventChoices } from './queries';

/** Tracks listed with their match under the preview; the counts above cover them all. */
const TRACKS_SHOWN = 200;

const MATCH_LABELS: Readonly<Record<InteropResult['track_matches'][number]['match'], string>> = {
  path: 'file path',
  content_hash: 'file hash',
  name: 'artist and title',
  fingerprint: 'audio fingerprint',
  new_song: 'new song',
  unmatched: 'not matched',
};

/**
 * What the server read and what an import would add: the format and counts, how tracks matched,
 * the warnings, each history session with a checkbox and where its plays go, the event choice,
 * and Import.
 */
export function PreviewPanel({
  result,
  chosenSessions,
  onChooseSessions,
  eventChoice,
  onEventChoice,
  isOutdated,
  onPreviewAgain,
  onImport,
  importProblem,
  isBusy,
  isImporting,
}: {
  result: InteropResult;
  chosenSessions: ReadonlySet<number>;
  onChooseSessions: (chosen: ReadonlySet<number>) => void;
  eventChoice: EventChoice;
  onEventChoice: (choice: EventChoice) => void;
  /** The sessions, the event or the history options changed since this preview. */
  isOutdated: boolean;
  onPreviewAgain: () => void;
  onImport: () => void;
  /** What keeps Import from running (an event to choose), or null. */
  importProblem: string | null;
  isBusy: boolean;
  isImporting: boolean;
}) {
  const titleId = useId();
  const matchId = useId();
  const sessionsId = useId();
  const outcomeId = useId();
  const format = formatLabel(result.format);
  const skipped = skippedLines(result);

  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-5 p-4 sm:p-6">
        <h3 id={titleId} className="card-title">
          3. Preview
        </h3>

        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          <StatTile
            label="Format"
            value={<span className="whitespace-normal break-words text-lg">{format}</span>}
            icon={Disc3}
            description={
              <span className="break-all">
                {result.files.length > 1 ? countOf(result.files.length, 'file') : result.files[0]?.name}
              </span>
            }
          />
          <StatTile
            label="Tracks"
            value={result.tracks}
            icon={ListMusic}
            description={`${result.matched} matched`}
          />
          <StatTile label="Playlists" value={result.playlists} icon={ListMusic} />
          <StatTile label="History sessions" value={result.history_sessions} icon={History} />
        </div>

        {result.warnings.length > 0 && (
          <div role="alert" className="alert alert-warning alert-soft items-start">
            <AlertTriangle className="size-5 shrink-0" aria-hidden="true" />
            <ul className="list-disc space-y-1 pl-4 text-sm">
              {result.warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          </div>
        )}

        <section aria-labelledby={matchId} className="space-y-2">
          <h4 id={matchId} className="font-semibold">
            How the tracks match the library
          </h4>
          <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-3 lg:grid-cols-5">
            {matchLines(result).map((line) => (
              <div key={line.label}>
                <dt className="text-base-content/70">{line.label}</dt>
                <dd className="font-semibold text-lg">{line.count}</dd>
              </div>
            ))}
          </dl>
          {(result.bpm_filled > 0 || result.key_filled > 0) && (
            <p className="text-base-content/70 text-sm">
              The file fills {countOf(result.bpm_filled, 'empty BPM value')} and{' '}
              {countOf(result.key_filled, 'empty key')} of matched songs; values the analysis found are never
              replaced.
            </p>
          )}
          {result.track_matches.length > 0 && (
            <details>
              <summary className="cursor-pointer text-sm">
                Each track and its match
                {result.track_matches.length > TRACKS_SHOWN ? ` (the first ${TRACKS_SHOWN})` : ''}
              </summary>
              <ul className="mt-2 max-h-72 space-y-1 overflow-y-auto text-sm">
                {result.track_matches.slice(0, TRACKS_SHOWN).map((track) => (
                  <li key={track.key} className="flex flex-wrap items-center gap-2">
                    <span>
                      {track.artist ? `${track.artist} - ` : ''}
                      {track.title}
                    </span>
                    <Badge size="sm" tone={track.match === 'unmatched' ? 'warning' : 'ghost'}>
                      {MATCH_LABELS[track.match]}
                    </Badge>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </section>

        <SessionsTable
          titleId={sessionsId}
          sessions={result.sessions}
          chosen={chosenSessions}
          onChoose={onChooseSessions}
        />

        {result.sessions.length > 0 && <EventChoiceFields choice={eventChoice} onChoice={onEventChoice} />}

        <section aria-labelledby={outcomeId} className="space-y-2 rounded-box bg-base-200 p-4">
          <h4 id={outcomeId} className="font-semibold">
            What the import adds
          </h4>
          <p>{outcomeSentence(result)}</p>
          {skipped.length > 0 && (
            <ul className="list-disc pl-5 text-base-content/70 text-sm">
              {skipped.map((line) => (
                <li key={line.label}>
                  {countOf(line.count, 'play')} left out: {line.label}
                </li>
              ))}
            </ul>
          )}
          {isOutdated && (
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <span className="badge badge-warning badge-sm">changed</span>
              The choices changed since this preview; the import follows the choices on screen.
              <button type="button" className="btn btn-xs" onClick={onPreviewAgain} disabled={isBusy}>
                <RefreshCw className="size-3" aria-hidden="true" />
                Update preview
              </button>
            </p>
          )}
        </section>

        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            className="btn btn-primary"
            onClick={onImport}
            disabled={isBusy || importProblem !== null}
          >
            {isImporting ? (
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            ) : (
              <Upload className="size-4" aria-hidden="true" />
            )}
            Import
          </button>
          {isImporting && (
            <span role="status" className="text-base-content/70 text-sm">
              Importing...
            </span>
          )}
          {importProblem && <span className="text-sm">{importProblem}</span>}
        </div>
      </div>
    </section>
  );
}

function SessionsTable({
  titleId,
  sessions,
  chosen,
  onChoose,
}: {
  titleId: string;
  sessions: readonly InteropSession[];
  chosen: ReadonlySet<number>;
  onChoose: (chosen: ReadonlySet<number>) => void;
}) {
  const toggle = (index: number) => {
    const next = new Set(chosen);
    if (next.has(index)) next.delete(index);
    else next.add(index);
    onChoose(next);
  };
  return (
    <section aria-labelledby={titleId} className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={titleId} className="font-semibold">
          History sessions ({sessions.length})
        </h4>
        {sessions.length > 1 && (
          <div className="flex gap-2">
            <button
              type="button"
              className="btn btn-xs"
              onClick={() => onChoose(new Set(sessions.map((session) => session.index)))}
            >
              Choose all
            </button>
            <button type="button" className="btn btn-xs" onClick={() => onChoose(new Set())}>
              Choose none
            </button>
          </div>
        )}
      </div>
      {sessions.length === 0 ? (
        <p className="text-base-content/70 text-sm">
          The file holds no play history: importing matches its tracks and adds the songs it lacks.
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="table-sm table">
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">Date</th>
                <th scope="col">Entries</th>
                <th scope="col">Event</th>
                <th scope="col">Plays to add</th>
                <th scope="col">Left out</th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((session) => (
                <tr key={session.index}>
                  <td>
                    <label className="flex cursor-pointer items-center gap-2">
                      <input
                        type="checkbox"
                        className="checkbox checkbox-sm"
                        checked={chosen.has(session.index)}
                        onChange={() => toggle(session.index)}
                      />
                      {session.name}
                    </label>
                  </td>
                  <td>
                    {session.started_at ? (
                      formatDateTime(session.started_at)
                    ) : (
                      <DateOnly value={session.date} />
                    )}
                    {session.estimated_times && (
                      <Badge
                        size="sm"
                        tone="warning"
                        isOutline
                        className="ml-2"
                        title="The file keeps only the date and the order: times are estimated from the night's start"
                      >
                        estimated times
                      </Badge>
                    )}
                  </td>
                  <td>{session.entries}</td>
                  <td>
                    <span className="inline-flex items-center gap-1">
                      <CalendarDays className="size-4 shrink-0 opacity-60" aria-hidden="true" />
                      {sessionEventText(session)}
                    </span>
                  </td>
                  <td>{session.plays}</td>
                  <td>
                    {session.skipped > 0
                      ? `${session.skipped} (${session.skipped_reason ?? 'see below'})`
                      : 0}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function EventChoiceFields({
  choice,
  onChoice,
}: {
  choice: EventChoice;
  onChoice: (choice: EventChoice) => void;
}) {
  const name = useId();
  const selectId = useId();
  const isOne = choice.kind === 'one';
  const events = useEventChoices(true);
  const list = listItems(events.data);
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 font-semibold">The event of the plays</legend>
      <label className="flex items-center gap-2">
        <input
          type="radio"
          className="radio radio-sm"
          name={name}
          checked={choice.kind === 'per-night'}
          onChange={() => onChoice({ kind: 'per-night' })}
        />
        The event that holds each night, else a new event per night made by the import
      </label>
      <label className="flex items-center gap-2">
        <input
          type="radio"
          className="radio radio-sm"
          name={name}
          checked={choice.kind === 'existing-only'}
          onChange={() => onChoice({ kind: 'existing-only' })}
        />
        Only events that already hold the night (other sessions are left out)
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <label className="flex items-center gap-2">
          <input
            type="radio"
            className="radio radio-sm"
            name={name}
            checked={isOne}
            onChange={() => onChoice({ kind: 'one', eventId: null })}
          />
          Every session into one existing event
        </label>
        <label htmlFor={selectId} className="sr-only">
          Event for every session
        </label>
        <select
          id={selectId}
          className="select select-bordered select-sm w-full max-w-xs"
          disabled={!isOne}
          value={isOne && choice.eventId !== null ? String(choice.eventId) : ''}
          onChange={(event) =>
            onChoice({ kind: 'one', eventId: event.target.value === '' ? null : Number(event.target.value) })
          }
        >
          <option value="">{events.isPending ? 'Loading events...' : 'Choose an event'}</option>
          {list.map((event) => (
            <option key={event.event_id} value={event.event_id}>
              {event.event_name} ({formatDateOnly(event.start_date)})
            </option>
          ))}
        </select>
      </div>
      {events.isError && (
        <p className="text-error text-sm">The events could not be loaded: {errorMessage(events.error)}</p>
      )}
    </fieldset>
  );
}
