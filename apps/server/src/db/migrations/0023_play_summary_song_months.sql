-- Overplay trend and song performance at 10,000,000 plays (docs/performance.md): a song's plays
-- per month were counted from its plays, each converted to its event's time zone (the most played
-- song's 36,139 plays: 35-88 ms). The fold now keeps them per song (month as in
-- services/analytics/monthly-plays.ts: the night's month, 06:00 boundary, in the event's time
-- zone); readers take them for a song that is not dirty and count a dirty song from plays, in one
-- statement. A change of an event's time zone marks the songs of its plays dirty.

-- Waits for a fold running in another process (it holds this key, play-summary.ts FOLD_LOCK_KEY)
-- and keeps new ones out until commit: a fold with the previous function would otherwise write
-- rows without the new values and take their dirty marks.
SELECT pg_advisory_xact_lock(2003006310);
--> statement-breakpoint
CREATE TABLE "play_summary_song_months" (
	"song_id" integer NOT NULL,
	"month" text NOT NULL,
	"play_count" integer NOT NULL,
	CONSTRAINT "play_summary_song_months_song_id_month_pk" PRIMARY KEY("song_id","month")
);
--> statement-breakpoint
CREATE FUNCTION play_summary_mark_event_songs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO play_summary_dirty (song_id) SELECT DISTINCT song_id FROM plays WHERE event_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER play_summary_event_timezone AFTER UPDATE OF timezone ON events
  FOR EACH ROW WHEN (OLD.timezone IS DISTINCT FROM NEW.timezone)
  EXECUTE FUNCTION play_summary_mark_event_songs();
--> statement-breakpoint

-- Backfill every song's months from this transaction's plays. The trigger above holds events, and
-- the lock above the folds, until commit; a play written by a transaction this statement does not
-- see marks its song dirty, and readers then count that song from plays.
INSERT INTO play_summary_song_months (song_id, month, play_count)
SELECT p.song_id, to_char((p.started_at AT TIME ZONE e.timezone) - interval '6 hours', 'YYYY-MM'), count(*)::integer
FROM plays p JOIN events e ON e.id = p.event_id
GROUP BY 1, 2;
--> statement-breakpoint

-- As in migration 0022, with each song's months kept.
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

  DELETE FROM play_summary_song_months m USING (SELECT DISTINCT song_id FROM play_summary_dirty) d
  WHERE m.song_id = d.song_id;
  INSERT INTO play_summary_song_months (song_id, month, play_count)
  SELECT p.song_id, to_char((p.started_at AT TIME ZONE e.timezone) - interval '6 hours', 'YYYY-MM'), count(*)::integer
  FROM plays p JOIN events e ON e.id = p.event_id
  WHERE p.song_id IN (SELECT song_id FROM play_summary_dirty)
  GROUP BY 1, 2;

  DELETE FROM play_summary_dirty;
  GET DIAGNOSTICS taken = ROW_COUNT;
  RETURN taken;
END $$;
