import type {
  Event,
  ReviewedAction,
  ScrapedEvent,
  ScrapedEventCreate,
  ScrapedEventReview,
} from '@wcs/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { events, scrapedEvents } from '../../db/schema.js';
import { defaultTimeZoneFor } from '../../providers/countries.js';
import { conflict, notFound } from '../errors.js';
import { serverTimeZone, toEvent } from '../events.js';
import { getEditableSettings } from '../settings.js';
import { noStartDate } from './duplicate-detection.js';
import { getScrapedEvent, type Queryable, type ScrapedRow } from './scraped-events.js';

type EventRow = typeof events.$inferSelect;

/** Locks an unreviewed scraped event with a parsed start date, the only kind review acts on. */
async function lockReviewable(tx: Queryable, id: number): Promise<ScrapedRow> {
  const [row] = await tx.select().from(scrapedEvents).where(eq(scrapedEvents.id, id)).for('update');
  if (!row) throw notFound('Scraped event', id);
  if (row.isReviewed) {
    throw conflict(
      `Scraped event ${id} was already reviewed (${row.reviewedAction} on ${row.reviewedAt?.toISOString().slice(0, 10)}); a review cannot be changed.`,
    );
  }
  if (row.startDate === null) throw noStartDate(row);
  return row;
}

const blankToNull = (text: string | undefined) => (text === undefined || text.trim() === '' ? null : text);

function reviewed(action: ReviewedAction, notes: string | undefined, linkedEventId: number | null) {
  return {
    isReviewed: true,
    reviewedAction: action,
    reviewedNotes: blankToNull(notes),
    reviewedAt: new Date(),
    linkedEventId,
  } satisfies Partial<typeof scrapedEvents.$inferInsert>;
}

/**
 * Create Event: a new product event from a scraped one. The name and location come from the
 * scraped event unless overrides are sent; it is a festival when it spans more than one day; its
 * time zone is the country's (a city the location names, else the capital), else the server's.
 */
export async function createEventFromScraped(
  db: Db,
  input: ScrapedEventCreate,
): Promise<{ event: Event; scraped_event: ScrapedEvent }> {
  const eventRow = await db.transaction(async (tx) => {
    const row = await lockReviewable(tx, input.scraped_event_id);
    const location =
      input.override_location !== undefined ? blankToNull(input.override_location) : row.location;
    const startDate = row.startDate!;
    const endDate = row.endDate ?? startDate;
    const [created] = await tx
      .insert(events)
      .values({
        name: input.override_name ?? row.name,
        startDate,
        endDate,
        location,
        countryCode: row.countryCode,
        isFestival: endDate > startDate,
        timezone: defaultTimeZoneFor(row.countryCode, row.location) ?? serverTimeZone(),
      })
      .returning();
    await tx
      .update(scrapedEvents)
      .set(reviewed('created', input.notes, created!.id))
      .where(eq(scrapedEvents.id, row.id));
    return created!;
  });
  const [weights, scraped] = await Promise.all([
    getEditableSettings(db),
    getScrapedEvent(db, input.scraped_event_id),
  ]);
  return { event: toEvent(eventRow, weights), scraped_event: scraped };
}

/**
 * Approve, reject or merge. Merge links the scraped event to an existing product event (404 when
 * there is none) and fills that event's country and location when it has none.
 */
export async function reviewScrapedEvent(
  db: Db,
  input: ScrapedEventReview,
): Promise<{ scraped_event: ScrapedEvent }> {
  await db.transaction(async (tx) => {
    const row = await lockReviewable(tx, input.scraped_event_id);
    let linkedEventId: number | null = null;
    if (input.action === 'merged') {
      const targetId = input.merge_with_event_id!;
      const [target] = await tx.select().from(events).where(eq(events.id, targetId)).for('update');
      if (!target) throw notFound('Event', targetId);
      await fillMissing(tx, target, row);
      linkedEventId = target.id;
    }
    await tx
      .update(scrapedEvents)
      .set(reviewed(input.action, input.notes, linkedEventId))
      .where(eq(scrapedEvents.id, row.id));
  });
  return { scraped_event: await getScrapedEvent(db, input.scraped_event_id) };
}

async function fillMissing(db: Queryable, target: EventRow, scraped: ScrapedRow) {
  const fill = {
    ...(target.countryCode === null && scraped.countryCode !== null
      ? { countryCode: scraped.countryCode }
      : {}),
    ...(target.location === null && scraped.location !== null ? { location: scraped.location } : {}),
  };
  if (Object.keys(fill).length === 0) return;
  await db
    .update(events)
    .set({ ...fill, updatedAt: new Date() })
    .where(eq(events.id, target.id));
}
