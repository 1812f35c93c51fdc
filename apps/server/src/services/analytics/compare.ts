import type { ComparisonEntity, ComparisonResponse, TimeWindow } from '@wcs/contract';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { events, plays, socials, songs } from '../../db/schema.js';
import { notFound } from '../errors.js';
import { UNKNOWN_GENRE } from './genre-distribution.js';
import { type FeatureSums, featureSumsSelect, inWindowOrder, windowAverages } from './window-averages.js';

export type ComparisonType = ComparisonResponse['comparison_type'];

/** The entities to compare, in the order asked; 404 names the first id that does not exist. */
async function findEntities(
  db: Db,
  ids: number[],
  type: ComparisonType,
): Promise<Array<{ id: number; name: string }>> {
  const rows =
    type === 'event'
      ? await db.select({ id: events.id, name: events.name }).from(events).where(inArray(events.id, ids))
      : (
          await db
            .select({ id: socials.id, name: socials.name, date: socials.socialDate })
            .from(socials)
            .where(inArray(socials.id, ids))
        ).map((row) => ({ id: row.id, name: `${row.name} (${row.date})` }));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => {
    const entity = byId.get(id);
    if (!entity) throw notFound(type === 'event' ? 'Event' : 'Social', id);
    return entity;
  });
}

/**
 * Compares 2-5 events or socials (the contract checks the count): for each, the four
 * per-window averages as maps of window to value (windows without plays absent, in the order of
 * the night) and its plays per genre ('Unknown' for songs without one, highest first). The same
 * figures as the progression and genre-distribution calls filtered to that entity, in two
 * queries for all entities together.
 */
export async function compareEntities(
  db: Db,
  query: { ids: number[]; comparison_type: ComparisonType },
): Promise<ComparisonResponse> {
  const entities = await findEntities(db, query.ids, query.comparison_type);
  const column = query.comparison_type === 'event' ? plays.eventId : plays.socialId;
  const inEntities = inArray(column, query.ids);
  const [windowRows, genreRows] = await Promise.all([
    db.execute<FeatureSums & { entity_id: number; time_window: TimeWindow }>(sql`
      select ${column} as entity_id, ${plays.timeWindow} as time_window, ${featureSumsSelect}
      from ${plays} join ${songs} on ${eq(songs.id, plays.songId)}
      where ${and(inEntities, isNotNull(plays.timeWindow))}
      group by 1, 2`),
    db.execute<{ entity_id: number; genre: string; play_count: number }>(sql`
      select ${column} as entity_id, coalesce(${songs.genre}, ${UNKNOWN_GENRE}) as genre, count(*)::int as play_count
      from ${plays} join ${songs} on ${eq(songs.id, plays.songId)}
      where ${inEntities}
      group by 1, 2
      order by 3 desc, 2`),
  ]);

  const result: ComparisonEntity[] = entities.map(({ id, name }) => {
    const windows = inWindowOrder(
      windowRows.rows
        .filter((row) => row.entity_id === id)
        .map((row) => windowAverages(row.time_window, row)),
    );
    const mapOf = (pick: (row: (typeof windows)[number]) => number | null) =>
      Object.fromEntries(windows.map((row) => [row.time_window, pick(row)]));
    return {
      id,
      name,
      bpm_progression: mapOf((row) => row.avg_bpm),
      energy_progression: mapOf((row) => row.avg_energy),
      valence_progression: mapOf((row) => row.avg_valence),
      danceability_progression: mapOf((row) => row.avg_danceability),
      genre_distribution: Object.fromEntries(
        genreRows.rows.filter((row) => row.entity_id === id).map((row) => [row.genre, row.play_count]),
      ),
    };
  });
  return { comparison_type: query.comparison_type, entities: result };
}
