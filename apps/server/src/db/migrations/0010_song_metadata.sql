CREATE TABLE "song_metadata_lookups" (
	"song_id" integer NOT NULL,
	"provider" text NOT NULL,
	"status" text NOT NULL,
	"result" jsonb,
	"error" text,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "song_metadata_lookups_song_id_provider_pk" PRIMARY KEY("song_id","provider"),
	CONSTRAINT "metadata_lookup_provider" CHECK ("song_metadata_lookups"."provider" in ('musicbrainz', 'itunes', 'spotify')),
	CONSTRAINT "metadata_lookup_status" CHECK ("song_metadata_lookups"."status" in ('found', 'not_found', 'error'))
);
--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "isrc" text;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "artwork_url" text;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "preview_url" text;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "field_sources" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "spotify_popularity_history" ADD COLUMN "source" text DEFAULT 'spotify' NOT NULL;--> statement-breakpoint
ALTER TABLE "song_metadata_lookups" ADD CONSTRAINT "song_metadata_lookups_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spotify_popularity_history" ADD CONSTRAINT "popularity_history_source" CHECK ("spotify_popularity_history"."source" in ('spotify', 'demo'));--> statement-breakpoint
-- Before this migration only the demo generator wrote popularity readings.
UPDATE "spotify_popularity_history" SET "source" = 'demo';--> statement-breakpoint
-- Sources of the values already stored, from what wrote them before sources were recorded: the
-- demo generator (a demo database has demo plays), a cloud recogniser (its id in external_ids),
-- file tags (a song with tags), a DJ program's import (no file, no tags, no recogniser), the
-- analyser (analyzed_at set); popularity was written only by the demo and by DJ edits.
UPDATE "songs" s SET "field_sources" = jsonb_strip_nulls(jsonb_build_object(
  'title', src.base, 'artist', src.base,
  'album', CASE WHEN s.album IS NOT NULL THEN src.base END,
  'genre', CASE WHEN s.genre IS NOT NULL THEN src.base END,
  'release_date', CASE WHEN s.release_date IS NOT NULL THEN src.base END,
  'duration_ms', CASE WHEN s.duration_ms IS NOT NULL THEN src.base END,
  'bpm', CASE WHEN s.bpm IS NOT NULL THEN src.analysed END,
  'key', CASE WHEN s.key IS NOT NULL THEN src.analysed END,
  'energy_level', CASE WHEN s.energy_level IS NOT NULL THEN src.analysed END,
  'danceability', CASE WHEN s.danceability IS NOT NULL THEN src.analysed END,
  'valence', CASE WHEN s.valence IS NOT NULL THEN src.analysed END,
  'spotify_popularity', CASE WHEN s.spotify_popularity IS NOT NULL THEN src.popularity END
))
FROM (
  SELECT t.id,
    CASE WHEN d.demo OR t.analysis_version LIKE 'demo-generator/%' THEN 'demo'
         WHEN t.external_ids ? 'acrcloud' THEN 'acrcloud'
         WHEN t.external_ids ? 'audd' THEN 'audd'
         WHEN t.tags IS NOT NULL THEN 'tags'
         WHEN t.file_path IS NULL THEN 'dj_software' END AS base,
    CASE WHEN d.demo OR t.analysis_version LIKE 'demo-generator/%' THEN 'demo'
         WHEN t.analyzed_at IS NOT NULL THEN 'analyser'
         WHEN t.file_path IS NULL THEN 'dj_software' END AS analysed,
    CASE WHEN d.demo THEN 'demo' ELSE 'dj' END AS popularity
  FROM "songs" t CROSS JOIN (SELECT EXISTS (SELECT 1 FROM "plays" WHERE "source" = 'demo') AS demo) d
) src
WHERE src.id = s.id;--> statement-breakpoint
UPDATE "songs" SET "isrc" = upper("external_ids"->>'isrc') WHERE "external_ids" ? 'isrc';
