import { and, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { events, plays, socials } from '../../db/schema.js';
import { badRequest, notFound } from '../errors.js';

/** The optional event and social a per-window analytic is restricted to. */
export interface PlayFilter {
  event_id?: number | undefined;
  social_id?: number | undefined;
}

/**
 * Checks the filter against the database and returns its condition on `plays` (undefined: all
 * plays). An unknown event or social is a 404 rather than an empty chart, so a stale link in the
 * browser says what is wrong; a social of another event than the one given is a 400.
 */
export async function playFilterCondition(db: Db, filter: PlayFilter): Promise<SQL | undefined> {
  const conditions: SQL[] = [];
  if (filter.event_id !== undefined) {
    const [event] = await db.select({ id: events.id }).from(events).where(eq(events.id, filter.event_id));
    if (!event) throw notFound('Event', filter.event_id);
    conditions.push(eq(plays.eventId, filter.event_id));
  }
  if (filter.social_id !== undefined) {
    const [social] = await db
      .select({ eventId: socials.eventId })
      .from(socials)
      .where(eq(socials.id, filter.social_id));
    if (!social) throw notFound('Social', filter.social_id);
    if (filter.event_id !== undefined && social.eventId !== filter.event_id) {
      throw badRequest(
        `Social ${filter.social_id} belongs to event ${social.eventId}, not to event ${filter.event_id}: choose one of its own socials or leave social_id out`,
      );
    }
    conditions.push(eq(plays.socialId, filter.social_id));
  }
  return conditions.length === 0 ? undefined : and(...conditions);
}
