import { api } from '@wcs/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { describeProviders, listAttempts, saveProviderSettings } from '../services/downloads/providers.js';
import {
  getDownloadPreview,
  getDownloadStats,
  listDownloadQueue,
  retryDownload,
  startDownloads,
} from '../services/downloads.js';
import { getSystemStatus } from '../services/system-status.js';
import { route } from './define.js';

export async function downloadRoutes(app: FastifyInstance, deps: AppDeps) {
  route(app, 'downloads', api.downloadQueue, async ({ query }) => listDownloadQueue(deps.db, query));
  route(app, 'downloads', api.downloadStats, async () => getDownloadStats(deps.db));
  route(app, 'downloads', api.downloadPreview, async () => getDownloadPreview(deps.db, deps.config));
  route(app, 'downloads', api.retryDownload, async ({ params }) => retryDownload(deps, params.id));
  route(app, 'downloads', api.startDownloads, async ({ request }) => startDownloads(deps, request.identity));
  route(app, 'downloads', api.downloadProviders, async () => describeProviders(deps.db, deps.config));
  route(app, 'downloads', api.updateDownloadProviders, async ({ body }) => {
    await saveProviderSettings(deps.db, body);
    // Files dropped while the inbox was off, and entries waiting for a provider, are tried now.
    await deps.jobs.send('downloads.run', { reason: 'settings' });
    return describeProviders(deps.db, deps.config);
  });
  route(app, 'downloads', api.downloadAttempts, async ({ query }) => ({
    attempts: await listAttempts(deps.db, query),
  }));
  route(app, 'system', api.systemStatus, async () => getSystemStatus(deps));
}
