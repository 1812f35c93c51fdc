-- Top Songs over all plays at 10,000,000 plays (docs/performance.md): ranking read
-- play_summary_songs, but each kept song's distinct events and last play were counted from its
-- plays (30,000 each for the most played songs, 9,000 distinct events: 50-65 ms of the call's
-- 84 / 126 ms p50 / p95). The fold now keeps them per song as well, so a song folded and not
-- dirty since reads them from its row; dirty songs are still counted from plays by the reader
-- (services/analytics/top-songs.ts), so answers stay exact.
-- Waits for a fold running in another process (it holds this key, play-summary.ts FOLD_LOCK_KEY)
-- and keeps new ones out until commit: a fold with the previous function would otherwise write
-- rows without the new values and take their dirty marks.
SELECT pg_advisory_xact_lock(2003006310);
--> statement-breakpoint
ALTER TABLE "play_summary_songs" ADD COLUMN "event_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "play_summary_songs" ADD COLUMN "last_played_at" timestamp with time zone;
--> statement-breakpoint

-- A play moved to another event or start time now marks its song too (before: only a move to
-- another song or time window did), since the song's distinct events and last play depend on it.
CREATE OR REPLACE FUNCTION play_summary_mark_moved_plays() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO play_summary_dirty (song_id)
  SELECT DISTINCT song_id FROM (
    SELECT n.song_id FROM new_plays n JOIN old_plays o ON o.id = n.id
    WHERE n.song_id <> o.song_id OR n.time_window IS DISTINCT FROM o.time_window
      OR n.event_id <> o.event_id OR n.started_at <> o.started_at
    UNION ALL
    SELECT o.song_id FROM new_plays n JOIN old_plays o ON o.id = n.id
    WHERE n.song_id <> o.song_id OR n.time_window IS DISTINCT FROM o.time_window
      OR n.event_id <> o.event_id OR n.started_at <> o.started_at
  ) moved;
  RETURN NULL;
END $$;
--> statement-breakpoint

-- Backfill from the plays of this transaction's snapshot. ALTER TABLE above holds
-- play_summary_songs against folds until commit; a play written by a transaction this snapshot
-- does not see marks its song dirty, and readers then count that song from plays.
UPDATE play_summary_songs s SET (event_count, last_played_at) = (
  SELECT count(DISTINCT p.event_id)::integer, max(p.started_at) FROM plays p WHERE p.song_id = s.song_id
);
--> statement-breakpoint

-- As in migration 0021, with each song's distinct events and last play kept.
CREATE OR REPLACE FUNCTION play_summary_fold() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  taken integer;
BEGIN
  INSERT INTO play_summary AS p (time_window, genre, plays, bpm_sum, bpm_n, energy_sum, energy_n,
    valence_sum, valence_n, danceability_sum, danceability_n)
  SELECT time_window, genre, sum(plays), sum(bpm_sum), sum(bpm_n), sum(energy_sum), sum(energy_n),
    sum(valence_sum), sum(valence_n), sum(danceability_sum), sum(danceability_n)
  FROM play_summary_pending
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT (time_window, genre) DO UPDATE SET
    plays = p.plays + excluded.plays,
    bpm_sum = p.bpm_sum + excluded.bpm_sum, bpm_n = p.bpm_n + excluded.bpm_n,
    energy_sum = p.energy_sum + excluded.energy_sum, energy_n = p.energy_n + excluded.energy_n,
    valence_sum = p.valence_sum + excluded.valence_sum, valence_n = p.valence_n + excluded.valence_n,
    danceability_sum = p.danceability_sum + excluded.danceability_sum,
    danceability_n = p.danceability_n + excluded.danceability_n;
  -- A group without plays has every sum at 0 too (each sum is over its plays).
  DELETE FROM play_summary WHERE plays = 0;

  DELETE FROM play_summary_song_windows w USING (SELECT DISTINCT song_id FROM play_summary_dirty) d
  WHERE w.song_id = d.song_id;
  INSERT INTO play_summary_song_windows (song_id, time_window, play_count)
  SELECT c.song_id, c.time_window, c.play_count
  FROM song_window_plays c
  WHERE c.song_id IN (SELECT song_id FROM play_summary_dirty);

  -- Songs played, and those of them without a file: less the dirty songs as folded, plus the dirty
  -- songs as they are now.
  UPDATE play_summary_totals SET songs_played = songs_played
    - (SELECT count(*) FROM play_summary_songs WHERE song_id IN (SELECT song_id FROM play_summary_dirty))
    + (SELECT count(DISTINCT song_id) FROM song_window_plays WHERE song_id IN (SELECT song_id FROM play_summary_dirty)),
    played_no_file = played_no_file
    - (SELECT count(*) FROM play_summary_songs
       WHERE song_id IN (SELECT song_id FROM play_summary_dirty) AND NOT file_present)
    + (SELECT count(*) FROM songs s
       WHERE s.id IN (SELECT song_id FROM play_summary_dirty) AND NOT s.file_present
         AND EXISTS (SELECT 1 FROM song_window_plays w WHERE w.song_id = s.id))
  WHERE id = 1;

  DELETE FROM play_summary_songs s USING (SELECT DISTINCT song_id FROM play_summary_dirty) d
  WHERE s.song_id = d.song_id;
  INSERT INTO play_summary_songs (song_id, play_count, title, genre, bpm, energy_level, danceability, valence,
    file_present, download_priority, event_count, last_played_at)
  SELECT s.id, t.play_count, s.title, coalesce(s.genre, ''), s.bpm, s.energy_level, s.danceability, s.valence,
    s.file_present, s.download_priority, e.event_count, e.last_played_at
  FROM (
    SELECT song_id, sum(play_count)::integer AS play_count
    FROM song_window_plays
    WHERE song_id IN (SELECT song_id FROM play_summary_dirty)
    GROUP BY song_id
  ) t
  JOIN songs s ON s.id = t.song_id
  CROSS JOIN LATERAL (
    SELECT count(DISTINCT p.event_id)::integer AS event_count, max(p.started_at) AS last_played_at
    FROM plays p WHERE p.song_id = s.id
  ) e;

  DELETE FROM play_summary_dirty;
  GET DIAGNOSTICS taken = ROW_COUNT;
  RETURN taken;
END $$;
