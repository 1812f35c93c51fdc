import type { Event } from '@wcs/contract';
import { CalendarDays, ClipboardCheck, HardDriveUpload, MapPin, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../components/badge';
import { DateRange } from '../../components/date-only';
import { EmptyState } from '../../components/empty-state';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { errorMessage, listItems } from '../../lib/api';
import { useCan } from '../../lib/session';
import { EventDetailsModal } from './event-details-modal';
import { EventFormModal } from './event-form-modal';
import { useEvents } from './queries';

/** /events: every event, Add Event, and a modal with each event's details and socials. */
export function EventsPage() {
  const events = useEvents();
  const [isFormOpen, setIsFormOpen] = useState(false);
  const [selected, setSelected] = useState<Event | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const list = listItems(events.data);
  const canCreate = useCan('createEvent');
  const canImport = useCan('importInterop');

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="font-bold text-2xl">All Events</h2>
        <div className="flex gap-2">
          <Link to="/events/review" className="btn btn-outline btn-sm">
            <ClipboardCheck className="size-4" aria-hidden="true" />
            Event Review
          </Link>
          {canImport && (
            <Link to="/dj-import" className="btn btn-outline btn-sm">
              <HardDriveUpload className="size-4" aria-hidden="true" />
              Import from DJ software
            </Link>
          )}
          {canCreate && (
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setIsFormOpen(true)}>
              <Plus className="size-4" aria-hidden="true" />
              Add Event
            </button>
          )}
        </div>
      </header>

      {created && (
        <div role="status" className="alert alert-success alert-soft">
          <span className="flex-1">Event "{created}" was created.</span>
          <button type="button" className="btn btn-ghost btn-xs" onClick={() => setCreated(null)}>
            Dismiss
          </button>
        </div>
      )}

      {events.isPending ? (
        <Loading label="Loading events..." />
      ) : events.isError ? (
        <ErrorCard
          title="Failed to fetch events"
          message={errorMessage(events.error)}
          onRetry={() => void events.refetch()}
          isRetrying={events.isFetching}
        />
      ) : list.length === 0 ? (
        <div className="card bg-base-100 shadow">
          <EmptyState
            icon={CalendarDays}
            title="No events yet"
            hint={
              canCreate
                ? 'Add an event, or record a social: a recording with a new event name creates one.'
                : 'Events appear here once a dj adds one or records a social.'
            }
          />
        </div>
      ) : (
        <>
          <ul className="grid grid-cols-1 gap-3 md:grid-cols-2" aria-label="Events">
            {list.map((event) => (
              <li key={event.event_id}>
                <button
                  type="button"
                  className="card card-sm w-full bg-base-100 text-left shadow transition-shadow hover:shadow-lg"
                  onClick={() => setSelected(event)}
                >
                  <span className="card-body gap-1">
                    <span className="flex items-start justify-between gap-2">
                      <span className="font-semibold text-base">{event.event_name}</span>
                      <Badge tone={event.is_festival ? 'secondary' : 'accent'} size="sm">
                        {event.is_festival ? 'Festival' : 'Party'}
                      </Badge>
                    </span>
                    <span className="text-base-content/70 text-sm">
                      <DateRange start={event.start_date} end={event.end_date} />
                    </span>
                    <span className="flex flex-wrap justify-between gap-2 text-base-content/70 text-sm">
                      <span className="flex items-center gap-1">
                        <MapPin className="size-3" aria-hidden="true" />
                        {event.location ?? 'No location'}
                      </span>
                      <span>Weight {event.event_weight}</span>
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {events.data && events.data.total > list.length && (
            <p className="text-base-content/60 text-sm">
              Showing the newest {list.length} of {events.data.total} events.
            </p>
          )}
        </>
      )}

      <EventFormModal
        isOpen={canCreate && isFormOpen}
        onClose={() => setIsFormOpen(false)}
        onCreated={setCreated}
      />
      <EventDetailsModal event={selected} onClose={() => setSelected(null)} />
    </div>
  );
}
