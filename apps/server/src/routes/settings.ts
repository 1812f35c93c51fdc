import { api } from '@wcs/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { getSettings, updateSettings } from '../services/settings.js';
import { route } from './define.js';

export async function settingsRoutes(app: FastifyInstance, deps: AppDeps) {
  route(app, 'settings', api.getSettings, async () => getSettings(deps.db, deps.config));
  route(app, 'settings', api.updateSettings, async ({ body }) =>
    updateSettings(deps.db, deps.config, body, deps.jobs),
  );
}
