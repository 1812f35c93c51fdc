import type { InteropResult } from '@wcs/contract';
import { CalendarPlus, CheckCircle2, ListMusic, Music, PlayCircle } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { StatTile } from '../../components/stat-tile';
import { addsNothing, countOf, outcomeSentence, skippedLines } from './lib/summary';

/** The events an import touched: those it created, then those its plays went into. */
function affectedEvents(result: InteropResult): { id: number; name: string; isNew: boolean }[] {
  const events = new Map<number, { id: number; name: string; isNew: boolean }>();
  for (const created of result.events_created) {
    events.set(created.event_id, { id: created.event_id, name: created.event_name, isNew: true });
  }
  for (const session of result.sessions) {
    if (
      session.event_id !== null &&
      session.event_name &&
      session.plays > 0 &&
      !events.has(session.event_id)
    ) {
      events.set(session.event_id, { id: session.event_id, name: session.event_name, isNew: false });
    }
  }
  return [...events.values()];
}

/** What an import stored: the sentence, the counts, the events to look at, and what it left out. */
export function ResultPanel({ result }: { result: InteropResult }) {
  const titleId = useId();
  const events = affectedEvents(result);
  const skipped = skippedLines(result);
  const isEmpty = addsNothing(result);
  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-4 p-4 sm:p-6">
        <h3 id={titleId} className="card-title">
          <CheckCircle2 className="size-5 text-success" aria-hidden="true" />
          Import result
        </h3>
        <p role="status" className={`alert alert-soft ${isEmpty ? 'alert-info' : 'alert-success'}`}>
          {outcomeSentence(result)}
        </p>
        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          <StatTile label="Plays added" value={result.plays} icon={PlayCircle} tone="success" />
          <StatTile label="New songs" value={result.new_songs} icon={Music} description="without a file" />
          <StatTile
            label="Matched tracks"
            value={result.matched}
            icon={ListMusic}
            description={`of ${countOf(result.tracks, 'track')}`}
          />
          <StatTile label="Events created" value={result.events_created.length} icon={CalendarPlus} />
        </div>
        {skipped.length > 0 && (
          <div>
            <h4 className="font-semibold">Left out</h4>
            <ul className="list-disc pl-5 text-sm">
              {skipped.map((line) => (
                <li key={line.label}>
                  {countOf(line.count, 'play')} {line.label}
                </li>
              ))}
            </ul>
          </div>
        )}
        {events.length > 0 && (
          <div>
            <h4 className="font-semibold">Events with imported plays</h4>
            <ul className="list-disc pl-5 text-sm">
              {events.map((event) => (
                <li key={event.id}>
                  <Link className="link" to={`/events/insights?eventId=${event.id}`}>
                    {event.name}
                  </Link>
                  {event.isNew ? ' (new)' : ''}
                </li>
              ))}
            </ul>
          </div>
        )}
        <p className="text-sm">
          <Link className="link" to="/songs">
            Go to the songs
          </Link>
          <span className="text-base-content/70">
            {' '}
            · Songs without a file reach the download queue once the scores are recomputed.
          </span>
        </p>
      </div>
    </section>
  );
}
