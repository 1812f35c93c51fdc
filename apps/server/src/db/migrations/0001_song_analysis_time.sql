ALTER TABLE "songs" ADD COLUMN "analysis_duration_ms" integer;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "tags" jsonb;