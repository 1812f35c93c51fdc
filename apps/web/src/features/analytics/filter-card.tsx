import type { Event, Social } from '@wcs/contract';
import { useId } from 'react';
import { ErrorCard } from '../../components/error-card';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';

export interface FilterCardProps {
  events: readonly Event[];
  isLoadingEvents: boolean;
  eventsError: unknown;
  eventId: number | null;
  socialId: number | null;
  socials: readonly Social[];
  isLoadingSocials: boolean;
  socialsError: unknown;
  onEventChange: (eventId: number | null) => void;
  onSocialChange: (socialId: number | null) => void;
}

export function eventOptionLabel(event: Pick<Event, 'event_name' | 'start_date'>): string {
  return `${event.event_name} (${formatDate(event.start_date)})`;
}

export function socialOptionLabel(social: Pick<Social, 'social_name' | 'social_date'>): string {
  return `${social.social_name} (${formatDate(social.social_date)})`;
}

/** 'Filter Analytics': all events, one event, or one social of it. */
export function FilterCard({
  events,
  isLoadingEvents,
  eventsError,
  eventId,
  socialId,
  socials,
  isLoadingSocials,
  socialsError,
  onEventChange,
  onSocialChange,
}: FilterCardProps) {
  const titleId = useId();
  const eventSelectId = useId();
  const socialSelectId = useId();
  const noteId = useId();
  const hasNoSocials = eventId !== null && !isLoadingSocials && !socialsError && socials.length === 0;
  // An event from the URL that is not among the first 500 still shows as chosen.
  const isUnlistedEvent = eventId !== null && !isLoadingEvents && !events.some((e) => e.event_id === eventId);

  return (
    <section aria-labelledby={titleId} className="card bg-base-100 shadow">
      <div className="card-body gap-4 p-4 sm:p-6">
        <h3 id={titleId} className="card-title text-base">
          Filter Analytics
        </h3>
        {Boolean(eventsError) && (
          <ErrorCard title="Failed to fetch events" message={errorMessage(eventsError)} />
        )}
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={eventSelectId} className="font-medium text-sm">
              Event
            </label>
            <select
              id={eventSelectId}
              className="select w-full"
              value={eventId ?? ''}
              disabled={isLoadingEvents}
              onChange={(e) => onEventChange(e.target.value ? Number(e.target.value) : null)}
            >
              <option value="">All Events (Average)</option>
              {isUnlistedEvent && <option value={eventId}>Event {eventId}</option>}
              {events.map((event) => (
                <option key={event.event_id} value={event.event_id}>
                  {eventOptionLabel(event)}
                </option>
              ))}
            </select>
          </div>
          {eventId !== null && (
            <div className="flex flex-col gap-1">
              <label htmlFor={socialSelectId} className="font-medium text-sm">
                Social/Night
              </label>
              <select
                id={socialSelectId}
                className="select w-full"
                value={socialId ?? ''}
                disabled={isLoadingSocials || hasNoSocials}
                aria-describedby={hasNoSocials ? noteId : undefined}
                onChange={(e) => onSocialChange(e.target.value ? Number(e.target.value) : null)}
              >
                <option value="">All Socials (Average)</option>
                {socials.map((social) => (
                  <option key={social.social_id} value={social.social_id}>
                    {socialOptionLabel(social)}
                  </option>
                ))}
              </select>
              {hasNoSocials && (
                <p id={noteId} className="text-base-content/60 text-sm">
                  No socials available for this event
                </p>
              )}
              {Boolean(socialsError) && (
                <p role="alert" className="text-error text-sm">
                  {errorMessage(socialsError)}
                </p>
              )}
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
