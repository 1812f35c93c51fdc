import { AGE_NEW_MAX_MONTHS, type EventSuccess, GENRES } from '@wcs/contract';
import { and, count, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { events, plays, songs } from '../../db/schema.js';
import { subtractMonths } from '../age.js';
import { notFound } from '../errors.js';
import {
  energyDistribution,
  genreBalance,
  newSongRate,
  roundToOneDecimal,
  varietyScore,
} from './event-success-math.js';

/**
 * Success metrics of one event over its plays (docs/metrics.md "Event success"): variety, energy
 * distribution and balance, genre balance and new song rate. SQL counts; the formulas are the
 * pure functions of event-success-math.ts. Artists are told apart case-insensitively. A song is
 * new when released after the date 6 months before the event's start date (exactly 6 months
 * before is not new, as in the age categories).
 */
export async function getEventSuccess(db: Db, eventId: number): Promise<EventSuccess> {
  const [event] = await db
    .select({ id: events.id, name: events.name, startDate: events.startDate })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event) throw notFound('Event', eventId);
  const newAfter = subtractMonths(event.startDate, AGE_NEW_MAX_MONTHS);
  const ofEvent = eq(plays.eventId, eventId);

  const [totalsResult, energyRows, genreRows] = await Promise.all([
    db.execute<{ total_plays: number; unique_songs: number; unique_artists: number; new_songs: number }>(sql`
      select count(*)::int as total_plays,
        count(distinct ${plays.songId})::int as unique_songs,
        count(distinct lower(${songs.artist}))::int as unique_artists,
        (count(distinct ${plays.songId}) filter (where ${songs.releaseDate} > ${newAfter}))::int as new_songs
      from ${plays} join ${songs} on ${eq(songs.id, plays.songId)}
      where ${ofEvent}`),
    db
      .select({ energy: songs.energyLevel, count: count() })
      .from(plays)
      .innerJoin(songs, eq(songs.id, plays.songId))
      .where(and(ofEvent, isNotNull(songs.energyLevel)))
      .groupBy(songs.energyLevel),
    db
      .select({ genre: songs.genre, count: count() })
      .from(plays)
      .innerJoin(songs, eq(songs.id, plays.songId))
      .where(and(ofEvent, isNotNull(songs.genre)))
      .groupBy(songs.genre),
  ]);
  const totals = totalsResult.rows[0] ?? { total_plays: 0, unique_songs: 0, unique_artists: 0, new_songs: 0 };

  return {
    event_id: event.id,
    event_name: event.name,
    variety_score: roundToOneDecimal(
      varietyScore(totals.unique_songs, totals.unique_artists, totals.total_plays),
    ),
    unique_songs: totals.unique_songs,
    unique_artists: totals.unique_artists,
    total_plays: totals.total_plays,
    energy_distribution: energyDistribution(
      energyRows.map((row) => ({ energy: row.energy as number, count: row.count })),
    ),
    genre_balance: genreBalance(
      genreRows.map((row) => ({ genre: row.genre as string, count: row.count })),
      GENRES,
    ),
    new_song_rate: roundToOneDecimal(newSongRate(totals.new_songs, totals.unique_songs)),
    new_song_count: totals.new_songs,
  };
}
