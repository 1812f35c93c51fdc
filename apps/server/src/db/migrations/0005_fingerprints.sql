CREATE TABLE "fingerprints" (
	"hash" integer NOT NULL,
	"song_id" integer NOT NULL,
	"t" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fingerprints" ADD CONSTRAINT "fingerprints_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fingerprints_hash_idx" ON "fingerprints" USING btree ("hash","song_id","t");--> statement-breakpoint
CREATE INDEX "fingerprints_song_idx" ON "fingerprints" USING btree ("song_id");