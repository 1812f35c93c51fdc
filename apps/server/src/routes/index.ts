import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { accountRoutes } from './accounts.js';
import { analysisRoutes } from './analysis.js';
import { analyticsRoutes } from './analytics.js';
import { downloadRoutes } from './downloads.js';
import { eventRoutes } from './events.js';
import { healthRoutes } from './health.js';
import { interopRoutes } from './interop.js';
import { libraryRoutes } from './library.js';
import { playlistRoutes } from './playlists.js';
import { recordingRoutes } from './recordings.js';
import { scraperRoutes } from './scraper.js';
import { settingsRoutes } from './settings.js';
import { songRoutes } from './songs.js';
import { wsRoutes } from './ws.js';

/** Every API area; each file registers its own endpoints of the contract. */
export async function registerRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await healthRoutes(app, deps);
  await accountRoutes(app, deps);
  await eventRoutes(app, deps);
  await songRoutes(app, deps);
  await settingsRoutes(app, deps);
  await analyticsRoutes(app, deps);
  await recordingRoutes(app, deps);
  await downloadRoutes(app, deps);
  await playlistRoutes(app, deps);
  await libraryRoutes(app, deps);
  await analysisRoutes(app, deps);
  await scraperRoutes(app, deps);
  await interopRoutes(app, deps);
  await wsRoutes(app, deps);
}
