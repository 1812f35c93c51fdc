import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { analyticsRoutes } from './analytics.js';
import { eventRoutes } from './events.js';
import { healthRoutes } from './health.js';
import { recordingRoutes } from './recordings.js';
import { settingsRoutes } from './settings.js';
import { songRoutes } from './songs.js';
import { wsRoutes } from './ws.js';

/** Every API area; each file registers its own endpoints of the contract. */
export async function registerRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await healthRoutes(app, deps);
  await eventRoutes(app, deps);
  await songRoutes(app, deps);
  await settingsRoutes(app, deps);
  await analyticsRoutes(app, deps);
  await recordingRoutes(app, deps);
  await wsRoutes(app, deps);
}
