-- Search of title and artist (`search_key like '%...%'`, services/songs.ts) through a trigram
-- index instead of reading every song: at 200,000 songs 130-160 ms became 1-3 ms for a needle of
-- three letters or more (docs/performance.md). pg_trgm ships with PostgreSQL and is a trusted
-- extension (PostgreSQL 13+): the owner of the database may create it without superuser rights.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "songs_search_key_trgm_idx" ON "songs" USING gin ("search_key" gin_trgm_ops);
