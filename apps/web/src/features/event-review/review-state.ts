import { REVIEW_PAGE_SIZE, type ScrapedEvent } from '@wcs/contract';
import type { BadgeTone } from '../../components/badge';

export type StatusFilter = 'all' | 'unreviewed' | 'reviewed';
export type PresenceFilter = 'all' | 'yes' | 'no';

export interface ReviewFilters {
  year: string;
  continent: string;
  country: string;
  status: StatusFilter;
  duplicates: PresenceFilter;
  hasSongs: PresenceFilter;
}

/** The screen opens on the unreviewed events, nothing else filtered. */
export const DEFAULT_FILTERS: ReviewFilters = {
  year: '',
  continent: '',
  country: '',
  status: 'unreviewed',
  duplicates: 'all',
  hasSongs: 'all',
};

export function hasActiveFilters(filters: ReviewFilters): boolean {
  return (Object.keys(DEFAULT_FILTERS) as (keyof ReviewFilters)[]).some(
    (key) => filters[key] !== DEFAULT_FILTERS[key],
  );
}

/** The GET /scraper/events query of a filter set and a 1-based page. */
export function listQuery(filters: ReviewFilters, page: number) {
  const presence = (value: PresenceFilter) =>
    value === 'all' ? undefined : value === 'yes' ? 'true' : 'false';
  return {
    skip: (page - 1) * REVIEW_PAGE_SIZE,
    limit: REVIEW_PAGE_SIZE,
    year: filters.year ? Number(filters.year) : undefined,
    continent: filters.continent || undefined,
    country_code: filters.country || undefined,
    is_reviewed: filters.status === 'all' ? undefined : filters.status === 'reviewed' ? 'true' : 'false',
    has_duplicates: presence(filters.duplicates),
    has_songs: presence(filters.hasSongs),
  };
}

export interface ReviewTag {
  label: string;
  tone: BadgeTone;
  /** Left border colour of the card. */
  borderClass: string;
}

/**
 * docs/product.md "Event review": green approved, red rejected, grey any other action, amber unreviewed with potential
 * duplicates, blue unreviewed without.
 */
export function reviewTag(
  event: Pick<ScrapedEvent, 'is_reviewed' | 'reviewed_action' | 'potential_duplicates'>,
): ReviewTag {
  if (event.is_reviewed) {
    switch (event.reviewed_action) {
      case 'approved':
        return { label: 'Approved', tone: 'success', borderClass: 'border-l-success' };
      case 'rejected':
        return { label: 'Rejected', tone: 'error', borderClass: 'border-l-error' };
      case 'merged':
        return { label: 'Merged', tone: 'neutral', borderClass: 'border-l-neutral' };
      case 'created':
        return { label: 'Created', tone: 'neutral', borderClass: 'border-l-neutral' };
      default:
        return { label: 'Reviewed', tone: 'neutral', borderClass: 'border-l-neutral' };
    }
  }
  if (event.potential_duplicates.length > 0) {
    return { label: 'Unreviewed', tone: 'warning', borderClass: 'border-l-warning' };
  }
  return { label: 'Unreviewed', tone: 'info', borderClass: 'border-l-info' };
}

/** docs/product.md "Event review": review actions only for unreviewed events whose start date could be parsed. */
export function canReview(event: Pick<ScrapedEvent, 'is_reviewed' | 'start_date'>): boolean {
  return !event.is_reviewed && event.start_date !== null;
}

/** Create Event's overrides: only the fields the reviewer changed from the scraped values. */
export function changedOverrides(
  scraped: Pick<ScrapedEvent, 'event_name' | 'location'>,
  edited: { name: string; location: string },
): { override_name?: string; override_location?: string } {
  const name = edited.name.trim();
  const location = edited.location.trim();
  return {
    ...(name !== '' && name !== scraped.event_name.trim() ? { override_name: name } : {}),
    ...(location !== (scraped.location ?? '').trim() ? { override_location: location } : {}),
  };
}

/** 0-1 score as a whole percent: `0.873` → `87%`. */
export function percent(score: number): string {
  return `${Math.round(score * 100)}%`;
}
