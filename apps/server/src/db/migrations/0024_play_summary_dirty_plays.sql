-- Since migrations 0022 and 0023 a fold counts each dirty song's plays again (distinct events,
-- last play, months): 79 ms for the most played song at 10,000,000 plays, and 15 s instead of 4 s
-- for the 15,000 songs a score recompute marks (their download priority moved). A song's own
-- columns changing leaves those counts as they are, so its mark now says so (plays = false) and
-- the fold keeps them; marks from plays and events (the default) count them again.

-- Waits for a fold running in another process and keeps new ones out until commit (as in 0022).
SELECT pg_advisory_xact_lock(2003006310);
--> statement-breakpoint
ALTER TABLE "play_summary_dirty" ADD COLUMN "plays" boolean DEFAULT true NOT NULL;
--> statement-breakpoint

-- A change of the song's own columns (triggers of migrations 0014 and 0021).
CREATE OR REPLACE FUNCTION play_summary_mark_song() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO play_summary_dirty (song_id, plays) VALUES (NEW.id, false);
  RETURN NULL;
END $$;
--> statement-breakpoint

-- As in migration 0023, counting the plays again only for the songs that need it.
CREATE OR REPLACE FUNCTION play_summary_fold() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  taken integer;
  recount integer[];
  kept_ids integer[];
  kept_events integer[];
  kept_last timestamptz[];
BEGIN
  -- The songs whose plays are counted again: those with a mark from plays or events, and those
  -- never folded. The others changed only in their own columns: their distinct events, last play
  -- and months are kept as folded.
  SELECT coalesce(array_agg(DISTINCT d.song_id), '{}') INTO recount
  FROM play_summary_dirty d
  WHERE d.plays OR NOT EXISTS (SELECT 1 FROM play_summary_songs s WHERE s.song_id = d.song_id);
  SELECT coalesce(array_agg(s.song_id), '{}'), coalesce(array_agg(s.event_count), '{}'),
    coalesce(array_agg(s.last_played_at), '{}')
  INTO kept_ids, kept_events, kept_last
  FROM play_summary_songs s
  WHERE s.song_id IN (SELECT song_id FROM play_summary_dirty) AND s.song_id NOT IN (SELECT unnest(recount));

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
    s.file_present, s.download_priority, coalesce(k.event_count, e.event_count),
    CASE WHEN k.song_id IS NULL THEN e.last_played_at ELSE k.last_played_at END
  FROM (
    SELECT song_id, sum(play_count)::integer AS play_count
    FROM song_window_plays
    WHERE song_id IN (SELECT song_id FROM play_summary_dirty)
    GROUP BY song_id
  ) t
  JOIN songs s ON s.id = t.song_id
  LEFT JOIN unnest(kept_ids, kept_events, kept_last) AS k(song_id, event_count, last_played_at) ON k.song_id = s.id
  CROSS JOIN LATERAL (
    SELECT count(DISTINCT p.event_id)::integer AS event_count, max(p.started_at) AS last_played_at
    FROM plays p WHERE p.song_id = s.id AND k.song_id IS NULL
  ) e;

  DELETE FROM play_summary_song_months m WHERE m.song_id IN (SELECT unnest(recount));
  INSERT INTO play_summary_song_months (song_id, month, play_count)
  SELECT p.song_id, to_char((p.started_at AT TIME ZONE e.timezone) - interval '6 hours', 'YYYY-MM'), count(*)::integer
  FROM plays p JOIN events e ON e.id = p.event_id
  WHERE p.song_id IN (SELECT unnest(recount))
  GROUP BY 1, 2;

  DELETE FROM play_summary_dirty;
  GET DIAGNOSTICS taken = ROW_COUNT;
  RETURN taken;
END $$;
