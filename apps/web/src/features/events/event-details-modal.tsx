import type { Event } from '@wcs/contract';
import { BarChart3, Moon } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Badge } from '../../components/badge';
import { DateOnly, DateRange } from '../../components/date-only';
import { EmptyState } from '../../components/empty-state';
import { ErrorCard } from '../../components/error-card';
import { ExportMenu } from '../../components/export-menu';
import { Loading } from '../../components/loading';
import { Modal } from '../../components/modal';
import { errorMessage, listItems } from '../../lib/api';
import { useSocials } from './queries';

interface EventDetailsModalProps {
  event: Event | null;
  onClose: () => void;
}

/** An event's details, a way to its analytics, and its socials (each leading to its own analytics). */
export function EventDetailsModal({ event, onClose }: EventDetailsModalProps) {
  const navigate = useNavigate();
  const socials = useSocials(event?.event_id ?? null);
  const socialList = listItems(socials.data);

  return (
    <Modal
      isOpen={event !== null}
      title={event?.event_name ?? 'Event'}
      onClose={onClose}
      actions={
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
      }
    >
      {event && (
        <>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="font-medium">Dates</dt>
            <dd>
              <DateRange start={event.start_date} end={event.end_date} />
            </dd>
            <dt className="font-medium">Location</dt>
            <dd>{event.location ?? 'Not recorded'}</dd>
            <dt className="font-medium">Type</dt>
            <dd>
              <Badge tone={event.is_festival ? 'secondary' : 'accent'} size="sm">
                {event.is_festival ? 'Festival' : 'Party'}
              </Badge>
            </dd>
            <dt className="font-medium">Weight</dt>
            <dd>
              {event.event_weight}
              {event.weight_override !== null && ' (set for this event)'}
            </dd>
            <dt className="font-medium">Time zone</dt>
            <dd>{event.timezone}</dd>
          </dl>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => navigate(`/analytics?eventId=${event.event_id}`)}
            >
              <BarChart3 className="size-4" aria-hidden="true" />
              View Analytics
            </button>
            <ExportMenu
              subject={`the songs played at ${event.event_name}`}
              label="Export played songs"
              buttonName="Export played songs"
              selection={{ event_id: event.event_id }}
            />
          </div>

          <section aria-labelledby="event-socials" className="space-y-2">
            <h3 id="event-socials" className="font-semibold">
              Socials
            </h3>
            {socials.isPending ? (
              <Loading label="Loading socials..." />
            ) : socials.isError ? (
              <ErrorCard
                title="Failed to load the socials"
                message={errorMessage(socials.error)}
                onRetry={() => void socials.refetch()}
              />
            ) : socialList.length === 0 ? (
              <EmptyState icon={Moon} title="No socials recorded for this event" />
            ) : (
              <ul className="space-y-2" aria-label="Socials">
                {socialList.map((social) => (
                  <li key={social.social_id}>
                    <button
                      type="button"
                      className="flex w-full flex-wrap items-center justify-between gap-2 rounded-box border border-base-300 p-3 text-left hover:bg-base-200"
                      onClick={() =>
                        navigate(`/analytics?eventId=${event.event_id}&socialId=${social.social_id}`)
                      }
                    >
                      <span className="font-medium">{social.social_name}</span>
                      <span className="flex flex-wrap gap-3 text-base-content/70 text-sm">
                        <DateOnly value={social.social_date} />
                        <span>{social.day_of_week}</span>
                        <span>
                          {social.start_time ?? '--:--'} – {social.end_time ?? '--:--'}
                        </span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </Modal>
  );
}
