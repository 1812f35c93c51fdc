import type { GenreCount } from '@wcs/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { plays, songs, songWindowPlays } from '../../db/schema.js';
import { type PlayFilter, playFilterCondition } from './filters.js';

/** What plays of songs without a genre are counted as. */
export const UNKNOWN_GENRE = 'Unknown';

/**
 * Plays per genre over the plays matching `where`, highest first (ties by genre name); songs
 * without a genre count as 'Unknown'. Plays are counted per song first, so the join with songs
 * touches each song once rather than once per play; over all plays (no `where`) those counts come
 * from song_window_plays (every window, and plays outside them), without reading the plays.
 */
export async function genreCounts(db: Db, where: SQL | undefined): Promise<GenreCount[]> {
  const perSong =
    where === undefined
      ? sql`
      select ${songWindowPlays.songId} as song_id, sum(${songWindowPlays.playCount}) as play_count
      from ${songWindowPlays}
      group by ${songWindowPlays.songId}`
      : sql`
      select ${plays.songId} as song_id, count(*) as play_count
      from ${plays} where ${where}
      group by ${plays.songId}`;
  const { rows } = await db.execute<GenreCount>(sql`
    select coalesce(${songs.genre}, ${UNKNOWN_GENRE}) as genre, sum(per_song.play_count)::int as play_count
    from (${perSong}) per_song
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
