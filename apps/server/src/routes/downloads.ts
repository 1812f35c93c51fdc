import { api } from '@wcs/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import {
  getDownloadPreview,
  getDownloadStats,
  listDownloadQueue,
  retryDownload,
  startDownloads,
} from '../services/downloads.js';
import { route } from './define.js';

export async function downloadRoutes(app: FastifyInstance, deps: AppDeps) {
  route(app, 'downloads', api.downloadQueue, async ({ query }) => listDownloadQueue(deps.db, query));
  route(app, 'downloads', api.downloadStats, async () => getDownloadStats(deps.db));
  route(app, 'downloads', api.downloadPreview, async () => getDownloadPreview(deps.db, deps.config));
  route(app, 'downloads', api.retryDownload, async ({ params }) => retryDownload(deps.db, params.id));
  route(app, 'downloads', api.startDownloads, async ({ request }) =>
    startDownloads(deps.db, request.identity),
  );
}
