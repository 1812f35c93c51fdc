import { expect, test } from './fixtures.js';
import { type ApiList, getJson, readResponse, trackPageErrors, waitForApi } from './pages/library-api.js';
import { OverplayPage } from './pages/overplay-page.js';

/**
 * Warnings and the fresh pool need songs with plays (library import and recordings, or demo data):
 * every assertion follows what the server answers, and the trend test skips without warnings.
 */

interface ApiWarning {
  song_id: number;
  title: string;
  artist: string;
  overplay_score: number;
  age_category: string | null;
}
interface ApiFreshPool extends ApiList<{ title: string }> {
  by_age_category: { new: number; mid: number; old: number };
}

let pageErrors: Error[] = [];
test.beforeEach(({ page }) => {
  pageErrors = trackPageErrors(page);
});
test.afterEach(() => {
  expect(pageErrors, 'uncaught errors in the page').toEqual([]);
});

function labelFor(score: number): string {
  if (score >= 90) return 'Critical';
  if (score >= 80) return 'High';
  return 'Warning';
}

test('the threshold slider: 50 to 100 in steps of 5, 70 by default, and the list follows it', async ({
  page,
}) => {
  const overplay = new OverplayPage(page);
  const initial = waitForApi(page, '/api/analytics/overplay-warnings', { threshold: '70', limit: '50' });
  await overplay.goto();
  await expect(overplay.heading).toBeVisible();
  await expect(overplay.slider).toHaveValue('70');
  await expect(overplay.slider).toHaveAttribute('min', '50');
  await expect(overplay.slider).toHaveAttribute('max', '100');
  await expect(overplay.slider).toHaveAttribute('step', '5');
  await expect(overplay.warnings.getByText('70%', { exact: true })).toBeVisible();

  const first = await readResponse<ApiList<ApiWarning>>(await initial);
  if (!first.ok) {
    await expect(overplay.warnings.getByRole('alert')).toContainText(first.message);
  } else if (first.body.data.length === 0) {
    await expect(
      overplay.warnings.getByText('No songs exceeding threshold of 70%', { exact: true }),
    ).toBeVisible();
  } else {
    await expect(overplay.warningList.getByRole('listitem')).toHaveCount(first.body.data.length);
    for (const song of first.body.data.slice(0, 5)) {
      const row = overplay.warningList.getByRole('listitem').filter({ hasText: song.title });
      await expect(row.first()).toContainText(labelFor(song.overplay_score));
      await expect(row.first()).toContainText(
        song.age_category ? song.age_category.toUpperCase() : 'Unknown',
      );
    }
  }

  // The keyboard moves it one step.
  const up = waitForApi(page, '/api/analytics/overplay-warnings', { threshold: '75' });
  await overplay.slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(overplay.slider).toHaveValue('75');
  const at75 = await readResponse<ApiList<ApiWarning>>(await up);
  if (at75.ok && at75.body.data.length === 0) {
    await expect(
      overplay.warnings.getByText('No songs exceeding threshold of 75%', { exact: true }),
    ).toBeVisible();
  }

  // And the ends of its range.
  const top = waitForApi(page, '/api/analytics/overplay-warnings', { threshold: '100' });
  await page.keyboard.press('End');
  await expect(overplay.slider).toHaveValue('100');
  await top;
  await page.keyboard.press('Home');
  await expect(overplay.slider).toHaveValue('50');
  await overplay.slider.fill('85');
  await expect(overplay.slider).toHaveValue('85');
  await expect(overplay.warnings.getByText('85%', { exact: true })).toBeVisible();
});

test('the fresh songs pool: tiles and list follow its filters', async ({ page, request }) => {
  const overplay = new OverplayPage(page);
  const initial = waitForApi(page, '/api/analytics/fresh-songs-pool', { limit: '100' });
  await overplay.goto();
  const first = await readResponse<ApiFreshPool>(await initial);
  await expect(overplay.ageFilter.getByRole('option')).toHaveText(['All ages', 'NEW', 'MID', 'OLD']);
  await expect(overplay.genreFilter.getByRole('option')).toHaveText([
    'All genres',
    'Acoustic',
    'Hip-Hop/R&B',
    'Pop',
    'Contemporary',
    'Blues/Jazz',
  ]);

  if (!first.ok) {
    await expect(overplay.freshPool.getByRole('alert')).toContainText(first.message);
  } else {
    await expect(overplay.tileValue(overplay.freshPool, 'Total Fresh Songs')).toHaveText(
      String(first.body.total),
    );
    await expect(overplay.tileValue(overplay.freshPool, 'New')).toHaveText(
      String(first.body.by_age_category.new),
    );
    await expect(overplay.tileValue(overplay.freshPool, 'Mid')).toHaveText(
      String(first.body.by_age_category.mid),
    );
    await expect(overplay.tileValue(overplay.freshPool, 'Old')).toHaveText(
      String(first.body.by_age_category.old),
    );
    if (first.body.data.length === 0) {
      await expect(
        overplay.freshPool.getByText('No fresh songs available with current filters'),
      ).toBeVisible();
    } else {
      await expect(overplay.freshList.getByRole('listitem')).toHaveCount(first.body.data.length);
      await expect(overplay.freshList.getByText('Fresh', { exact: true })).toHaveCount(
        first.body.data.length,
      );
    }
  }

  const filtered = waitForApi(page, '/api/analytics/fresh-songs-pool', { age_category: 'new', genre: 'Pop' });
  await overplay.ageFilter.selectOption('new');
  await overplay.genreFilter.selectOption('Pop');
  const answer = await readResponse<ApiFreshPool>(await filtered);
  const direct = await getJson<ApiFreshPool>(
    request,
    '/api/analytics/fresh-songs-pool?age_category=new&genre=Pop&limit=100',
  );
  expect(answer.status).toBe(direct.status);
  if (answer.ok) {
    await expect(overplay.tileValue(overplay.freshPool, 'Total Fresh Songs')).toHaveText(
      String(direct.body.total),
    );
    if (direct.body.data.length === 0) {
      await expect(
        overplay.freshPool.getByText('No fresh songs available with current filters'),
      ).toBeVisible();
    }
  } else {
    await expect(overplay.freshPool.getByRole('alert')).toContainText(answer.message);
  }
});

test('a warned song shows its monthly plays with score and total', async ({ page, request }) => {
  const warnings = await getJson<ApiList<ApiWarning>>(
    request,
    '/api/analytics/overplay-warnings?threshold=70&limit=50',
  );
  test.skip(
    !warnings.ok || warnings.body.data.length === 0,
    'No song reaches the default threshold: overplay scores need plays (recordings or demo data).',
  );
  const song = warnings.body.data[0]!;
  const overplay = new OverplayPage(page);
  await overplay.goto();
  await expect(overplay.trend.getByText('Select a song to see its monthly plays')).toBeVisible();

  const trend = waitForApi(page, `/api/analytics/overplay-trend/${song.song_id}`);
  await overplay.warningList
    .getByRole('button', { name: new RegExp(song.title) })
    .first()
    .click();
  const answer = await readResponse<{ current_overplay_score: number; total_plays: number }>(await trend);
  expect(answer.ok, answer.message).toBe(true);
  await expect(overplay.tileValue(overplay.trend, 'Total Plays')).toHaveText(String(answer.body.total_plays));
  await expect(overplay.tileValue(overplay.trend, 'Current Overplay Score')).toHaveText(
    `${Math.round(answer.body.current_overplay_score)}%`,
  );
});
