import { describe, expect, it } from 'vitest';
import {
  canReview,
  changedOverrides,
  DEFAULT_FILTERS,
  hasActiveFilters,
  listQuery,
  percent,
  reviewTag,
} from './review-state';

const duplicate = {
  event_id: 1,
  event_name: 'Swing Fling',
  overall_score: 0.8,
  name_similarity: 0.9,
  date_difference_days: 2,
};

describe('reviewTag', () => {
  it('colours by state: green approved, red rejected, grey others', () => {
    expect(reviewTag({ is_reviewed: true, reviewed_action: 'approved', potential_duplicates: [] }).tone).toBe(
      'success',
    );
    expect(reviewTag({ is_reviewed: true, reviewed_action: 'rejected', potential_duplicates: [] }).tone).toBe(
      'error',
    );
    expect(
      reviewTag({ is_reviewed: true, reviewed_action: 'merged', potential_duplicates: [] }),
    ).toMatchObject({
      label: 'Merged',
      tone: 'neutral',
    });
    expect(reviewTag({ is_reviewed: true, reviewed_action: 'created', potential_duplicates: [] }).tone).toBe(
      'neutral',
    );
  });
  it('amber when unreviewed with duplicates, blue without', () => {
    expect(
      reviewTag({ is_reviewed: false, reviewed_action: null, potential_duplicates: [duplicate] }),
    ).toMatchObject({ label: 'Unreviewed', tone: 'warning', borderClass: 'border-l-warning' });
    expect(reviewTag({ is_reviewed: false, reviewed_action: null, potential_duplicates: [] })).toMatchObject({
      tone: 'info',
      borderClass: 'border-l-info',
    });
  });
});

describe('canReview', () => {
  it('needs an unreviewed event with a parsed start date', () => {
    expect(canReview({ is_reviewed: false, start_date: '2026-09-24' })).toBe(true);
    expect(canReview({ is_reviewed: false, start_date: null })).toBe(false);
    expect(canReview({ is_reviewed: true, start_date: '2026-09-24' })).toBe(false);
  });
});

describe('changedOverrides', () => {
  const scraped = { event_name: 'Swing Fling', location: 'Washington, DC' };
  it('sends nothing when nothing changed', () => {
    expect(changedOverrides(scraped, { name: ' Swing Fling ', location: 'Washington, DC' })).toEqual({});
  });
  it('sends only the changed fields', () => {
    expect(changedOverrides(scraped, { name: 'Swing Fling 2026', location: 'Washington, DC' })).toEqual({
      override_name: 'Swing Fling 2026',
    });
    expect(
      changedOverrides({ ...scraped, location: null }, { name: 'Swing Fling', location: 'Arlington' }),
    ).toEqual({
      override_location: 'Arlington',
    });
  });
  it('never sends an empty name', () => {
    expect(changedOverrides(scraped, { name: '  ', location: 'Washington, DC' })).toEqual({});
  });
});

describe('filters', () => {
  it('starts on unreviewed events, and counts any change as a filter', () => {
    expect(hasActiveFilters(DEFAULT_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_FILTERS, status: 'all' })).toBe(true);
    expect(hasActiveFilters({ ...DEFAULT_FILTERS, year: '2026' })).toBe(true);
  });
  it('turns filters and page into the list query, 20 per page', () => {
    expect(listQuery(DEFAULT_FILTERS, 1)).toEqual({
      skip: 0,
      limit: 20,
      year: undefined,
      continent: undefined,
      country_code: undefined,
      is_reviewed: 'false',
      has_duplicates: undefined,
      has_songs: undefined,
    });
    expect(
      listQuery(
        {
          year: '2026',
          continent: 'Europe',
          country: 'DE',
          status: 'reviewed',
          duplicates: 'yes',
          hasSongs: 'no',
        },
        3,
      ),
    ).toEqual({
      skip: 40,
      limit: 20,
      year: 2026,
      continent: 'Europe',
      country_code: 'DE',
      is_reviewed: 'true',
      has_duplicates: 'true',
      has_songs: 'false',
    });
  });
  it('shows scores as whole percent', () => {
    expect(percent(0.873)).toBe('87%');
  });
});
