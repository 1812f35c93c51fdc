import type { GenreCount } from '@wcs/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { plays, songs } from '../../db/schema.js';
import { type PlayFilter, playFilterCondition } from './filters.js';
import { summaryRows } from './play-summary.js';

/** What plays of songs without a genre are counted as. */
export const UNKNOWN_GENRE = 'Unknown';

/**
 * Plays per genre over the plays matching `where`, highest first (ties by genre name); songs
 * without a genre count as 'Unknown'. Plays are counted per song first, so the join with songs
 * touches each song once rather than once per play; over all plays (no `where`) the counts are
 * sums of the play summary's groups (every window, and plays outside them; play-summary.ts).
 */
export async function genreCounts(db: Db, where: SQL | undefined): Promise<GenreCount[]> {
  if (where === undefined) {
    const { rows } = await db.execute<GenreCount>(sql`
      select coalesce(nullif(genre, ''), ${UNKNOWN_GENRE}) as genre, sum(plays)::int as play_count
      from ${summaryRows}
      group by 1
      having sum(plays) <> 0
      order by 2 desc, 1`);
    return rows;
  }
  const { rows } = await db.execute<GenreCount>(sql`
    select coalesce(${songs.genre}, ${UNKNOWN_GENRE}) as genre, sum(per_song.play_count)::int as play_count
    from (
      select ${plays.songId} as song_id, count(*) as play_count
      from ${plays} where ${where}
      group by ${plays.songId}
    ) per_song
    join ${songs} on ${songs.id} = per_song.song_id
    group by 1
    order by 2 desc, 1`);
  return rows;
}

/** Genre Distribution (and plays-by-genre): plays per genre over all plays, one event or one social. */
export async function getGenreDistribution(
  db: Db,
  filter: PlayFilter,
): Promise<{ data: GenreCount[]; total: number }> {
  const data = await genreCounts(db, await playFilterCondition(db, filter));
  return { data, total: data.length };
}
