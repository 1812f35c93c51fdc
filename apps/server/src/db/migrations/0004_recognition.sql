ALTER TABLE "plays" ADD COLUMN "recognizer" text;--> statement-breakpoint
ALTER TABLE "recording_chunks" ADD COLUMN "recognized_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recording_chunks" ADD COLUMN "recognition_error" text;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "fingerprinted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "fingerprint_version" text;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "fingerprint_error" text;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "external_ids" jsonb;