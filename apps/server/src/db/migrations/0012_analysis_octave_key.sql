ALTER TABLE "songs" ADD COLUMN "bpm_alt" real;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "key_confidence" real;--> statement-breakpoint
ALTER TABLE "songs" ADD CONSTRAINT "songs_bpm_alt" CHECK ("songs"."bpm_alt" is null or "songs"."bpm_alt" > 0);--> statement-breakpoint
ALTER TABLE "songs" ADD CONSTRAINT "songs_key_confidence" CHECK ("songs"."key_confidence" is null or "songs"."key_confidence" between 0 and 1);