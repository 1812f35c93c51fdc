import type { ScrapedEvent } from '@wcs/contract';
import { REVIEW_PAGE_SIZE } from '@wcs/contract';
import { ClipboardCheck, Copy, FilterX } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { EmptyState } from '../../components/empty-state';
import { ErrorCard } from '../../components/error-card';
import { Loading } from '../../components/loading';
import { Pagination, pageCountOf } from '../../components/pagination';
import { errorMessage } from '../../lib/api';
import { useCan } from '../../lib/session';
import {
  type ReviewActionKind,
  useBatchDetectDuplicates,
  useFilterOptions,
  useScrapedEvents,
} from './queries';
import { ReviewActionDialog } from './review-action-dialog';
import { DEFAULT_FILTERS, hasActiveFilters, type ReviewFilters } from './review-state';
import { ScrapedEventCard } from './scraped-event-card';

/** /events/review: the review queue of events scraped from the dance-community calendar. */
export function EventReviewPage() {
  const [filters, setFilters] = useState<ReviewFilters>(DEFAULT_FILTERS);
  const [page, setPage] = useState(1);
  const [action, setAction] = useState<{ kind: ReviewActionKind; event: ScrapedEvent } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const events = useScrapedEvents(filters, page);
  const options = useFilterOptions();
  const batch = useBatchDetectDuplicates();
  const canDetect = useCan('batchDetectDuplicates');

  const setFilter = <K extends keyof ReviewFilters>(key: K, value: ReviewFilters[K]) => {
    setFilters((previous) => ({ ...previous, [key]: value }));
    setPage(1);
  };

  const total = events.data?.total ?? 0;
  const pageCount = pageCountOf(total, REVIEW_PAGE_SIZE);
  const list = events.data?.events ?? [];

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="font-bold text-2xl">Event Review</h2>
          <p className="text-base-content/70">
            Events scraped from the dance-community calendar, waiting for a decision
          </p>
        </div>
        {canDetect && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => {
              setNotice(null);
              batch.mutate();
            }}
            disabled={batch.isPending}
          >
            {batch.isPending ? (
              <span className="loading loading-spinner loading-xs" aria-hidden="true" />
            ) : (
              <Copy className="size-4" aria-hidden="true" />
            )}
            Batch Detect Duplicates
          </button>
        )}
      </header>

      {batch.isSuccess && (
        <div role="status" className="alert alert-info alert-soft">
          Checked {batch.data.processed} {batch.data.processed === 1 ? 'event' : 'events'}: found{' '}
          {batch.data.total_duplicates_found} potential{' '}
          {batch.data.total_duplicates_found === 1 ? 'duplicate' : 'duplicates'} in{' '}
          {batch.data.events_with_duplicates} {batch.data.events_with_duplicates === 1 ? 'event' : 'events'}.
        </div>
      )}
      {batch.isError && (
        <div role="alert" className="alert alert-error alert-soft">
          {errorMessage(batch.error)}
        </div>
      )}
      {notice && (
        <div role="status" className="alert alert-success alert-soft">
          <span className="flex-1">{notice}</span>
          <button type="button" className="btn btn-ghost btn-xs" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </div>
      )}

      <section aria-label="Filters" className="card bg-base-100 shadow">
        <div className="card-body gap-3">
          <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
            <FilterSelect label="Year" value={filters.year} onChange={(value) => setFilter('year', value)}>
              <option value="">All years</option>
              {options.data?.years.map((year) => (
                <option key={year} value={year}>
                  {year}
                </option>
              ))}
            </FilterSelect>
            <FilterSelect
              label="Continent"
              value={filters.continent}
              onChange={(value) => setFilter('continent', value)}
            >
              <option value="">All continents</option>
              {options.data?.continents.map((continent) => (
                <option key={continent.name} value={continent.name}>
                  {continent.name} ({continent.count})
                </option>
              ))}
            </FilterSelect>
            <FilterSelect
              label="Country"
              value={filters.country}
              onChange={(value) => setFilter('country', value)}
            >
              <option value="">All countries</option>
              {options.data?.countries.map((country) => (
                <option key={country.code} value={country.code}>
                  {country.code} ({country.count})
                </option>
              ))}
            </FilterSelect>
            <FilterSelect
              label="Status"
              value={filters.status}
              onChange={(value) => setFilter('status', value as ReviewFilters['status'])}
            >
              <option value="all">All</option>
              <option value="unreviewed">Unreviewed</option>
              <option value="reviewed">Reviewed</option>
            </FilterSelect>
            <FilterSelect
              label="Duplicates"
              value={filters.duplicates}
              onChange={(value) => setFilter('duplicates', value as ReviewFilters['duplicates'])}
            >
              <option value="all">All</option>
              <option value="yes">With duplicates</option>
              <option value="no">Without duplicates</option>
            </FilterSelect>
            <FilterSelect
              label="Has Songs"
              value={filters.hasSongs}
              onChange={(value) => setFilter('hasSongs', value as ReviewFilters['hasSongs'])}
            >
              <option value="all">All</option>
              <option value="yes">With songs</option>
              <option value="no">Without songs</option>
            </FilterSelect>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-base-content/70 text-sm">
              {events.data ? `${total} ${total === 1 ? 'event' : 'events'}` : ''}
            </p>
            <button
              type="button"
              className="btn btn-link btn-sm"
              onClick={() => {
                setFilters(DEFAULT_FILTERS);
                setPage(1);
              }}
              disabled={!hasActiveFilters(filters)}
            >
              <FilterX className="size-4" aria-hidden="true" />
              Clear all filters
            </button>
          </div>
          {options.isError && (
            <p className="text-error text-sm">Filter options unavailable: {errorMessage(options.error)}</p>
          )}
        </div>
      </section>

      {events.isPending ? (
        <Loading label="Loading scraped events..." />
      ) : events.isError ? (
        <ErrorCard
          title="Failed to load scraped events"
          message={errorMessage(events.error)}
          onRetry={() => void events.refetch()}
          isRetrying={events.isFetching}
        />
      ) : list.length === 0 ? (
        <div className="card bg-base-100 shadow">
          <EmptyState icon={ClipboardCheck} title="No events found matching your filters." />
        </div>
      ) : (
        <>
          <div className="space-y-4" aria-busy={events.isFetching}>
            {list.map((event) => (
              <ScrapedEventCard
                key={event.id}
                event={event}
                onAction={(kind) => setAction({ kind, event })}
              />
            ))}
          </div>
          <Pagination
            page={page}
            pageCount={pageCount}
            onPageChange={setPage}
            isDisabled={events.isFetching}
          />
        </>
      )}

      <ReviewActionDialog
        action={action}
        onClose={() => setAction(null)}
        onDone={(summary) => {
          setAction(null);
          setNotice(summary);
        }}
      />
    </div>
  );
}

function FilterSelect({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="label-text mb-1 block text-sm">
        {label}
      </label>
      <select
        id={id}
        className="select select-bordered select-sm w-full"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {children}
      </select>
    </div>
  );
}
