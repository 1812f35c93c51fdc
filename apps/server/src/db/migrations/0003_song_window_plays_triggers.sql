-- Keeps song_window_plays equal to
--   select song_id, coalesce(time_window, ''), count(*) from plays group by 1, 2
-- with statement-level triggers on plays. Transition tables give each trigger all rows a
-- statement changed at once, so a 50,000-row INSERT costs one aggregate and one upsert, not
-- 50,000 row triggers. PostgreSQL allows only one event per trigger with transition tables,
-- hence one trigger per event. Every write touches the summary rows in (song_id, time_window)
-- order, so two transactions changing plays of the same songs wait for each other instead of
-- deadlocking.

-- Applies net changes of play counts (song_ids[i], time_windows[i]) += deltas[i], keys sorted.
-- Losses are UPDATEs, not upserts: an upsert checks play_count >= 0 on the proposed row before it
-- looks for a conflict, and a loss for a key that has no row is normal (deleting a song removes
-- its summary rows by cascade, maybe before its plays' delete trigger runs). A count that would go
-- below 0 means the summary and plays disagree: the check constraint stops the write rather than
-- keep a wrong number.
CREATE FUNCTION song_window_plays_apply(song_ids integer[], time_windows text[], deltas integer[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1
  FROM song_window_plays s
  JOIN unnest(song_ids, time_windows) AS d(song_id, time_window)
    ON s.song_id = d.song_id AND s.time_window = d.time_window
  ORDER BY s.song_id, s.time_window
  FOR UPDATE OF s;

  UPDATE song_window_plays s SET play_count = s.play_count + d.delta
  FROM unnest(song_ids, time_windows, deltas) AS d(song_id, time_window, delta)
  WHERE d.delta < 0 AND s.song_id = d.song_id AND s.time_window = d.time_window;

  DELETE FROM song_window_plays s
  USING unnest(song_ids, time_windows, deltas) AS d(song_id, time_window, delta)
  WHERE d.delta < 0 AND s.song_id = d.song_id AND s.time_window = d.time_window AND s.play_count = 0;

  INSERT INTO song_window_plays AS s (song_id, time_window, play_count)
  SELECT d.song_id, d.time_window, d.delta
  FROM unnest(song_ids, time_windows, deltas) AS d(song_id, time_window, delta)
  WHERE d.delta > 0
  ORDER BY d.song_id, d.time_window
  ON CONFLICT (song_id, time_window) DO UPDATE SET play_count = s.play_count + excluded.play_count;
END $$;
--> statement-breakpoint

-- Inserts only add: one upsert, the hot path of recordPlays and imports.
CREATE FUNCTION song_window_plays_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO song_window_plays AS s (song_id, time_window, play_count)
  SELECT song_id, coalesce(time_window, ''), count(*)::integer
  FROM new_plays
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT (song_id, time_window) DO UPDATE SET play_count = s.play_count + excluded.play_count;
  RETURN NULL;
END $$;
--> statement-breakpoint

CREATE FUNCTION song_window_plays_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  song_ids integer[];
  time_windows text[];
  deltas integer[];
BEGIN
  SELECT array_agg(song_id ORDER BY song_id, time_window),
         array_agg(time_window ORDER BY song_id, time_window),
         array_agg(delta ORDER BY song_id, time_window)
  INTO song_ids, time_windows, deltas
  FROM (
    SELECT song_id, coalesce(time_window, '') AS time_window, -count(*)::integer AS delta
    FROM old_plays
    GROUP BY 1, 2
  ) changes;
  IF song_ids IS NOT NULL THEN
    PERFORM song_window_plays_apply(song_ids, time_windows, deltas);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint

-- An update moves a play from its old key to its new one; updates that change neither song_id
-- nor time_window (a social set to null, an end time) net to zero and write nothing.
CREATE FUNCTION song_window_plays_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  song_ids integer[];
  time_windows text[];
  deltas integer[];
BEGIN
  SELECT array_agg(song_id ORDER BY song_id, time_window),
         array_agg(time_window ORDER BY song_id, time_window),
         array_agg(delta ORDER BY song_id, time_window)
  INTO song_ids, time_windows, deltas
  FROM (
    SELECT song_id, time_window, sum(delta)::integer AS delta
    FROM (
      SELECT song_id, coalesce(time_window, '') AS time_window, 1 AS delta FROM new_plays
      UNION ALL
      SELECT song_id, coalesce(time_window, '') AS time_window, -1 AS delta FROM old_plays
    ) moves
    GROUP BY 1, 2
    HAVING sum(delta) <> 0
  ) changes;
  IF song_ids IS NOT NULL THEN
    PERFORM song_window_plays_apply(song_ids, time_windows, deltas);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint

-- DELETE, not TRUNCATE: `truncate songs, plays ... cascade` empties song_window_plays in the same
-- command, and a nested TRUNCATE of a table that command is using is refused.
CREATE FUNCTION song_window_plays_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM song_window_plays;
  RETURN NULL;
END $$;
--> statement-breakpoint

CREATE TRIGGER song_window_plays_insert AFTER INSERT ON plays
  REFERENCING NEW TABLE AS new_plays
  FOR EACH STATEMENT EXECUTE FUNCTION song_window_plays_after_insert();
--> statement-breakpoint
CREATE TRIGGER song_window_plays_delete AFTER DELETE ON plays
  REFERENCING OLD TABLE AS old_plays
  FOR EACH STATEMENT EXECUTE FUNCTION song_window_plays_after_delete();
--> statement-breakpoint
CREATE TRIGGER song_window_plays_update AFTER UPDATE ON plays
  REFERENCING OLD TABLE AS old_plays NEW TABLE AS new_plays
  FOR EACH STATEMENT EXECUTE FUNCTION song_window_plays_after_update();
--> statement-breakpoint
CREATE TRIGGER song_window_plays_truncate AFTER TRUNCATE ON plays
  FOR EACH STATEMENT EXECUTE FUNCTION song_window_plays_after_truncate();
--> statement-breakpoint

-- Backfill. Migrations run in one transaction and CREATE TRIGGER above already holds a lock on
-- plays that blocks writes until commit, so no play can slip between the count and the triggers.
INSERT INTO song_window_plays (song_id, time_window, play_count)
SELECT song_id, coalesce(time_window, ''), count(*)::integer
FROM plays
GROUP BY 1, 2;
