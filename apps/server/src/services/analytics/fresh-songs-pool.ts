import { type AgeCategory, type FreshSongsPool, type Genre, OVERPLAY } from '@wcs/contract';
import { and, asc, eq, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { songs } from '../../db/schema.js';
import { localDate } from '../age.js';
import { ageCategoryCondition, songWithPlayCount, toSong } from '../songs.js';

/** The pool: songs whose overplay score is under OVERPLAY.freshBelow. */
export const freshPoolCondition = (): SQL => lt(songs.overplayScore, OVERPLAY.freshBelow);

/** The pool's order (an index of its own, migration 0018): least overplayed, most popular, title. */
export const freshPoolOrder = (): SQL[] => [
  asc(songs.overplayScore),
  sql`${songs.spotifyPopularity} desc nulls last`,
  asc(songs.title),
  asc(songs.id),
];

/**
 * The fresh pool of the Overplay Monitor: songs whose overplay score is under 50, optionally of
 * one age category and genre; lowest score first, then most popular on Spotify (unknown
 * popularity last), then by title. `total` and `by_age_category` count the whole filtered pool,
 * not just the `limit` songs returned; the age categories use the same cutoff dates as each
 * song's `age_category` (services/age.ts), so the tiles add up with the rows. Songs without a
 * release date are in `total` but in none of the three categories.
 */
export async function getFreshSongsPool(
  db: Db,
  query: { age_category?: AgeCategory | undefined; genre?: Genre | undefined; limit: number },
): Promise<FreshSongsPool> {
  const today = localDate();
  const conditions: SQL[] = [freshPoolCondition()];
  if (query.genre) conditions.push(eq(songs.genre, query.genre));
  if (query.age_category) conditions.push(ageCategoryCondition(query.age_category, today));
  const where = and(...conditions);
  const countIn = (category: AgeCategory) =>
    sql<number>`(count(*) filter (where ${ageCategoryCondition(category, today)}))::int`;

  const [rows, [counts]] = await Promise.all([
    db
      .select(songWithPlayCount)
      .from(songs)
      .where(where)
      .orderBy(...freshPoolOrder())
      .limit(query.limit),
    db
      .select({
        total: sql<number>`count(*)::int`,
        new: countIn('new'),
        mid: countIn('mid'),
        old: countIn('old'),
      })
      .from(songs)
      .where(where),
  ]);
  return {
    data: rows.map(({ song, playCount }) => toSong(song, playCount, today)),
    total: counts?.total ?? 0,
    by_age_category: { new: counts?.new ?? 0, mid: counts?.mid ?? 0, old: counts?.old ?? 0 },
  };
}
