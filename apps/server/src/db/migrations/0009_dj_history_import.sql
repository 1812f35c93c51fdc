CREATE TABLE "imported_plays" (
	"play_id" bigint PRIMARY KEY NOT NULL,
	"import_key" text NOT NULL,
	"format" text NOT NULL,
	"session_name" text NOT NULL,
	"time_estimated" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "imported_plays" ADD CONSTRAINT "imported_plays_play_id_plays_id_fk" FOREIGN KEY ("play_id") REFERENCES "public"."plays"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "imported_plays_key_uq" ON "imported_plays" USING btree ("import_key");