import { api } from '@wcs/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { analysisStatus, queueOutdatedAnalyses } from '../services/library/analysis.js';
import { route } from './define.js';

export async function analysisRoutes(app: FastifyInstance, deps: AppDeps) {
  route(app, 'analysis', api.analysisStatus, async () => analysisStatus(deps.db));
  route(app, 'analysis', api.analyzeOutdated, async () => ({
    queued: await queueOutdatedAnalyses(deps, 'outdated'),
  }));
}
