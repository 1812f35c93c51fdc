import { api } from '@wcs/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { getOverviewStats } from '../services/analytics/overview.js';
import { route } from './define.js';

export async function analyticsRoutes(app: FastifyInstance, deps: AppDeps) {
  route(app, 'analytics', api.overview, async () => getOverviewStats(deps.db));
}
