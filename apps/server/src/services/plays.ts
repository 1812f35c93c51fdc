import type { TimeWindow } from '@wcs/contract';
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { events, plays, socials } from '../db/schema.js';

// Building a DateTimeFormat costs about 0.5 ms; a night of plays reuses one per time zone.
const formats = new Map<string, Intl.DateTimeFormat>();
function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** Wall-clock hour (0-23) and date of an instant in a time zone. */
function localParts(instant: Date, timeZone: string): { date: string; hour: number } {
  const parts = formatFor(timeZone).formatToParts(instant);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return { date: `${get('year')}-${get('month')}-${get('day')}`, hour: Number(get('hour')) };
}

/**
 * The time window of a play: its wall-clock start in the event's time zone. [20, 22) is 20-22,
 * [22, 24) 22-00, [0, 2) 00-02, [2, 4) 02-04, [4, 6) 04-06; any other hour has no window.
 */
export function timeWindowOf(instant: Date, timeZone: string): TimeWindow | null {
  const { hour } = localParts(instant, timeZone);
  if (hour >= 20 && hour < 22) return '20-22';
  if (hour >= 22) return '22-00';
  if (hour < 2) return '00-02';
  if (hour < 4) return '02-04';
  if (hour < 6) return '04-06';
  return null;
}

const addDays = (isoDate: string, days: number) => {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

/** A night belongs to the date on which it began: 00:00-05:59 counts to the previous date. */
export function nightDateOf(instant: Date, timeZone: string): string {
  const { date, hour } = localParts(instant, timeZone);
  return hour < 6 ? addDays(date, -1) : date;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const weekdayName = (isoDate: string) => WEEKDAYS[new Date(`${isoDate}T00:00:00Z`).getUTCDay()]!;
export const socialNameFor = (isoDate: string) => `${weekdayName(isoDate)} Night Social`;

export interface NewPlay {
  songId: number;
  eventId: number;
  startedAt: Date;
  endedAt?: Date | null;
  source: 'recording' | 'import' | 'manual' | 'demo';
  confidence?: number | null;
  recordingId?: number | null;
  /** Who recognised a recorded play: 'library', 'acrcloud' or 'audd'. */
  recognizer?: string | null;
  /** A library play's song's own end as heard (recognition-timeline.ts, songEndMs). */
  songEndsAt?: Date | null;
}

/**
 * Stores plays, each in its time window and in the social of its night; a night without a social
 * gets one (`<Weekday> Night Social`) whose start and end follow its first and last play.
 * Returns the ids of the new plays. Run it inside the caller's transaction when it has one.
 */
export async function recordPlays(db: Db, newPlays: NewPlay[], batchSize = 5000): Promise<number[]> {
  if (newPlays.length === 0) return [];
  const eventIds = [...new Set(newPlays.map((play) => play.eventId))];
  const zones = new Map(
    (
      await db
        .select({ id: events.id, timezone: events.timezone })
        .from(events)
        .where(inArray(events.id, eventIds))
    ).map((row) => [row.id, row.timezone]),
  );
  const nights = new Map<string, { eventId: number; date: string }>();
  const placed = newPlays.map((play) => {
    const timeZone = zones.get(play.eventId);
    if (!timeZone) throw new Error(`Event ${play.eventId} does not exist`);
    const date = nightDateOf(play.startedAt, timeZone);
    nights.set(`${play.eventId}|${date}`, { eventId: play.eventId, date });
    return { play, date, timeWindow: timeWindowOf(play.startedAt, timeZone) };
  });

  const nightList = [...nights.values()];
  await db
    .insert(socials)
    .values(
      nightList.map((night) => ({
        eventId: night.eventId,
        socialDate: night.date,
        name: socialNameFor(night.date),
      })),
    )
    .onConflictDoNothing({ target: [socials.eventId, socials.socialDate] });
  const socialRows = await db
    .select({ id: socials.id, eventId: socials.eventId, date: socials.socialDate })
    .from(socials)
    .where(inArray(socials.eventId, eventIds));
  const socialIds = new Map(socialRows.map((row) => [`${row.eventId}|${row.date}`, row.id]));

  const ids: number[] = [];
  for (let start = 0; start < placed.length; start += batchSize) {
    const rows = placed.slice(start, start + batchSize).map(({ play, date, timeWindow }) => ({
      songId: play.songId,
      eventId: play.eventId,
      socialId: socialIds.get(`${play.eventId}|${date}`) ?? null,
      recordingId: play.recordingId ?? null,
      startedAt: play.startedAt,
      endedAt: play.endedAt ?? null,
      timeWindow,
      source: play.source,
      confidence: play.confidence ?? null,
      recognizer: play.recognizer ?? null,
      songEndsAt: play.songEndsAt ?? null,
    }));
    const inserted = await db.insert(plays).values(rows).returning({ id: plays.id });
    ids.push(...inserted.map((row) => row.id));
  }

  const touched = [...new Set(placed.map(({ play, date }) => socialIds.get(`${play.eventId}|${date}`)!))];
  await refreshSocialHours(db, touched);
  return ids;
}

/** A social's hours are those of its first and last play, in the event's local time. */
export async function refreshSocialHours(db: Db, socialIds: readonly number[]): Promise<void> {
  const touched = [...new Set(socialIds)];
  if (touched.length === 0) return;
  await db.execute(sql`
    update socials s set
      start_time = (b.first_start at time zone e.timezone)::time,
      end_time = (b.last_end at time zone e.timezone)::time
    from (
      select social_id, min(started_at) as first_start, max(coalesce(ended_at, started_at)) as last_end
      from plays where social_id in ${touched} group by social_id
    ) b, events e
    where s.id = b.social_id and e.id = s.event_id`);
}
