CREATE TABLE "play_summary_totals" (
	"id" integer PRIMARY KEY NOT NULL,
	"songs_played" integer NOT NULL,
	CONSTRAINT "play_summary_totals_one_row" CHECK ("play_summary_totals"."id" = 1)
);
