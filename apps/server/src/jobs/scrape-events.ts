import type { JobPayload } from '@wcs/contract';
import PgBoss from 'pg-boss';
import type { AppDeps } from '../deps.js';
import { scrapeEvents } from '../services/scraper/scrape.js';

const JOB = 'scraper.scrape';

/** 'scraper.scrape': reads the events calendar (the payload's address, else WCS_SCRAPER_URL). */
export async function scrapeEventsJob(deps: AppDeps, data: JobPayload<typeof JOB>): Promise<void> {
  // A failure is logged in scrape_runs by the service and rethrown, so pg-boss retries it.
  await scrapeEvents(deps.db, {
    url: data.url ?? deps.config.scraperUrl,
    timeoutMs: deps.config.scraperTimeoutMs,
  });
}

/**
 * Puts the scrape on pg-boss's cron schedule (WCS_SCRAPER_SCHEDULE, in the server's time zone),
 * or removes it when the setting is 'off'. The schedule lives in the database, so a restart with
 * a new setting replaces the old one. A pg-boss bound to our pool writes it: the queue module's
 * own instance runs the clock that turns schedules into jobs.
 */
export async function scheduleScrapeEvents(deps: AppDeps): Promise<void> {
  const boss = new PgBoss({
    schema: 'pgboss',
    db: { executeSql: (text: string, values?: unknown[]) => deps.pool.query(text, values) },
  });
  const cron = deps.config.scraperSchedule;
  if (cron === null) {
    await boss.unschedule(JOB);
    return;
  }
  try {
    await boss.schedule(JOB, cron, {}, { tz: serverZone() });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`WCS_SCRAPER_SCHEDULE must be a cron expression or 'off', got "${cron}" (${reason})`);
  }
}

const serverZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
