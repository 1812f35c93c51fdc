CREATE TABLE "download_queue" (
	"id" serial PRIMARY KEY NOT NULL,
	"song_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"priority_score" double precision NOT NULL,
	"download_attempts" integer DEFAULT 0 NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "download_status" CHECK ("download_queue"."status" in ('pending', 'downloading', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"location" text,
	"country_code" text,
	"is_festival" boolean DEFAULT false NOT NULL,
	"weight_override" real,
	"timezone" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_name_not_blank" CHECK (length(trim("events"."name")) > 0),
	CONSTRAINT "events_dates_ordered" CHECK ("events"."end_date" >= "events"."start_date"),
	CONSTRAINT "events_weight_range" CHECK ("events"."weight_override" is null or "events"."weight_override" between 1 and 100),
	CONSTRAINT "events_country_code" CHECK ("events"."country_code" is null or "events"."country_code" ~ '^[A-Z]{2}$')
);
--> statement-breakpoint
CREATE TABLE "playlist_songs" (
	"playlist_id" integer NOT NULL,
	"position" integer NOT NULL,
	"song_id" integer NOT NULL,
	CONSTRAINT "playlist_songs_playlist_id_position_pk" PRIMARY KEY("playlist_id","position")
);
--> statement-breakpoint
CREATE TABLE "playlists" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"age_category" text,
	"genre" text,
	"time_window" text,
	"energy_level" text,
	"group_key" text NOT NULL,
	"song_count" integer DEFAULT 0 NOT NULL,
	"total_duration_seconds" double precision DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"file_name" text,
	"generated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plays" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"song_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"social_id" integer,
	"recording_id" integer,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"time_window" text,
	"source" text NOT NULL,
	"confidence" real,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plays_time_window" CHECK ("plays"."time_window" is null or "plays"."time_window" in ('20-22', '22-00', '00-02', '02-04', '04-06')),
	CONSTRAINT "plays_source" CHECK ("plays"."source" in ('recording', 'import', 'manual', 'demo')),
	CONSTRAINT "plays_confidence" CHECK ("plays"."confidence" is null or "plays"."confidence" between 0 and 1),
	CONSTRAINT "plays_end_after_start" CHECK ("plays"."ended_at" is null or "plays"."ended_at" >= "plays"."started_at")
);
--> statement-breakpoint
CREATE TABLE "recording_chunks" (
	"id" serial PRIMARY KEY NOT NULL,
	"recording_id" integer NOT NULL,
	"chunk_number" integer NOT NULL,
	"file_path" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"duration_seconds" double precision NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recording_chunks_number" CHECK ("recording_chunks"."chunk_number" >= 0),
	CONSTRAINT "recording_chunks_size" CHECK ("recording_chunks"."size_bytes" > 0)
);
--> statement-breakpoint
CREATE TABLE "recordings" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"filename" text NOT NULL,
	"source" text NOT NULL,
	"event_id" integer,
	"recorded_at" timestamp with time zone NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_chunk_at" timestamp with time zone DEFAULT now() NOT NULL,
	"duration_seconds" double precision DEFAULT 0 NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"processed" boolean DEFAULT false NOT NULL,
	"processed_at" timestamp with time zone,
	"error_message" text,
	CONSTRAINT "recordings_counts" CHECK ("recordings"."chunk_count" >= 0 and "recordings"."size_bytes" >= 0 and "recordings"."duration_seconds" >= 0)
);
--> statement-breakpoint
CREATE TABLE "scrape_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_url" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"rows_found" integer DEFAULT 0 NOT NULL,
	"inserted" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unparsed_dates" integer DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "scraped_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_key" text NOT NULL,
	"name" text NOT NULL,
	"url" text,
	"date_text" text NOT NULL,
	"start_date" date,
	"end_date" date,
	"location" text,
	"country_code" text,
	"continent" text,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"reviewed_action" text,
	"reviewed_notes" text,
	"reviewed_at" timestamp with time zone,
	"linked_event_id" integer,
	"potential_duplicates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"duplicates_checked_at" timestamp with time zone,
	"scraped_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scraped_reviewed_action" CHECK ("scraped_events"."reviewed_action" is null or "scraped_events"."reviewed_action" in ('approved', 'rejected', 'merged', 'created')),
	CONSTRAINT "scraped_reviewed_consistent" CHECK ("scraped_events"."is_reviewed" = ("scraped_events"."reviewed_action" is not null))
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"download_enabled" boolean DEFAULT false NOT NULL,
	"download_priority_threshold" real DEFAULT 50 NOT NULL,
	"minimum_plays_to_download" integer DEFAULT 3 NOT NULL,
	"party_weight" real DEFAULT 1 NOT NULL,
	"festival_weight" real DEFAULT 12 NOT NULL,
	"overplay_new_threshold" real DEFAULT 90 NOT NULL,
	"overplay_mid_threshold" real DEFAULT 70 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settings_single_row" CHECK ("settings"."id" = 1),
	CONSTRAINT "settings_threshold_range" CHECK ("settings"."download_priority_threshold" between 0 and 1000),
	CONSTRAINT "settings_min_plays_range" CHECK ("settings"."minimum_plays_to_download" between 1 and 50),
	CONSTRAINT "settings_party_range" CHECK ("settings"."party_weight" between 1 and 100),
	CONSTRAINT "settings_festival_range" CHECK ("settings"."festival_weight" between 1 and 100),
	CONSTRAINT "settings_festival_ge_party" CHECK ("settings"."festival_weight" >= "settings"."party_weight"),
	CONSTRAINT "settings_overplay_new_range" CHECK ("settings"."overplay_new_threshold" between 0 and 100),
	CONSTRAINT "settings_overplay_mid_range" CHECK ("settings"."overplay_mid_threshold" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "socials" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"name" text NOT NULL,
	"social_date" date NOT NULL,
	"start_time" time,
	"end_time" time,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "songs" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"artist" text NOT NULL,
	"album" text,
	"genre" text,
	"release_date" date,
	"search_key" text NOT NULL,
	"bpm" real,
	"key" text,
	"energy_level" smallint,
	"danceability" smallint,
	"valence" smallint,
	"spotify_popularity" smallint,
	"duration_ms" integer,
	"analyzed_at" timestamp with time zone,
	"analysis_version" text,
	"analysis_error" text,
	"features" jsonb,
	"file_path" text,
	"file_present" boolean DEFAULT false NOT NULL,
	"content_hash" text,
	"file_size_bytes" bigint,
	"overplay_score" real DEFAULT 0 NOT NULL,
	"exposure" double precision DEFAULT 0 NOT NULL,
	"download_priority" double precision DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "songs_genre" CHECK ("songs"."genre" is null or "songs"."genre" in ('Acoustic', 'Hip-Hop/R&B', 'Pop', 'Contemporary', 'Blues/Jazz')),
	CONSTRAINT "songs_energy" CHECK ("songs"."energy_level" is null or "songs"."energy_level" between 0 and 1000),
	CONSTRAINT "songs_danceability" CHECK ("songs"."danceability" is null or "songs"."danceability" between 0 and 1000),
	CONSTRAINT "songs_valence" CHECK ("songs"."valence" is null or "songs"."valence" between 0 and 1000),
	CONSTRAINT "songs_popularity" CHECK ("songs"."spotify_popularity" is null or "songs"."spotify_popularity" between 0 and 100),
	CONSTRAINT "songs_bpm" CHECK ("songs"."bpm" is null or "songs"."bpm" > 0),
	CONSTRAINT "songs_overplay" CHECK ("songs"."overplay_score" between 0 and 100),
	CONSTRAINT "songs_file_present_has_path" CHECK (not "songs"."file_present" or "songs"."file_path" is not null)
);
--> statement-breakpoint
CREATE TABLE "spotify_popularity_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"song_id" integer NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	"popularity" smallint NOT NULL,
	CONSTRAINT "popularity_history_range" CHECK ("spotify_popularity_history"."popularity" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "download_queue" ADD CONSTRAINT "download_queue_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_songs" ADD CONSTRAINT "playlist_songs_playlist_id_playlists_id_fk" FOREIGN KEY ("playlist_id") REFERENCES "public"."playlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_songs" ADD CONSTRAINT "playlist_songs_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plays" ADD CONSTRAINT "plays_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plays" ADD CONSTRAINT "plays_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plays" ADD CONSTRAINT "plays_social_id_socials_id_fk" FOREIGN KEY ("social_id") REFERENCES "public"."socials"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plays" ADD CONSTRAINT "plays_recording_id_recordings_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."recordings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording_chunks" ADD CONSTRAINT "recording_chunks_recording_id_recordings_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."recordings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scraped_events" ADD CONSTRAINT "scraped_events_linked_event_id_events_id_fk" FOREIGN KEY ("linked_event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "socials" ADD CONSTRAINT "socials_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spotify_popularity_history" ADD CONSTRAINT "spotify_popularity_history_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "download_queue_song_uq" ON "download_queue" USING btree ("song_id");--> statement-breakpoint
CREATE INDEX "download_queue_status_idx" ON "download_queue" USING btree ("status","priority_score");--> statement-breakpoint
CREATE INDEX "events_start_date_idx" ON "events" USING btree ("start_date");--> statement-breakpoint
CREATE INDEX "playlist_songs_song_idx" ON "playlist_songs" USING btree ("song_id");--> statement-breakpoint
CREATE UNIQUE INDEX "playlists_group_uq" ON "playlists" USING btree ("group_key");--> statement-breakpoint
CREATE INDEX "playlists_active_idx" ON "playlists" USING btree ("is_active");--> statement-breakpoint
CREATE INDEX "plays_song_started_idx" ON "plays" USING btree ("song_id","started_at");--> statement-breakpoint
CREATE INDEX "plays_event_window_idx" ON "plays" USING btree ("event_id","time_window");--> statement-breakpoint
CREATE INDEX "plays_social_window_idx" ON "plays" USING btree ("social_id","time_window");--> statement-breakpoint
CREATE INDEX "plays_recording_idx" ON "plays" USING btree ("recording_id");--> statement-breakpoint
CREATE INDEX "plays_started_idx" ON "plays" USING btree ("started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "recording_chunks_number_uq" ON "recording_chunks" USING btree ("recording_id","chunk_number");--> statement-breakpoint
CREATE UNIQUE INDEX "recordings_session_uq" ON "recordings" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "recordings_recorded_at_idx" ON "recordings" USING btree ("recorded_at");--> statement-breakpoint
CREATE INDEX "recordings_event_idx" ON "recordings" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "scraped_events_source_uq" ON "scraped_events" USING btree ("source_key");--> statement-breakpoint
CREATE INDEX "scraped_events_start_idx" ON "scraped_events" USING btree ("start_date");--> statement-breakpoint
CREATE UNIQUE INDEX "socials_event_date_uq" ON "socials" USING btree ("event_id","social_date");--> statement-breakpoint
CREATE UNIQUE INDEX "songs_file_path_uq" ON "songs" USING btree ("file_path");--> statement-breakpoint
CREATE UNIQUE INDEX "songs_content_hash_uq" ON "songs" USING btree ("content_hash");--> statement-breakpoint
CREATE INDEX "songs_artist_title_idx" ON "songs" USING btree ("artist","title");--> statement-breakpoint
CREATE INDEX "songs_genre_idx" ON "songs" USING btree ("genre");--> statement-breakpoint
CREATE INDEX "songs_release_date_idx" ON "songs" USING btree ("release_date");--> statement-breakpoint
CREATE INDEX "songs_overplay_idx" ON "songs" USING btree ("overplay_score");--> statement-breakpoint
CREATE INDEX "popularity_history_song_idx" ON "spotify_popularity_history" USING btree ("song_id","fetched_at");