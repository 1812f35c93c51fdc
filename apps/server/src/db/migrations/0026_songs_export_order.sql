-- The whole library's CSV export (200,000 songs) sorted every song before its first row (first
-- byte after 0.8-1.3 s at 10,000,000 plays, docs/performance.md): its order (artist, title, id)
-- is now one index, which also carries (INCLUDE, written by hand: drizzle has none) the columns
-- the exports write and the Songs screen's filters read, so the export reads the songs from the
-- index alone in its order, its first rows at once (services/interop/export.ts). An index scan
-- of (artist, title) reading each song from the table instead took 2-3 s for every song in
-- EXPLAIN ANALYZE (one random page per song) against 0.9 s from this index. It leads with
-- (artist, title), so it serves what songs_artist_title_idx served.
DROP INDEX "songs_artist_title_idx";--> statement-breakpoint
CREATE INDEX "songs_artist_title_id_idx" ON "songs" USING btree ("artist","title","id") INCLUDE ("album","genre","bpm","key","duration_ms","file_path","file_present","created_at","release_date","energy_level","spotify_popularity","analyzed_at");
