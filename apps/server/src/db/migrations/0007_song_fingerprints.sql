CREATE TABLE "song_fingerprints" (
	"song_id" integer PRIMARY KEY NOT NULL,
	"revision" bigserial NOT NULL,
	"hashes" "bytea" NOT NULL,
	"peaks" "bytea" NOT NULL
);
--> statement-breakpoint
DROP TABLE "fingerprint_peaks" CASCADE;--> statement-breakpoint
DROP TABLE "fingerprints" CASCADE;--> statement-breakpoint
ALTER TABLE "song_fingerprints" ADD CONSTRAINT "song_fingerprints_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The old per-hash rows are gone: every song indexed with them is queued again by the
-- fingerprint job at the next start (fingerprint_version null = not indexed).
UPDATE "songs" SET "fingerprint_version" = NULL, "fingerprinted_at" = NULL WHERE "fingerprint_version" IS NOT NULL;
