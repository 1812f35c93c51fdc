CREATE TABLE "fingerprint_peaks" (
	"song_id" integer PRIMARY KEY NOT NULL,
	"peaks" "bytea" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fingerprint_peaks" ADD CONSTRAINT "fingerprint_peaks_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;