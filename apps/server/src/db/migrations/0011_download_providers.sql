CREATE TABLE "download_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"queue_id" integer,
	"song_id" integer,
	"provider" text NOT NULL,
	"file_name" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text NOT NULL,
	"message" text,
	CONSTRAINT "download_attempts_outcome" CHECK ("download_attempts"."outcome" in ('running', 'completed', 'new_song', 'not_found', 'mismatch', 'error', 'timeout', 'unusable', 'duplicate'))
);
--> statement-breakpoint
CREATE TABLE "download_providers" (
	"name" text PRIMARY KEY NOT NULL,
	"position" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"daily_cap" integer NOT NULL,
	"timeout_seconds" integer NOT NULL,
	"max_attempts" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "download_providers_name" CHECK ("download_providers"."name" in ('inbox', 'command')),
	CONSTRAINT "download_providers_cap" CHECK ("download_providers"."daily_cap" between 0 and 100000),
	CONSTRAINT "download_providers_timeout" CHECK ("download_providers"."timeout_seconds" between 1 and 86400),
	CONSTRAINT "download_providers_attempts" CHECK ("download_providers"."max_attempts" between 1 and 10)
);
--> statement-breakpoint
ALTER TABLE "download_queue" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "download_attempts" ADD CONSTRAINT "download_attempts_queue_id_download_queue_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."download_queue"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_attempts" ADD CONSTRAINT "download_attempts_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "download_attempts_provider_started_idx" ON "download_attempts" USING btree ("provider","started_at");--> statement-breakpoint
CREATE INDEX "download_attempts_queue_idx" ON "download_attempts" USING btree ("queue_id");