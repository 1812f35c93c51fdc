-- The fresh songs pool at 200,000 songs read the whole songs table twice (its first 100 in order:
-- 349 ms; its counts per age category: 203 ms, docs/performance.md). Its order is now an index,
-- and its counts read (overplay_score, release_date, genre) from an index alone; that index also
-- serves what songs_overplay_idx served (a range or order on overplay_score).
DROP INDEX "songs_overplay_idx";--> statement-breakpoint
CREATE INDEX "songs_overplay_release_genre_idx" ON "songs" USING btree ("overplay_score","release_date","genre");--> statement-breakpoint
CREATE INDEX "songs_fresh_pool_order_idx" ON "songs" USING btree ("overplay_score","spotify_popularity" DESC NULLS LAST,"title","id");