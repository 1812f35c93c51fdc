import { useDeferredValue, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { listItems } from '../../lib/api';
import { idParam } from '../../lib/url-params';
import { ComparisonTool } from './comparison-tool';
import { FilterCard } from './filter-card';
import { GenreDistribution } from './genre-distribution';
import { ProgressionCharts } from './progression-charts';
import { type AnalyticsFilter, useEventOptions, useSocials } from './queries';
import { TimeWindowTable } from './time-window-table';

export function AnalyticsPage() {
  // eventId and socialId live in the URL: links from Events preselect them, and they survive a reload.
  const [searchParams, setSearchParams] = useSearchParams();
  const eventId = idParam(searchParams.get('eventId'));
  const socialId = eventId === null ? null : idParam(searchParams.get('socialId'));

  const eventsQuery = useEventOptions();
  const socialsQuery = useSocials(eventId);
  const events = useMemo(() => listItems(eventsQuery.data), [eventsQuery.data]);
  // Hundreds of events fill the event select and the comparison list: they render after the
  // charts, in the background and in slices, not in the one task that draws the arriving answers
  // (the select stays disabled until its options are in).
  const listedEvents = useDeferredValue(events);
  const isListingEvents = eventsQuery.isPending || listedEvents !== events;
  const socials = eventId === null ? [] : listItems(socialsQuery.data);

  const updateParams = (next: { eventId: number | null; socialId: number | null }) => {
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (next.eventId === null) params.delete('eventId');
        else params.set('eventId', String(next.eventId));
        if (next.socialId === null) params.delete('socialId');
        else params.set('socialId', String(next.socialId));
        return params;
      },
      { replace: true },
    );
  };

  // A socialId that is not a night of the chosen event is dropped, so the charts match the selects.
  const isUnknownSocial =
    socialId !== null && socialsQuery.isSuccess && !socials.some((social) => social.social_id === socialId);
  useEffect(() => {
    if (!isUnknownSocial) return;
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        params.delete('socialId');
        return params;
      },
      { replace: true },
    );
  }, [isUnknownSocial, setSearchParams]);

  const filterSocialId = socialId !== null && !isUnknownSocial ? socialId : null;
  const filter: AnalyticsFilter = useMemo(
    () => ({
      ...(eventId !== null ? { event_id: eventId } : {}),
      ...(filterSocialId !== null ? { social_id: filterSocialId } : {}),
    }),
    [eventId, filterSocialId],
  );
  // The same elements while the filter stays: the event list or the nights arriving re-render the
  // filter and the comparison tool, not every chart and the table (one synchronous render less).
  const filteredSections = useMemo(
    () => (
      <>
        <ProgressionCharts filter={filter} />
        <GenreDistribution filter={filter} />
        <TimeWindowTable />
      </>
    ),
    [filter],
  );

  return (
    <div className="space-y-6">
      <div>
        <h2 className="font-bold text-2xl">Analytics</h2>
        <p className="text-base-content/70">How the music moves through the night, by time window</p>
      </div>

      <FilterCard
        events={listedEvents}
        isLoadingEvents={isListingEvents}
        eventsError={eventsQuery.error}
        eventId={eventId}
        socialId={isUnknownSocial ? null : socialId}
        socials={socials}
        isLoadingSocials={eventId !== null && socialsQuery.isPending}
        socialsError={socialsQuery.error}
        onEventChange={(id) => updateParams({ eventId: id, socialId: null })}
        onSocialChange={(id) => updateParams({ eventId, socialId: id })}
      />

      {filteredSections}
      <ComparisonTool
        events={listedEvents}
        eventId={eventId}
        socials={socials}
        isLoadingSocials={eventId !== null && socialsQuery.isPending}
      />
    </div>
  );
}
