-- The number of songs with plays as of the last fold, kept by the fold (play_summary_totals, one
-- row), so Top Songs over all plays gives its `total` without counting the 175,000 rows of
-- play_summary_songs (17-38 ms at 10,000,000 plays, docs/performance.md). A reader adjusts it by
-- the dirty songs as play_summary_pending does: less those folded, plus those with plays now.
INSERT INTO play_summary_totals (id, songs_played) SELECT 1, count(*) FROM play_summary_songs;
--> statement-breakpoint

-- As in migration 0014, with the count of songs played kept up to date before the songs' rows
-- are replaced.
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

  -- Songs played: less the dirty songs as folded, plus the dirty songs that have plays now.
  UPDATE play_summary_totals SET songs_played = songs_played
    - (SELECT count(*) FROM play_summary_songs WHERE song_id IN (SELECT song_id FROM play_summary_dirty))
    + (SELECT count(DISTINCT song_id) FROM song_window_plays WHERE song_id IN (SELECT song_id FROM play_summary_dirty))
  WHERE id = 1;

  DELETE FROM play_summary_songs s USING (SELECT DISTINCT song_id FROM play_summary_dirty) d
  WHERE s.song_id = d.song_id;
  INSERT INTO play_summary_songs (song_id, play_count, title, genre, bpm, energy_level, danceability, valence)
  SELECT s.id, t.play_count, s.title, coalesce(s.genre, ''), s.bpm, s.energy_level, s.danceability, s.valence
  FROM (
    SELECT song_id, sum(play_count)::integer AS play_count
    FROM song_window_plays
    WHERE song_id IN (SELECT song_id FROM play_summary_dirty)
    GROUP BY song_id
  ) t
  JOIN songs s ON s.id = t.song_id;

  DELETE FROM play_summary_dirty;
  GET DIAGNOSTICS taken = ROW_COUNT;
  RETURN taken;
END $$;
