import { expect, test } from './fixtures.js';
import { AnalyticsPage, PROGRESSIONS } from './pages/analytics-page.js';
import {
  type ApiEventRow,
  type ApiList,
  createEvent,
  deleteEvent,
  expectChartFor,
  getJson,
  readResponse,
  trackPageErrors,
  uniqueName,
  waitForApi,
} from './pages/library-api.js';

interface ProgressionRow {
  time_window: string;
  [field: string]: string | number | null;
}

let pageErrors: Error[] = [];
test.beforeEach(({ page }) => {
  pageErrors = trackPageErrors(page);
});
test.afterEach(() => {
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

test('every chart shows what the server answers, over all events', async ({ page }) => {
  const analytics = new AnalyticsPage(page);
  const answers = PROGRESSIONS.map((chart) =>
    waitForApi(page, chart.path, { event_id: null, social_id: null }),
  );
  const genres = waitForApi(page, '/api/analytics/genre-distribution', { event_id: null });
  const windows = waitForApi(page, '/api/analytics/time-window-characteristics');
  await analytics.goto();

  await expect(analytics.eventSelect).toHaveValue('');
  await expect(analytics.eventSelect.locator('option:checked')).toHaveText('All Events (Average)');
  await expect(analytics.socialSelect).toHaveCount(0);

  for (const [index, chart] of PROGRESSIONS.entries()) {
    const answer = await readResponse<ApiList<ProgressionRow>>(await answers[index]!);
    const isEmpty = !answer.ok || answer.body.data.every((row) => row[chart.field] === null);
    await expectChartFor(analytics.chart(chart.title), answer, isEmpty, chart.empty);
  }

  const genreAnswer = await readResponse<ApiList<{ play_count: number }>>(await genres);
  const hasGenres = genreAnswer.ok && genreAnswer.body.data.some((row) => row.play_count > 0);
  await expectChartFor(analytics.genreDistribution, genreAnswer, !hasGenres, 'No genre data available');
  if (hasGenres) await expect(analytics.genreDistribution.locator('.recharts-wrapper')).toHaveCount(2);

  const windowAnswer = await readResponse<ApiList<ProgressionRow & { play_count: number }>>(await windows);
  if (!windowAnswer.ok) {
    await expect(analytics.timeWindowTable.getByRole('alert')).toContainText(windowAnswer.message);
  } else if (windowAnswer.body.data.length === 0) {
    await expect(analytics.timeWindowTable.getByText('No time window data available')).toBeVisible();
  } else {
    const table = analytics.timeWindowTable.getByRole('table');
    await expect(table.getByRole('columnheader')).toHaveText([
      'Time',
      'Plays',
      'Avg BPM',
      'Avg Energy',
      'Avg Valence',
      'Avg Dance',
      'Top Genre',
    ]);
    await expect(table.getByRole('row')).toHaveCount(windowAnswer.body.data.length + 1);
    for (const row of windowAnswer.body.data) {
      const tableRow = table
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: row.time_window }) });
      await expect(tableRow.getByRole('cell').first()).toHaveText(String(row.play_count));
      const energy = row.avg_energy === null ? '-' : `${(Number(row.avg_energy) / 10).toFixed(1)}%`;
      await expect(tableRow.getByRole('cell').nth(2)).toHaveText(energy);
    }
  }
});

test.describe('an event chosen by URL', () => {
  let event: ApiEventRow;
  test.beforeEach(async ({ request }) => {
    event = await createEvent(request, uniqueName('Analytics URL Party'));
  });
  test.afterEach(async ({ request }) => {
    await deleteEvent(request, event.event_id);
  });

  test('eventId preselects the event, is kept in the URL and filters every chart', async ({ page }) => {
    const analytics = new AnalyticsPage(page);
    const bpm = waitForApi(page, '/api/analytics/bpm-progression', { event_id: String(event.event_id) });
    const genres = waitForApi(page, '/api/analytics/genre-distribution', {
      event_id: String(event.event_id),
    });
    await analytics.goto(`?eventId=${event.event_id}`);

    await expect(analytics.eventSelect).toHaveValue(String(event.event_id));
    const [year, month, day] = event.start_date.split('-');
    await expect(analytics.eventSelect.locator('option:checked')).toHaveText(
      `${event.event_name} (${day}.${month}.${year})`,
    );
    await bpm;
    await genres;
    // A new event has no nights yet: the social select is disabled with the note.
    await expect(analytics.socialSelect).toBeVisible();
    await expect(analytics.socialSelect).toBeDisabled();
    await expect(analytics.socialSelect.locator('option:checked')).toHaveText('All Socials (Average)');
    await expect(analytics.filterCard.getByText('No socials available for this event')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`[?&]eventId=${event.event_id}(&|$)`));

    // Back to all events: the parameter goes, and so does the social select.
    const allBpm = waitForApi(page, '/api/analytics/bpm-progression', { event_id: null });
    await analytics.eventSelect.selectOption('');
    await allBpm;
    await expect(page).not.toHaveURL(/eventId=/);
    await expect(analytics.socialSelect).toHaveCount(0);

    // Choosing it again writes the parameter.
    await analytics.eventSelect.selectOption(String(event.event_id));
    await expect(page).toHaveURL(new RegExp(`[?&]eventId=${event.event_id}(&|$)`));
  });

  test('a socialId that is not a night of the event is dropped', async ({ page }) => {
    const analytics = new AnalyticsPage(page);
    await analytics.goto(`?eventId=${event.event_id}&socialId=987654`);
    await expect(analytics.eventSelect).toHaveValue(String(event.event_id));
    await expect(page).not.toHaveURL(/socialId=/);
    await expect(page).toHaveURL(new RegExp(`eventId=${event.event_id}`));
  });

  test('socials are compared within the chosen event', async ({ page }) => {
    const analytics = new AnalyticsPage(page);
    await analytics.goto(`?eventId=${event.event_id}`);
    await analytics.socialsRadio.check();
    await expect(analytics.comparison.getByText('No socials available for this event')).toBeVisible();
    await expect(analytics.compareButton).toHaveText('Select at least 2 events/socials');
    await expect(analytics.compareButton).toBeDisabled();
  });
});

test.describe('the comparison tool', () => {
  const events: ApiEventRow[] = [];
  test.beforeAll(async ({ request }) => {
    const prefix = uniqueName('Compare');
    for (let index = 1; index <= 6; index++) events.push(await createEvent(request, `${prefix} ${index}`));
  });
  test.afterAll(async ({ request }) => {
    for (const event of events) await deleteEvent(request, event.event_id);
  });

  test('2 to 5 events: the button counts them and the sixth box is disabled', async ({ page, request }) => {
    const analytics = new AnalyticsPage(page);
    await analytics.goto();
    await expect(analytics.eventsRadio).toBeChecked();
    await expect(analytics.compareButton).toHaveText('Select at least 2 events/socials');
    await expect(analytics.compareButton).toBeDisabled();

    const [first, second, third, fourth, fifth, sixth] = events.map((event) =>
      analytics.comparisonOption(event.event_name),
    );
    await first!.check();
    await expect(analytics.compareButton).toHaveText('Select at least 2 events/socials');
    await expect(analytics.compareButton).toBeDisabled();
    await second!.check();
    await expect(analytics.compareButton).toHaveText('Compare 2 Events');
    await expect(analytics.compareButton).toBeEnabled();
    await third!.check();
    await fourth!.check();
    await fifth!.check();
    await expect(analytics.compareButton).toHaveText('Compare 5 Events');
    await expect(sixth!).toBeDisabled();
    await expect(analytics.comparison.getByRole('checkbox', { checked: false, disabled: false })).toHaveCount(
      0,
    );
    await fifth!.uncheck();
    await expect(sixth!).toBeEnabled();
    await expect(analytics.compareButton).toHaveText('Compare 4 Events');
    await fifth!.check();

    // Results appear only after pressing Compare.
    await expect(analytics.comparisonResults).toHaveCount(0);
    const ids = events.slice(0, 5).map((event) => event.event_id);
    const compared = waitForApi(page, '/api/analytics/compare', { comparison_type: 'event' });
    await analytics.compareButton.click();
    const response = await compared;
    expect(new URL(response.url()).searchParams.getAll('ids').map(Number)).toEqual(ids);
    const answer = await readResponse<{ entities: { name: string }[] }>(response);
    await expect(analytics.comparisonResults).toBeVisible();
    if (!answer.ok) {
      await expect(analytics.comparisonResults.getByRole('alert')).toContainText(answer.message);
    } else {
      for (const title of [
        'BPM Progression Comparison',
        'Energy Progression Comparison',
        'Valence Progression Comparison',
        'Danceability Progression Comparison',
      ]) {
        await expect(analytics.comparisonResults.getByRole('region', { name: title })).toBeVisible();
      }
      for (const entity of answer.body.entities) {
        await expect(
          analytics.comparisonResults.getByRole('region', { name: `Genre Distribution: ${entity.name}` }),
        ).toBeVisible();
      }
      // The same answer as asking the server directly.
      const direct = await getJson<{ entities: { name: string }[] }>(
        request,
        `/api/analytics/compare?comparison_type=event&${ids.map((id) => `ids=${id}`).join('&')}`,
      );
      expect(direct.body.entities.map((e) => e.name)).toEqual(answer.body.entities.map((e) => e.name));
    }
  });

  test('switching to socials clears the selection and asks for an event first', async ({ page }) => {
    const analytics = new AnalyticsPage(page);
    await analytics.goto();
    await analytics.comparisonOption(events[0]!.event_name).check();
    await analytics.comparisonOption(events[1]!.event_name).check();
    await expect(analytics.compareButton).toHaveText('Compare 2 Events');

    await analytics.socialsRadio.check();
    await expect(
      analytics.comparison.getByText('Select an event above first to see available socials'),
    ).toBeVisible();
    await expect(analytics.compareButton).toHaveText('Select at least 2 events/socials');
    await expect(analytics.compareButton).toBeDisabled();

    await analytics.eventsRadio.check();
    await expect(analytics.comparison.getByRole('checkbox', { checked: true })).toHaveCount(0);
    await expect(analytics.compareButton).toHaveText('Select at least 2 events/socials');
  });
});

test('choosing a night of an event filters the charts by it and writes socialId', async ({
  page,
  request,
}) => {
  const events = await getJson<ApiList<ApiEventRow>>(request, '/api/events/?limit=100');
  let found: { event: ApiEventRow; social: { social_id: number; social_name: string } } | null = null;
  for (const event of events.body.data) {
    const socials = await getJson<ApiList<{ social_id: number; social_name: string }>>(
      request,
      `/api/events/${event.event_id}/socials`,
    );
    const social = socials.body.data[0];
    if (social) {
      found = { event, social };
      break;
    }
  }
  test.skip(found === null, 'No event has socials: they come from recordings or demo data (wcs demo seed).');
  const { event, social } = found!;
  const analytics = new AnalyticsPage(page);
  await analytics.goto(`?eventId=${event.event_id}`);
  await expect(analytics.socialSelect).toBeEnabled();
  await expect(analytics.filterCard.getByText('No socials available for this event')).toHaveCount(0);

  const bpm = waitForApi(page, '/api/analytics/bpm-progression', {
    event_id: String(event.event_id),
    social_id: String(social.social_id),
  });
  await analytics.socialSelect.selectOption(String(social.social_id));
  await bpm;
  await expect(page).toHaveURL(new RegExp(`socialId=${social.social_id}`));

  // A reload keeps both choices.
  await page.reload();
  await expect(analytics.eventSelect).toHaveValue(String(event.event_id));
  await expect(analytics.socialSelect).toHaveValue(String(social.social_id));
});
