import { expect, test } from './fixtures.js';
import { EventInsightsPage, METRIC_CARDS } from './pages/event-insights-page.js';
import {
  type ApiEventRow,
  type ApiList,
  createEvent,
  deleteEvent,
  getJson,
  readResponse,
  trackPageErrors,
  uniqueName,
  waitForApi,
} from './pages/library-api.js';

interface ApiEventSuccess {
  variety_score: number;
  total_plays: number;
  new_song_rate: number;
  event_name: string;
  energy_distribution: { balance_score: number; histogram: Record<string, number> };
  genre_balance: { score: number; genres: Record<string, number> };
}

let pageErrors: Error[] = [];
test.beforeEach(({ page }) => {
  pageErrors = trackPageErrors(page);
});
test.afterEach(() => {
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

test('with no event chosen it asks for one', async ({ page }) => {
  const insights = new EventInsightsPage(page);
  await insights.goto();
  await expect(insights.heading).toBeVisible();
  await expect(insights.eventSelect).toHaveValue('');
  await expect(insights.eventSelect.locator('option').first()).toHaveText('Select an event...');
  await expect(insights.noneChosen).toBeVisible();
  for (const label of METRIC_CARDS) await expect(insights.card(label)).toHaveCount(0);
});

test.describe('an event chosen', () => {
  let event: ApiEventRow;
  test.beforeEach(async ({ request }) => {
    event = await createEvent(request, uniqueName('Insights Party'));
  });
  test.afterEach(async ({ request }) => {
    await deleteEvent(request, event.event_id);
  });

  test("shows the four cards and three charts of the server's metrics", async ({ page }) => {
    const insights = new EventInsightsPage(page);
    await insights.goto();
    await expect(
      insights.eventSelect.getByRole('option', { name: new RegExp(event.event_name) }),
    ).toHaveCount(1);

    const metrics = waitForApi(page, `/api/analytics/event-success/${event.event_id}`);
    await insights.eventSelect.selectOption(String(event.event_id));
    const answer = await readResponse<ApiEventSuccess>(await metrics);
    await expect(insights.noneChosen).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`eventId=${event.event_id}`));

    if (!answer.ok) {
      await expect(page.getByRole('main').getByRole('alert')).toContainText(answer.message);
      return;
    }
    const scores = {
      'Variety Score': answer.body.variety_score,
      'Energy Balance': answer.body.energy_distribution.balance_score,
      'Genre Balance': answer.body.genre_balance.score,
      'New Song Rate': answer.body.new_song_rate,
    };
    for (const label of METRIC_CARDS) {
      await expect(insights.card(label)).toContainText(`${scores[label].toFixed(1)}%`);
    }
    const hasPlays = answer.body.total_plays > 0;
    for (const title of ['Overall Event Quality', 'Energy Distribution', 'Genre Distribution']) {
      const chart = insights.chart(title);
      await expect(chart).toBeVisible();
      if (!hasPlays) await expect(chart.getByText(/^No .+ data available$/)).toBeVisible();
    }
  });

  test('an eventId in the URL chooses the event', async ({ page }) => {
    const insights = new EventInsightsPage(page);
    const metrics = waitForApi(page, `/api/analytics/event-success/${event.event_id}`);
    await insights.goto(`?eventId=${event.event_id}`);
    await metrics;
    await expect(insights.eventSelect).toHaveValue(String(event.event_id));
    await expect(insights.noneChosen).toBeHidden();
    await insights.eventSelect.selectOption('');
    await expect(insights.noneChosen).toBeVisible();
    await expect(page).not.toHaveURL(/eventId=/);
  });
});

test('an event with plays gets a verdict on each card and drawn charts', async ({ page, request }) => {
  const events = await getJson<ApiList<ApiEventRow>>(request, '/api/events/?limit=60');
  let found: { event: ApiEventRow; metrics: ApiEventSuccess } | null = null;
  for (const event of events.body.data) {
    const metrics = await getJson<ApiEventSuccess>(request, `/api/analytics/event-success/${event.event_id}`);
    if (metrics.ok && metrics.body.total_plays > 0) {
      found = { event, metrics: metrics.body };
      break;
    }
  }
  test.skip(found === null, 'No event with plays: plays come from recordings or demo data (wcs demo seed).');
  const { event, metrics } = found!;
  const insights = new EventInsightsPage(page);
  await insights.goto(`?eventId=${event.event_id}`);

  const variety =
    metrics.variety_score >= 70
      ? 'Excellent variety'
      : metrics.variety_score >= 50
        ? 'Good variety'
        : 'Repetitive set';
  await expect(insights.card('Variety Score')).toContainText(variety);
  const energy = metrics.energy_distribution.balance_score;
  await expect(insights.card('Energy Balance')).toContainText(
    energy >= 60 ? 'Well balanced' : energy >= 40 ? 'Somewhat balanced' : 'Narrow energy range',
  );
  const genre = metrics.genre_balance.score;
  await expect(insights.card('Genre Balance')).toContainText(
    genre >= 70 ? 'Well balanced' : genre >= 50 ? 'Somewhat balanced' : 'Dominated by few genres',
  );
  const rate = metrics.new_song_rate;
  await expect(insights.card('New Song Rate')).toContainText(
    rate >= 30 ? 'Great mix of new music' : rate >= 15 ? 'Moderate new music' : 'Few new songs',
  );
  for (const title of ['Overall Event Quality', 'Energy Distribution', 'Genre Distribution']) {
    await expect(insights.chart(title).locator('svg.recharts-surface').first()).toBeVisible();
  }
  // One bar per genre played.
  const genres = Object.values(metrics.genre_balance.genres).filter((count) => count > 0).length;
  await expect(insights.chart('Genre Distribution').locator('.recharts-bar-rectangle')).toHaveCount(genres);
});
