import type { ScrapedEvent } from '@wcs/contract';
import { Check, ExternalLink, GitMerge, MapPin, Plus, X } from 'lucide-react';
import { useId } from 'react';
import { Badge } from '../../components/badge';
import { DateRange } from '../../components/date-only';
import { useCan } from '../../lib/session';
import type { ReviewActionKind } from './queries';
import { canReview, percent, reviewTag } from './review-state';

interface ScrapedEventCardProps {
  event: ScrapedEvent;
  onAction: (kind: ReviewActionKind) => void;
}

/** One scraped event: what was scraped, what it may duplicate, and the review actions. */
export function ScrapedEventCard({ event, onAction }: ScrapedEventCardProps) {
  const tag = reviewTag(event);
  const headingId = useId();
  const hasDuplicates = event.potential_duplicates.length > 0;
  // Creating an event and the other decisions need the dj role (a viewer reads the queue only).
  const canCreate = useCan('createFromScraped');
  const canDecide = useCan('reviewScraped');

  return (
    <article aria-labelledby={headingId} className={`card border-l-4 bg-base-100 shadow ${tag.borderClass}`}>
      <div className="card-body gap-3">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h3 id={headingId} className="card-title text-lg">
            {event.event_name}
          </h3>
          <div className="flex items-center gap-2">
            {event.has_songs && (
              <Badge tone="primary" size="sm" isOutline>
                Has songs
              </Badge>
            )}
            <Badge tone={tag.tone}>{tag.label}</Badge>
          </div>
        </div>

        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-base-content/60">Date text</dt>
          <dd className="font-mono">{event.date_text}</dd>
          <dt className="text-base-content/60">Dates</dt>
          <dd>
            {event.start_date ? (
              <DateRange start={event.start_date} end={event.end_date} />
            ) : (
              <span className="text-warning">Date could not be parsed</span>
            )}
          </dd>
          <dt className="text-base-content/60">Location</dt>
          <dd className="flex items-center gap-1">
            <MapPin className="size-3" aria-hidden="true" />
            {event.location ?? 'Unknown'}
          </dd>
          <dt className="text-base-content/60">Country</dt>
          <dd>
            {event.country_code ?? 'Unknown'}
            {event.continent && <span className="text-base-content/60"> · {event.continent}</span>}
          </dd>
          {event.url && (
            <>
              <dt className="text-base-content/60">Source</dt>
              <dd>
                <a
                  href={event.url}
                  target="_blank"
                  rel="noreferrer"
                  className="link inline-flex items-center gap-1"
                >
                  Event page
                  <ExternalLink className="size-3" aria-hidden="true" />
                </a>
              </dd>
            </>
          )}
        </dl>

        {hasDuplicates && (
          <section aria-label="Potential duplicates" className="rounded-box bg-warning/10 p-3">
            <h4 className="mb-1 font-medium text-sm">Potential duplicates</h4>
            <ul className="space-y-1 text-sm">
              {event.potential_duplicates.map((duplicate) => (
                <li key={duplicate.event_id} className="flex flex-wrap justify-between gap-2">
                  <span>{duplicate.event_name}</span>
                  <span className="text-base-content/70">
                    {percent(duplicate.overall_score)} similar · {duplicate.date_difference_days}{' '}
                    {duplicate.date_difference_days === 1 ? 'day' : 'days'} apart
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}

        {event.reviewed_notes && (
          <p className="rounded-box bg-base-200 p-2 text-sm">
            <span className="font-medium">Reviewer notes: </span>
            {event.reviewed_notes}
          </p>
        )}

        {canCreate && canDecide && canReview(event) && (
          <div className="card-actions">
            <button type="button" className="btn btn-primary btn-sm" onClick={() => onAction('create')}>
              <Plus className="size-4" aria-hidden="true" />
              Create Event
            </button>
            <button type="button" className="btn btn-success btn-sm" onClick={() => onAction('approved')}>
              <Check className="size-4" aria-hidden="true" />
              Approve
            </button>
            {hasDuplicates && (
              <button type="button" className="btn btn-warning btn-sm" onClick={() => onAction('merged')}>
                <GitMerge className="size-4" aria-hidden="true" />
                Merge
              </button>
            )}
            <button
              type="button"
              className="btn btn-error btn-outline btn-sm"
              onClick={() => onAction('rejected')}
            >
              <X className="size-4" aria-hidden="true" />
              Reject
            </button>
          </div>
        )}
      </div>
    </article>
  );
}
