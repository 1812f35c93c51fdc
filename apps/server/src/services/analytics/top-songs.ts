import type { Genre, TopSong } from '@wcs/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { plays, songs } from '../../db/schema.js';
import { type PlayFilter, playFilterCondition } from './filters.js';

/** A row as SQL returns it (a type, not an interface: db.execute needs an index signature). */
type TopSongRow = {
  song_id: number;
  title: string;
  artist: string;
  genre: Genre | null;
  play_count: number;
  event_count: number;
  last_played_at: Date | null;
  total: number;
};

/**
 * The most played songs among the plays matching `where`: plays and distinct events per song,
 * highest play count first (ties by title, then id), at most `limit`, with the number of songs
 * played at all. Plays are counted per song first; distinct events and the last play are then
 * looked up for the `limit` songs kept only, through the (song_id, event_id, started_at) index.
 * Over all plays (no `where`) the candidates are the first `limit` songs of play_summary_songs in
 * its index's order (songs folded and unchanged since: their count, distinct events and last play
 * are current, so they are read from the row; migration 0022) and the dirty songs with their
 * current count from song_window_plays (play-summary.ts), whose events and last play are counted
 * from plays, all in one snapshot; the number of songs played is play_summary_totals' count
 * adjusted by the dirty songs the same way.
 */
export async function topSongRows(
  db: Db,
  where: SQL | undefined,
  limit: number,
): Promise<{ data: TopSong[]; total: number }> {
  const filter = where ? sql`and ${where}` : sql``;
  const ranked = where
    ? sql`
    per_song as (
      select ${plays.songId} as song_id, count(*)::int as play_count
      from ${plays} where ${where}
      group by ${plays.songId}
    ),
    ranked as (
      select per_song.song_id, per_song.play_count, ${songs.title} as title, ${songs.artist} as artist,
        ${songs.genre} as genre, count(*) over ()::int as total, false as folded,
        null::int as folded_event_count, null::timestamptz as folded_last_played_at
      from per_song join ${songs} on ${songs.id} = per_song.song_id
      order by per_song.play_count desc, ${songs.title}, per_song.song_id
      limit ${limit}
    )`
    : sql`
    dirty as (select distinct song_id from play_summary_dirty),
    dirty_counts as (
      select c.song_id, sum(c.play_count)::int as play_count, false as folded,
        null::int as event_count, null::timestamptz as last_played_at
      from dirty join song_window_plays c on c.song_id = dirty.song_id
      group by c.song_id
    ),
    clean as (
      select s.song_id, s.play_count, true as folded, s.event_count, s.last_played_at
      from play_summary_songs s
      where s.song_id not in (select song_id from dirty)
      order by s.play_count desc nulls last, s.title, s.song_id
      limit ${limit}
    ),
    total as (
      select coalesce((select songs_played from play_summary_totals where id = 1), 0)
        - (select count(*) from play_summary_songs where song_id in (select song_id from dirty))
        + (select count(*) from dirty_counts) as total
    ),
    ranked as (
      select per_song.song_id, per_song.play_count, ${songs.title} as title, ${songs.artist} as artist,
        ${songs.genre} as genre, (select total from total)::int as total, per_song.folded,
        per_song.event_count as folded_event_count, per_song.last_played_at as folded_last_played_at
      from (select * from clean union all select * from dirty_counts) per_song
      join ${songs} on ${songs.id} = per_song.song_id
      order by per_song.play_count desc, ${songs.title}, per_song.song_id
      limit ${limit}
    )`;
  const { rows } = await db.execute<TopSongRow>(sql`
    with ${ranked}
    select ranked.song_id, ranked.play_count, ranked.title, ranked.artist, ranked.genre, ranked.total,
      coalesce(ranked.folded_event_count, detail.event_count) as event_count,
      case when ranked.folded then ranked.folded_last_played_at else detail.last_played_at end as last_played_at
    from ranked cross join lateral (
      select count(distinct ${plays.eventId})::int as event_count, max(${plays.startedAt}) as last_played_at
      from ${plays} where ${plays.songId} = ranked.song_id and not ranked.folded ${filter}
    ) detail
    order by ranked.play_count desc, ranked.title, ranked.song_id`);
  const data = rows.map((row) => ({
    song_id: row.song_id,
    title: row.title,
    artist: row.artist,
    genre: row.genre,
    play_count: row.play_count,
    event_count: row.event_count,
    last_played_at: row.last_played_at === null ? null : new Date(row.last_played_at).toISOString(),
  }));
  return { data, total: rows[0]?.total ?? 0 };
}

/** Top Songs: the most played songs over all plays, one event or one social. */
export async function getTopSongs(
  db: Db,
  query: PlayFilter & { limit: number },
): Promise<{ data: TopSong[]; total: number }> {
  return topSongRows(db, await playFilterCondition(db, query), query.limit);
}
