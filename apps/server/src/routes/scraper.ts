import { api } from '@wcs/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { batchDetectDuplicates, detectDuplicates } from '../services/scraper/duplicate-detection.js';
import { createEventFromScraped, reviewScrapedEvent } from '../services/scraper/review.js';
import { scrapeEvents } from '../services/scraper/scrape.js';
import { listScrapedEvents, scraperFilterOptions, scraperStats } from '../services/scraper/scraped-events.js';
import { route } from './define.js';

export async function scraperRoutes(app: FastifyInstance, deps: AppDeps) {
  route(app, 'scraper', api.listScrapedEvents, async ({ query }) => listScrapedEvents(deps.db, query));
  route(app, 'scraper', api.scraperFilterOptions, async () => scraperFilterOptions(deps.db));
  route(app, 'scraper', api.detectDuplicates, async ({ params }) => detectDuplicates(deps.db, params.id));
  route(app, 'scraper', api.createFromScraped, async ({ body }) => createEventFromScraped(deps.db, body));
  route(app, 'scraper', api.reviewScraped, async ({ body }) => reviewScrapedEvent(deps.db, body));
  route(app, 'scraper', api.batchDetectDuplicates, async ({ query }) =>
    batchDetectDuplicates(deps.db, query.limit),
  );
  route(app, 'scraper', api.scrapeEvents, async ({ body }) =>
    scrapeEvents(deps.db, {
      url: body?.url ?? deps.config.scraperUrl,
      timeoutMs: deps.config.scraperTimeoutMs,
      isCallersUrl: body?.url !== undefined,
    }),
  );
  route(app, 'scraper', api.scraperStats, async () => scraperStats(deps.db));
}
