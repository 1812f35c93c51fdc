-- The Songs screen's total under its filters read the whole songs table at 200,000 songs (genre,
-- age and file filters: 150 ms in EXPLAIN ANALYZE, 183 ms p95, docs/performance.md). The filters'
-- columns are now one index, counted from the index alone (4 ms for that filter, 26 ms for every
-- song with a file, with PostgreSQL 18's skip scan when no genre is given). It leads with genre,
-- so it serves what songs_genre_idx served.
DROP INDEX "songs_genre_idx";--> statement-breakpoint
CREATE INDEX "songs_filter_idx" ON "songs" USING btree ("genre","file_present","release_date","energy_level","spotify_popularity","analyzed_at");