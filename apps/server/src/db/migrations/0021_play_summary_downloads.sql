-- Downloads at 10,000,000 plays: "played but no file" (download stats, 268 ms p95) probed the
-- plays of each of 30,000 songs without a file, and the download preview (384 ms p95) summed
-- song_window_plays for each of 15,000 candidates after reading every song (docs/performance.md).
-- The play summary now keeps, per song with plays, whether it has a file and its download
-- priority, and the number of songs played without a file; a song's file or (while it has none)
-- its priority changing marks it dirty like its genre does. Readers correct the folded values by
-- the dirty songs as play_summary_pending does (services/downloads.ts), so answers stay exact.
ALTER TABLE "play_summary_songs" ADD COLUMN "file_present" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "play_summary_songs" ADD COLUMN "download_priority" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "play_summary_totals" ADD COLUMN "played_no_file" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint

-- As in migration 0014, and for a change of the file, or of the priority of a song without one.
DROP TRIGGER play_summary_song_update ON songs;
--> statement-breakpoint
CREATE TRIGGER play_summary_song_update
  AFTER UPDATE OF title, genre, bpm, energy_level, danceability, valence, file_present, download_priority ON songs
  FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.genre IS DISTINCT FROM NEW.genre
        OR OLD.bpm IS DISTINCT FROM NEW.bpm OR OLD.energy_level IS DISTINCT FROM NEW.energy_level
        OR OLD.danceability IS DISTINCT FROM NEW.danceability OR OLD.valence IS DISTINCT FROM NEW.valence
        OR OLD.file_present IS DISTINCT FROM NEW.file_present
        OR (OLD.download_priority IS DISTINCT FROM NEW.download_priority AND NOT NEW.file_present))
  EXECUTE FUNCTION play_summary_mark_song();
--> statement-breakpoint

-- Backfill: the trigger above holds songs locked against writers until this migration commits,
-- and ALTER TABLE play_summary_songs against folds, so the values copied here are current.
UPDATE play_summary_songs p SET file_present = s.file_present, download_priority = s.download_priority
FROM songs s WHERE s.id = p.song_id;
--> statement-breakpoint
UPDATE play_summary_totals
SET played_no_file = (SELECT count(*) FROM play_summary_songs WHERE NOT file_present)
WHERE id = 1;
--> statement-breakpoint
CREATE INDEX "play_summary_songs_download_idx" ON "play_summary_songs" USING btree ("download_priority" DESC NULLS LAST,"song_id","play_count") WHERE not "play_summary_songs"."file_present";
--> statement-breakpoint

-- As in migration 0016, with the file and priority kept per song and the songs played without a
-- file counted.
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
    file_present, download_priority)
  SELECT s.id, t.play_count, s.title, coalesce(s.genre, ''), s.bpm, s.energy_level, s.danceability, s.valence,
    s.file_present, s.download_priority
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
