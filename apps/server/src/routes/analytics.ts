import { api } from '@wcs/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { compareEntities } from '../services/analytics/compare.js';
import { getEventAnalytics } from '../services/analytics/event-analytics.js';
import { getEventSuccess } from '../services/analytics/event-success.js';
import { getFreshSongsPool } from '../services/analytics/fresh-songs-pool.js';
import { getGenreDistribution } from '../services/analytics/genre-distribution.js';
import { getOverplayTrend } from '../services/analytics/overplay-trend.js';
import { getOverplayWarnings } from '../services/analytics/overplay-warnings.js';
import { getOverviewStats } from '../services/analytics/overview.js';
import { getPlaysByTimeWindow } from '../services/analytics/plays-by-time-window.js';
import { getProgression } from '../services/analytics/progression.js';
import { getSongPerformance } from '../services/analytics/song-performance.js';
import { getSpotifyPopularity } from '../services/analytics/spotify-popularity.js';
import { getTimeWindowCharacteristics } from '../services/analytics/time-window-characteristics.js';
import { getTopSongs } from '../services/analytics/top-songs.js';
import { route } from './define.js';

export async function analyticsRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;
  route(app, 'analytics', api.overview, async () => getOverviewStats(db));
  // Plays per genre is the genre distribution under the specification's older name.
  route(app, 'analytics', api.playsByGenre, async ({ query }) => getGenreDistribution(db, query));
  route(app, 'analytics', api.genreDistribution, async ({ query }) => getGenreDistribution(db, query));
  route(app, 'analytics', api.playsByTimeWindow, async ({ query }) => getPlaysByTimeWindow(db, query));
  route(app, 'analytics', api.topSongs, async ({ query }) => getTopSongs(db, query));
  route(app, 'analytics', api.eventAnalytics, async ({ params }) => getEventAnalytics(db, params.id));
  // The four progression charts share one row shape, so one query answers each of them.
  route(app, 'analytics', api.bpmProgression, async ({ query }) => getProgression(db, query));
  route(app, 'analytics', api.energyProgression, async ({ query }) => getProgression(db, query));
  route(app, 'analytics', api.valenceProgression, async ({ query }) => getProgression(db, query));
  route(app, 'analytics', api.danceabilityProgression, async ({ query }) => getProgression(db, query));
  route(app, 'analytics', api.timeWindowCharacteristics, async () => getTimeWindowCharacteristics(db));
  route(app, 'analytics', api.compare, async ({ query }) => compareEntities(db, query));
  route(app, 'analytics', api.eventSuccess, async ({ params }) => getEventSuccess(db, params.id));
  route(app, 'analytics', api.overplayWarnings, async ({ query }) => getOverplayWarnings(db, query));
  route(app, 'analytics', api.overplayTrend, async ({ params }) => getOverplayTrend(db, params.id));
  route(app, 'analytics', api.freshSongsPool, async ({ query }) => getFreshSongsPool(db, query));
  route(app, 'analytics', api.songPerformance, async ({ params }) => getSongPerformance(db, params.id));
  route(app, 'analytics', api.spotifyPopularity, async ({ params }) =>
    getSpotifyPopularity(
      db,
      params.id,
      deps.config.metadata.mode !== 'off' && deps.config.metadata.spotify !== null,
    ),
  );
}
