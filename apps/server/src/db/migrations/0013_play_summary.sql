CREATE TABLE "play_summary" (
	"time_window" text NOT NULL,
	"genre" text NOT NULL,
	"plays" bigint NOT NULL,
	"bpm_sum" numeric NOT NULL,
	"bpm_n" bigint NOT NULL,
	"energy_sum" bigint NOT NULL,
	"energy_n" bigint NOT NULL,
	"valence_sum" bigint NOT NULL,
	"valence_n" bigint NOT NULL,
	"danceability_sum" bigint NOT NULL,
	"danceability_n" bigint NOT NULL,
	CONSTRAINT "play_summary_time_window_genre_pk" PRIMARY KEY("time_window","genre")
);
--> statement-breakpoint
CREATE TABLE "play_summary_dirty" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"song_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "play_summary_song_windows" (
	"song_id" integer NOT NULL,
	"time_window" text NOT NULL,
	"play_count" integer NOT NULL,
	CONSTRAINT "play_summary_song_windows_song_id_time_window_pk" PRIMARY KEY("song_id","time_window")
);
--> statement-breakpoint
CREATE TABLE "play_summary_songs" (
	"song_id" integer PRIMARY KEY NOT NULL,
	"play_count" integer NOT NULL,
	"title" text NOT NULL,
	"genre" text NOT NULL,
	"bpm" real,
	"energy_level" smallint,
	"danceability" smallint,
	"valence" smallint
);
--> statement-breakpoint
CREATE INDEX "play_summary_songs_top_idx" ON "play_summary_songs" USING btree ("play_count" DESC NULLS LAST,"title","song_id");