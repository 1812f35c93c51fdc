-- The play summary the calls over ALL plays read (docs/metrics.md, "Calls over all plays";
-- docs/decisions.md 2026-11-26). play_summary holds plays and play-weighted feature sums per
-- (time window, genre) as of the last fold; play_summary_songs and play_summary_song_windows hold
-- what it was summed from, per song. Writers of plays and songs only APPEND the song's id to
-- play_summary_dirty: no row is shared between writers, so they never wait on each other or on
-- the fold, and no lock order can deadlock. A reader adds to play_summary the pending change of
-- the dirty songs (play_summary_pending: their current share minus their folded share), all in
-- its one snapshot, so it sees exactly the committed plays and songs of that snapshot. The fold
-- (services/analytics/play-summary.ts) moves the pending change into play_summary in a
-- REPEATABLE READ transaction, one process at a time.

-- One row per (dirty song, window): the song's current share (song_window_plays x songs) and,
-- negated, its folded share (play_summary_song_windows x play_summary_songs). Sums are exact
-- (numeric, int8), so adding and taking away any number of times never drifts.
CREATE VIEW play_summary_pending AS
WITH dirty AS (SELECT DISTINCT song_id FROM play_summary_dirty)
SELECT c.time_window, coalesce(s.genre, '') AS genre, c.play_count::int8 AS plays,
       coalesce(s.bpm::numeric * c.play_count, 0) AS bpm_sum,
       (CASE WHEN s.bpm IS NULL THEN 0 ELSE c.play_count END)::int8 AS bpm_n,
       coalesce(s.energy_level::int8 * c.play_count, 0) AS energy_sum,
       (CASE WHEN s.energy_level IS NULL THEN 0 ELSE c.play_count END)::int8 AS energy_n,
       coalesce(s.valence::int8 * c.play_count, 0) AS valence_sum,
       (CASE WHEN s.valence IS NULL THEN 0 ELSE c.play_count END)::int8 AS valence_n,
       coalesce(s.danceability::int8 * c.play_count, 0) AS danceability_sum,
       (CASE WHEN s.danceability IS NULL THEN 0 ELSE c.play_count END)::int8 AS danceability_n
FROM dirty d
JOIN song_window_plays c ON c.song_id = d.song_id
JOIN songs s ON s.id = d.song_id
UNION ALL
SELECT w.time_window, s.genre, -w.play_count::int8,
       -coalesce(s.bpm::numeric * w.play_count, 0),
       -(CASE WHEN s.bpm IS NULL THEN 0 ELSE w.play_count END)::int8,
       -coalesce(s.energy_level::int8 * w.play_count, 0),
       -(CASE WHEN s.energy_level IS NULL THEN 0 ELSE w.play_count END)::int8,
       -coalesce(s.valence::int8 * w.play_count, 0),
       -(CASE WHEN s.valence IS NULL THEN 0 ELSE w.play_count END)::int8,
       -coalesce(s.danceability::int8 * w.play_count, 0),
       -(CASE WHEN s.danceability IS NULL THEN 0 ELSE w.play_count END)::int8
FROM dirty d
JOIN play_summary_song_windows w ON w.song_id = d.song_id
JOIN play_summary_songs s ON s.song_id = d.song_id;
--> statement-breakpoint

-- Folds the pending change of every dirty song into play_summary and forgets those songs. Call it
-- in a REPEATABLE READ transaction (or with writers locked out, as this migration does): every
-- statement must see the same dirty rows, and the final DELETE removes only those, so a song
-- marked meanwhile by a writer that commits later stays dirty for the next fold. Only the fold
-- writes play_summary, play_summary_songs and play_summary_song_windows; the caller holds the
-- advisory lock that lets one fold run at a time. Returns the number of dirty rows taken in.
CREATE FUNCTION play_summary_fold() RETURNS integer LANGUAGE plpgsql AS $$
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
--> statement-breakpoint

-- Marking: statement-level triggers on plays (one per event, as transition tables require), a
-- row-level one on songs for the columns the summary uses.
CREATE FUNCTION play_summary_mark_new_plays() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO play_summary_dirty (song_id) SELECT DISTINCT song_id FROM new_plays;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION play_summary_mark_old_plays() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO play_summary_dirty (song_id) SELECT DISTINCT song_id FROM old_plays;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A play moved to another song or window marks both songs; other updates (hours, social) none.
CREATE FUNCTION play_summary_mark_moved_plays() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO play_summary_dirty (song_id)
  SELECT DISTINCT song_id FROM (
    SELECT n.song_id FROM new_plays n JOIN old_plays o ON o.id = n.id
    WHERE n.song_id <> o.song_id OR n.time_window IS DISTINCT FROM o.time_window
    UNION ALL
    SELECT o.song_id FROM new_plays n JOIN old_plays o ON o.id = n.id
    WHERE n.song_id <> o.song_id OR n.time_window IS DISTINCT FROM o.time_window
  ) moved;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION play_summary_mark_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO play_summary_dirty (song_id) SELECT song_id FROM play_summary_songs;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION play_summary_mark_song() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO play_summary_dirty (song_id) VALUES (NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint

CREATE TRIGGER play_summary_insert AFTER INSERT ON plays
  REFERENCING NEW TABLE AS new_plays
  FOR EACH STATEMENT EXECUTE FUNCTION play_summary_mark_new_plays();
--> statement-breakpoint
CREATE TRIGGER play_summary_delete AFTER DELETE ON plays
  REFERENCING OLD TABLE AS old_plays
  FOR EACH STATEMENT EXECUTE FUNCTION play_summary_mark_old_plays();
--> statement-breakpoint
CREATE TRIGGER play_summary_update AFTER UPDATE ON plays
  REFERENCING OLD TABLE AS old_plays NEW TABLE AS new_plays
  FOR EACH STATEMENT EXECUTE FUNCTION play_summary_mark_moved_plays();
--> statement-breakpoint
CREATE TRIGGER play_summary_truncate AFTER TRUNCATE ON plays
  FOR EACH STATEMENT EXECUTE FUNCTION play_summary_mark_all();
--> statement-breakpoint
-- Row-level with WHEN: a score recompute updating every song marks none of them.
CREATE TRIGGER play_summary_song_update AFTER UPDATE OF title, genre, bpm, energy_level, danceability, valence ON songs
  FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.genre IS DISTINCT FROM NEW.genre
        OR OLD.bpm IS DISTINCT FROM NEW.bpm OR OLD.energy_level IS DISTINCT FROM NEW.energy_level
        OR OLD.danceability IS DISTINCT FROM NEW.danceability OR OLD.valence IS DISTINCT FROM NEW.valence)
  EXECUTE FUNCTION play_summary_mark_song();
--> statement-breakpoint

-- Backfill: every song with plays is dirty, and one fold sums them. CREATE TRIGGER above holds
-- locks on plays and songs that block their writers until this migration commits.
INSERT INTO play_summary_dirty (song_id) SELECT DISTINCT song_id FROM song_window_plays;
--> statement-breakpoint
SELECT play_summary_fold();
