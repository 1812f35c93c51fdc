-- Counts and sums over ALL songs for the status calls (analysis status, system status, download
-- preview's means: 285-384 ms p95 at 200,000 songs, each reading the whole songs table;
-- docs/metrics.md "Counts over all songs", docs/decisions.md 2026-11-26). Triggers on songs only
-- APPEND signed rows to song_counts: +1 with a row's values as it is now, -1 as it was. No row is
-- shared between writers, so they never wait on each other and no lock order can deadlock; each
-- appended row depends on the changed song row alone, so there is no write skew either. A reader
-- sums the rows of the groups it asks for: exactly the songs of its snapshot. The fold
-- (song_counts_fold, called by services/song-counts.ts) collapses the rows it sees into one per
-- group, in one statement.
CREATE TABLE "song_counts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"file_present" boolean NOT NULL,
	"analyzed" boolean NOT NULL,
	"analysis_failed" boolean NOT NULL,
	"fingerprinted" boolean NOT NULL,
	"analysis_version" text,
	"songs" bigint NOT NULL,
	"file_size_sum" numeric NOT NULL,
	"file_size_n" bigint NOT NULL,
	"analysis_ms_sum" bigint NOT NULL,
	"analysis_ms_n" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "songs_analysis_failures_idx" ON "songs" USING btree ("id") WHERE "songs"."analysis_error" is not null and "songs"."file_present";
--> statement-breakpoint

-- Collapses the rows this statement sees into one per group (a group without songs has every sum
-- at 0 and goes). One statement, so one snapshot: rows appended by writers that commit later are
-- neither deleted nor summed, and a reader sees the rows before or after, whose sums are equal.
-- Returns the number of rows taken in.
CREATE FUNCTION song_counts_fold() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  taken integer;
BEGIN
  WITH taken_rows AS (
    DELETE FROM song_counts RETURNING file_present, analyzed, analysis_failed, fingerprinted, analysis_version, songs, file_size_sum, file_size_n, analysis_ms_sum, analysis_ms_n
  ), folded AS (
    INSERT INTO song_counts (file_present, analyzed, analysis_failed, fingerprinted, analysis_version, songs, file_size_sum, file_size_n, analysis_ms_sum, analysis_ms_n)
    SELECT file_present, analyzed, analysis_failed, fingerprinted, analysis_version, sum(songs),
      sum(file_size_sum), sum(file_size_n), sum(analysis_ms_sum), sum(analysis_ms_n)
    FROM taken_rows
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(songs) <> 0
    RETURNING 1
  )
  SELECT count(*) INTO taken FROM taken_rows;
  RETURN taken;
END $$;
--> statement-breakpoint

CREATE FUNCTION song_counts_add_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO song_counts (file_present, analyzed, analysis_failed, fingerprinted, analysis_version, songs, file_size_sum, file_size_n, analysis_ms_sum, analysis_ms_n)
  SELECT file_present, analyzed_at IS NOT NULL, analysis_error IS NOT NULL, fingerprinted_at IS NOT NULL,
    analysis_version, count(*), coalesce(sum(file_size_bytes), 0), count(file_size_bytes),
    coalesce(sum(analysis_duration_ms), 0), count(analysis_duration_ms)
  FROM new_songs
  GROUP BY 1, 2, 3, 4, 5;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION song_counts_take_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO song_counts (file_present, analyzed, analysis_failed, fingerprinted, analysis_version, songs, file_size_sum, file_size_n, analysis_ms_sum, analysis_ms_n)
  SELECT file_present, analyzed_at IS NOT NULL, analysis_error IS NOT NULL, fingerprinted_at IS NOT NULL,
    analysis_version, -count(*), -coalesce(sum(file_size_bytes), 0), -count(file_size_bytes),
    -coalesce(sum(analysis_duration_ms), 0), -count(analysis_duration_ms)
  FROM old_songs
  GROUP BY 1, 2, 3, 4, 5;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A changed row: out as it was, in as it is (the trigger's WHEN skips updates of other columns,
-- such as the score recompute's).
CREATE FUNCTION song_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO song_counts (file_present, analyzed, analysis_failed, fingerprinted, analysis_version, songs, file_size_sum, file_size_n, analysis_ms_sum, analysis_ms_n)
  VALUES (OLD.file_present, OLD.analyzed_at IS NOT NULL, OLD.analysis_error IS NOT NULL,
     OLD.fingerprinted_at IS NOT NULL, OLD.analysis_version, -1, -1 * coalesce(OLD.file_size_bytes, 0),
     -1 * (OLD.file_size_bytes IS NOT NULL)::int, -1 * coalesce(OLD.analysis_duration_ms, 0),
     -1 * (OLD.analysis_duration_ms IS NOT NULL)::int),
    (NEW.file_present, NEW.analyzed_at IS NOT NULL, NEW.analysis_error IS NOT NULL,
     NEW.fingerprinted_at IS NOT NULL, NEW.analysis_version, 1, 1 * coalesce(NEW.file_size_bytes, 0),
     1 * (NEW.file_size_bytes IS NOT NULL)::int, 1 * coalesce(NEW.analysis_duration_ms, 0),
     1 * (NEW.analysis_duration_ms IS NOT NULL)::int);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A truncate takes every group out: its negated sums appended (TRUNCATE locks songs, so no other
-- writer adds rows meanwhile; a concurrent fold leaves the sums as they are).
CREATE FUNCTION song_counts_take_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO song_counts (file_present, analyzed, analysis_failed, fingerprinted, analysis_version, songs, file_size_sum, file_size_n, analysis_ms_sum, analysis_ms_n)
  SELECT file_present, analyzed, analysis_failed, fingerprinted, analysis_version, -sum(songs),
    -sum(file_size_sum), -sum(file_size_n), -sum(analysis_ms_sum), -sum(analysis_ms_n)
  FROM song_counts
  GROUP BY 1, 2, 3, 4, 5
  HAVING sum(songs) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint

CREATE TRIGGER song_counts_insert AFTER INSERT ON songs
  REFERENCING NEW TABLE AS new_songs
  FOR EACH STATEMENT EXECUTE FUNCTION song_counts_add_new();
--> statement-breakpoint
CREATE TRIGGER song_counts_delete AFTER DELETE ON songs
  REFERENCING OLD TABLE AS old_songs
  FOR EACH STATEMENT EXECUTE FUNCTION song_counts_take_old();
--> statement-breakpoint
CREATE TRIGGER song_counts_update AFTER UPDATE ON songs
  FOR EACH ROW WHEN (
    old.file_present IS DISTINCT FROM new.file_present
    OR (old.analyzed_at IS NULL) <> (new.analyzed_at IS NULL)
    OR (old.analysis_error IS NULL) <> (new.analysis_error IS NULL)
    OR (old.fingerprinted_at IS NULL) <> (new.fingerprinted_at IS NULL)
    OR old.analysis_version IS DISTINCT FROM new.analysis_version
    OR old.file_size_bytes IS DISTINCT FROM new.file_size_bytes
    OR old.analysis_duration_ms IS DISTINCT FROM new.analysis_duration_ms
  ) EXECUTE FUNCTION song_counts_move();
--> statement-breakpoint
CREATE TRIGGER song_counts_truncate AFTER TRUNCATE ON songs
  FOR EACH STATEMENT EXECUTE FUNCTION song_counts_take_all();
--> statement-breakpoint

-- The songs as they are: the triggers above hold songs locked against writers (SHARE ROW
-- EXCLUSIVE) until this migration commits, so no change slips between this count and them.
INSERT INTO song_counts (file_present, analyzed, analysis_failed, fingerprinted, analysis_version, songs, file_size_sum, file_size_n, analysis_ms_sum, analysis_ms_n)
  SELECT file_present, analyzed_at IS NOT NULL, analysis_error IS NOT NULL, fingerprinted_at IS NOT NULL,
    analysis_version, count(*), coalesce(sum(file_size_bytes), 0), count(file_size_bytes),
    coalesce(sum(analysis_duration_ms), 0), count(analysis_duration_ms)
  FROM songs
  GROUP BY 1, 2, 3, 4, 5;
