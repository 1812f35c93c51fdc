CREATE TABLE "song_window_plays" (
	"song_id" integer NOT NULL,
	"time_window" text NOT NULL,
	"play_count" integer NOT NULL,
	CONSTRAINT "song_window_plays_song_id_time_window_pk" PRIMARY KEY("song_id","time_window"),
	CONSTRAINT "song_window_plays_count" CHECK ("song_window_plays"."play_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "song_window_plays" ADD CONSTRAINT "song_window_plays_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plays_song_event_idx" ON "plays" USING btree ("song_id","event_id","started_at");