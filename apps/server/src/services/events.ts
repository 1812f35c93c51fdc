import type { EditableSettings, Event, EventCreate, EventUpdate, Social } from '@wcs/contract';
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { events, plays, socials } from '../db/schema.js';
import type { JobQueue } from '../deps.js';
import { badRequest, notFound } from './errors.js';
import { scheduleScoreRecompute } from './recompute-schedule.js';
import { getEditableSettings } from './settings.js';

type EventRow = typeof events.$inferSelect;
type EventWeights = Pick<EditableSettings, 'festival_weight' | 'party_weight'>;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The server's own IANA time zone: the default of a new event. */
export function serverTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * The weight an event's plays carry in every score: its own override when set, else the
 * festival or party weight of the settings.
 */
export function effectiveEventWeight(
  event: Pick<EventRow, 'isFestival' | 'weightOverride'>,
  weights: EventWeights,
): number {
  if (event.weightOverride !== null) return event.weightOverride;
  return event.isFestival ? weights.festival_weight : weights.party_weight;
}

/** Maps an events row to the contract's Event. */
export function toEvent(row: EventRow, weights: EventWeights): Event {
  return {
    event_id: row.id,
    event_name: row.name,
    start_date: row.startDate,
    end_date: row.endDate,
    location: row.location,
    is_festival: row.isFestival,
    event_weight: effectiveEventWeight(row, weights),
    weight_override: row.weightOverride,
    timezone: row.timezone,
    country_code: row.countryCode,
    created_at: row.createdAt.toISOString(),
  };
}

/** English weekday name of a calendar date (YYYY-MM-DD), independent of the server's zone. */
export function weekdayOf(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()]!;
}

/** 'HH:MM' of a PostgreSQL time ('HH:MM:SS[.ffffff]'). */
const hoursMinutes = (time: string | null) => (time === null ? null : time.slice(0, 5));

/** A blank location is no location. */
const cleanLocation = (location: string | null | undefined) =>
  location === undefined ? undefined : location === null || location === '' ? null : location;

async function findEventRow(db: Db, id: number): Promise<EventRow> {
  const [row] = await db.select().from(events).where(eq(events.id, id));
  if (!row) throw notFound('Event', id);
  return row;
}

export async function listEvents(
  db: Db,
  query: { skip: number; limit: number },
): Promise<{ data: Event[]; total: number }> {
  const [weights, rows, total] = await Promise.all([
    getEditableSettings(db),
    db
      .select()
      .from(events)
      .orderBy(desc(events.startDate), desc(events.id))
      .offset(query.skip)
      .limit(query.limit),
    db.$count(events),
  ]);
  return { data: rows.map((row) => toEvent(row, weights)), total };
}

export async function getEvent(db: Db, id: number): Promise<Event> {
  const [row, weights] = await Promise.all([findEventRow(db, id), getEditableSettings(db)]);
  return toEvent(row, weights);
}

export async function createEvent(db: Db, input: EventCreate): Promise<Event> {
  const [row] = await db
    .insert(events)
    .values({
      name: input.event_name,
      startDate: input.start_date,
      endDate: input.end_date,
      location: cleanLocation(input.location) ?? null,
      isFestival: input.is_festival,
      weightOverride: input.weight_override ?? null,
      timezone: input.timezone ?? serverTimeZone(),
      countryCode: input.country_code ?? null,
    })
    .returning();
  return toEvent(row!, await getEditableSettings(db));
}

/**
 * Changes the given fields; the dates, merged with the stored ones, must stay in order. A change
 * of is_festival or weight_override changes the weight of the event's plays: with `jobs`, it
 * schedules a score recompute.
 */
export async function updateEvent(
  db: Db,
  id: number,
  input: EventUpdate,
  jobs?: Pick<JobQueue, 'send'>,
): Promise<Event> {
  let hasWeightChanged = false;
  const row = await db.transaction(async (tx) => {
    const [current] = await tx.select().from(events).where(eq(events.id, id)).for('update');
    if (!current) throw notFound('Event', id);
    const startDate = input.start_date ?? current.startDate;
    const endDate = input.end_date ?? current.endDate;
    if (endDate < startDate) {
      throw badRequest(`end_date must not be before start_date (${endDate} is before ${startDate})`);
    }
    hasWeightChanged =
      (input.is_festival !== undefined && input.is_festival !== current.isFestival) ||
      (input.weight_override !== undefined && input.weight_override !== current.weightOverride);
    const [updated] = await tx
      .update(events)
      .set({
        name: input.event_name,
        startDate: input.start_date,
        endDate: input.end_date,
        location: cleanLocation(input.location),
        isFestival: input.is_festival,
        weightOverride: input.weight_override,
        timezone: input.timezone,
        countryCode: input.country_code,
        updatedAt: new Date(),
      })
      .where(eq(events.id, id))
      .returning();
    return updated!;
  });
  if (hasWeightChanged && jobs) await scheduleScoreRecompute(jobs, `event ${id} weight changed`);
  return toEvent(row, await getEditableSettings(db));
}

/** Deletes an event; its socials and plays go with it (foreign keys cascade), recordings lose the link. */
export async function deleteEvent(
  db: Db,
  id: number,
  jobs?: Pick<JobQueue, 'send'>,
): Promise<{ message: string }> {
  const deleted = await db.delete(events).where(eq(events.id, id)).returning({ id: events.id });
  if (deleted.length === 0) throw notFound('Event', id);
  // Its plays are gone, so every song's exposure and rank may have moved.
  if (jobs) await scheduleScoreRecompute(jobs, `event ${id} deleted`);
  return { message: `Event ${id} was deleted` };
}

export async function listSocials(db: Db, eventId: number): Promise<{ data: Social[]; total: number }> {
  await findEventRow(db, eventId);
  // Qualified by hand: in a select list drizzle renders columns without their table.
  const playCount =
    sql<number>`(select count(*) from ${plays} where ${plays}.social_id = ${socials}.id)`.mapWith(Number);
  const rows = await db
    .select({ social: socials, playCount })
    .from(socials)
    .where(eq(socials.eventId, eventId))
    .orderBy(asc(socials.socialDate), asc(socials.id));
  const data = rows.map(({ social, playCount }) => ({
    social_id: social.id,
    event_id: social.eventId,
    social_name: social.name,
    social_date: social.socialDate,
    day_of_week: weekdayOf(social.socialDate),
    start_time: hoursMinutes(social.startTime),
    end_time: hoursMinutes(social.endTime),
    play_count: playCount,
  }));
  return { data, total: data.length };
}
